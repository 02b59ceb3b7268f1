package playground

import (
	"strings"
	"testing"

	"txnlab/app/pagetext"
	"txnlab/lessons/doc"
)

// The presenter's keys are taken only while presenting, but for P, which
// enters it: outside the presenter view PageDown scrolls the page and B
// is a letter, as a reader expects.
func TestPresenterKeys(t *testing.T) {
	for _, tc := range []struct {
		key        string
		presenting bool
		taken      bool
	}{
		{"p", false, true}, {"P", false, true}, {"p", true, true},
		{"PageDown", false, false}, {"PageDown", true, true},
		{"PageUp", false, false}, {"PageUp", true, true},
		{"b", false, false}, {"B", true, true},
		{"Escape", false, false}, {"Escape", true, true},
		{"x", true, false}, {"Enter", true, false},
	} {
		if got := presenterKey(tc.key, tc.presenting); got != tc.taken {
			t.Errorf("presenterKey(%q, presenting=%v) = %v, want %v", tc.key, tc.presenting, got, tc.taken)
		}
	}
}

// The size control stays within its sizes however often it is pressed.
func TestPresenterSizeStaysInRange(t *testing.T) {
	var v Presenter
	v.StartPresenting()
	if v.sizeLabel() != "150%" {
		t.Errorf("a first presentation at %s, want 150%%", v.sizeLabel())
	}
	for range 20 {
		v.Resize(1)
	}
	if v.sizeLabel() != "300%" {
		t.Errorf("the largest size is %s", v.sizeLabel())
	}
	for range 20 {
		v.Resize(-1)
	}
	if v.sizeLabel() != "100%" {
		t.Errorf("the smallest size is %s", v.sizeLabel())
	}
}

// The presenter view in Chinese has no English sentence (its bar, its
// caption at the end of a run, its blank screen), and its caption says
// the step and shows the script's line.
func TestPresenterViewRendersInBothLanguages(t *testing.T) {
	p := newTestPlayground(t, "happy-path")
	p.lib.libraryListed = true
	p.view.StartPresenting()
	p.view.Blank = true
	p.run.engine.Seek(3)
	for _, lang := range []doc.Lang{doc.Chinese, doc.English} {
		p.run.lang = string(lang)
		h := render(p)
		for _, want := range []string{`class="playground presenting"`, `class="pres-bar"`, `class="pres-caption"`, `data-blank`} {
			if !strings.Contains(h, want) {
				t.Errorf("%s: the presenter view has no %s", lang, want)
			}
		}
		if lang == doc.Chinese {
			for _, w := range pagetext.EnglishIn(h) {
				t.Errorf("English on the Chinese presenter view: %q", w)
			}
		}
	}
	if h := render(p); !strings.Contains(h, `class="pres-said">Step 3 of`) {
		t.Error("the English caption does not say the step")
	}
}
