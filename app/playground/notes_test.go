package playground

import (
	"os"
	"strconv"
	"strings"
	"testing"

	"txnlab/app/pagetext"
	"txnlab/app/uitext"
	"txnlab/core/sim"
	"txnlab/diagram"
	"txnlab/i18n/english"
	"txnlab/lessons/doc"
)

// manyNotes is a script whose run writes most kinds of the core's notes:
// a group's rebalances and a member's session timeout, break and
// restore, transaction timeouts, a coordinator crash and the loading of
// its transaction log elsewhere, the controller fencing and registering
// a broker, partitions and heals, a duplicate batch, the ISR shrinking
// and expanding; an expectation met and one not. app/e2e's Chinese test
// runs it too.
var manyNotes = readScenario("testdata/many-notes.scenario")

// sampleArgs are arguments of the kinds the core passes: identifiers,
// numbers and durations.
var sampleArgs = []string{"broker-1", "3", "checkout-1", "30s", "PrepareCommit"}

// TestEveryNoteHasBothLanguages: every note code the core writes has its
// English (the core's table) and its Chinese (uitext.NoteMessages), with the
// same arguments, and the Chinese written out holds no English sentence.
func TestEveryNoteHasBothLanguages(t *testing.T) {
	for _, c := range sim.NoteCodes() {
		en, zh := sim.NoteTemplates[c], uitext.NoteMessages[c]
		if en == "" || zh == "" {
			t.Errorf("note %d: missing a language: %q / %q", c, en, zh)
			continue
		}
		if !hasHan(zh) {
			t.Errorf("note %d: the Chinese %q has no Chinese in it", c, zh)
		}
		for i := 0; i < 10; i++ {
			ph := "{" + strconv.Itoa(i) + "}"
			if strings.Contains(en, ph) != strings.Contains(zh, ph) {
				t.Errorf("note %d: %s is in one language only: %q / %q", c, ph, en, zh)
			}
		}
		out := uitext.NoteIn(string(doc.Chinese), sim.NewNote(c, sampleArgs...))
		for _, s := range english.Sentences(out) {
			t.Errorf("note %d in Chinese is English: %q (%q)", c, s, out)
		}
		if got := uitext.NoteIn("en", sim.NewNote(c, sampleArgs...)); got != sim.FillNote(en, sampleArgs) {
			t.Errorf("note %d in English: %q", c, got)
		}
	}
	for c := range uitext.NoteMessages {
		if c == sim.NoteNone || int(c) >= len(sim.NoteTemplates) {
			t.Errorf("noteMessages has a code the core does not: %d", c)
		}
	}
}

// shapeTexts are the texts a user reads or hears of a drawn diagram:
// its labels, tooltips (title) and accessible names (aria-label).
func shapeTexts(s diagram.Shape, out []string) []string {
	if s.Text != "" {
		out = append(out, s.Tag+": "+s.Text)
	}
	for _, a := range s.Attrs {
		if a.K == "aria-label" {
			out = append(out, "aria-label: "+a.V)
		}
	}
	for _, k := range s.Kids {
		out = append(out, shapeTexts(k, nil)...)
	}
	return out
}

// TestChineseDiagramSaysNotesInChinese: every row of the diagram of a
// run full of notes, as a Chinese page draws it and as its SVG and
// Mermaid exports write it, holds no English sentence (before, the
// core's notes were English: "ISR shrinks: broker-2 has not caught up
// for 30s"); the English page draws them in English (the check can fail).
func TestChineseDiagramSaysNotesInChinese(t *testing.T) {
	p := NewPlayground()
	p.setEditor(ctx, manyNotes)
	p.startLoad(ctx, manyNotes, nil)
	if p.run.engine.Len() == 0 || p.run.engine.Err() != nil {
		t.Fatalf("the script did not run: %v", p.run.engine.Err())
	}
	p.run.engine.Seek(p.run.engine.Len())
	hist, names := p.run.engine.History(), p.run.engine.Names()
	notes := map[sim.NoteCode]bool{}
	for i := range hist {
		if hist[i].Note != nil {
			notes[hist[i].Note.Code] = true
		}
	}
	for _, c := range []sim.NoteCode{sim.NoteISRShrinks, sim.NoteTxnTimedOut, sim.NoteBreak, sim.NoteHealed, sim.NoteGroupStable, sim.NoteTxnLoaded, sim.NoteDuplicateBatch} {
		if !notes[c] {
			t.Errorf("the run has no note %q", sim.NoteTemplates[c])
		}
	}
	f := diagram.Filter{Replication: true}
	for _, lang := range []string{"zh", "en"} {
		full := diagram.FullLayout(diagram.LanesOf(f, diagram.Run{Names: names, Events: hist}), names, hist, f)
		full.Words = uitext.DiagramWords(lang) // as the page sets them
		l := full.At(len(hist), len(hist))
		var texts []string
		for _, s := range diagram.DrawRows(l, hist, 0, l.NowRow+1, 0) {
			texts = shapeTexts(s, texts)
		}
		texts = append(texts, strings.Split(diagram.SVGIn(names, hist, hist, f, uitext.DiagramWords(lang)), "\n")...)
		texts = append(texts, strings.Split(diagram.MermaidIn(names, hist, f, uitext.DiagramWords(lang)), "\n")...)
		var english []string
		for _, s := range texts {
			english = append(english, pagetext.Prose(s)...)
		}
		switch {
		case lang == "zh":
			for _, s := range english {
				t.Errorf("English in the Chinese diagram: %q", s)
			}
		case len(english) == 0:
			t.Error("the English diagram has no English sentence: the check cannot fail")
		}
	}
}

// readScenario is a test script kept as a file (app/e2e's Chinese test reads it too).
func readScenario(path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		panic(err)
	}
	return string(b)
}
