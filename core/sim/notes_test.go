package sim

import (
	"strconv"
	"strings"
	"testing"
)

// TestEveryNoteCodeHasItsEnglish: a code without a template would write
// an empty note into the trace, and a template whose placeholders skip a
// number would leave "{2}" in it.
func TestEveryNoteCodeHasItsEnglish(t *testing.T) {
	for _, c := range NoteCodes() {
		tmpl := NoteTemplates[c]
		if tmpl == "" {
			t.Errorf("note code %d has no English template", c)
			continue
		}
		n := strings.Count(tmpl, "{")
		for i := 0; i < n; i++ {
			if !strings.Contains(tmpl, "{"+strconv.Itoa(i)+"}") {
				t.Errorf("note code %d: %q lacks {%d}", c, tmpl, i)
			}
		}
		args := make([]string, n)
		for i := range args {
			args[i] = "<" + strconv.Itoa(i) + ">"
		}
		if got := FillNote(tmpl, args); strings.ContainsAny(got, "{}") {
			t.Errorf("note code %d: %q is left with a placeholder", c, got)
		}
	}
}

// TestNoteTextIsTheEnglish: a recorded note's text is its English, and
// TextIn writes the note in another language after a prefix it keeps (a
// call's result name before its detail).
func TestNoteTextIsTheEnglish(t *testing.T) {
	w := NewWorld(1)
	w.Note(nodea, "txn t", NoteTxnTimedOut, "1m")
	e := w.Trace.At(0)
	if e.Text != "transaction timed out after 1m: fencing the producer and aborting" {
		t.Errorf("text %q", e.Text)
	}
	upper := func(n *Note) string { return strings.ToUpper(n.English()) }
	if got := e.TextIn(upper); got != strings.ToUpper(e.Text) {
		t.Errorf("TextIn = %q", got)
	}
	call := Event{Text: "IllegalStateException the producer is closed", Note: NewNote(NoteProducerClosed)}
	if got := call.TextIn(upper); got != "IllegalStateException THE PRODUCER IS CLOSED" {
		t.Errorf("a call's TextIn = %q", got)
	}
	if got := FillNote("{0} and {1}", []string{"x"}); got != "x and {1}" {
		t.Errorf("a missing argument: %q", got)
	}
}
