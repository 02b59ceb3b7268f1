package pages

import (
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"txnlab/app/pagetext"
	"txnlab/app/playground"
	"txnlab/app/site"
	"txnlab/lessons/doc"
)

// The scenarios page links every library scenario to the playground.
func TestScenariosPageLinksEveryScenario(t *testing.T) {
	html := app.HTMLString((&scenariosPage{}).Render())
	for _, sc := range playground.Library() {
		if !strings.Contains(html, `href="`+site.PlaygroundLink(sc.Slug)+`"`) {
			t.Errorf("the scenarios page does not link %s", sc.Slug)
		}
	}
}

// The Chinese scenarios page shows no English sentence; the English one
// does (the check can fail).
func TestChineseScenariosPageHasNoEnglishSentence(t *testing.T) {
	s := &scenariosPage{lang: doc.Chinese}
	for _, w := range pagetext.EnglishIn(app.HTMLString(s.Render())) {
		t.Errorf("the Chinese scenarios page: English %q", w)
	}
	if len(pagetext.EnglishIn(app.HTMLString((&scenariosPage{lang: doc.English}).Render()))) == 0 {
		t.Error("the English scenarios page has no English sentence: the check cannot fail")
	}
}

// The compare page has its route in both languages.
func TestComparePageIsRouted(t *testing.T) {
	if !Routed(site.PathCompare) || !Routed("/zh"+site.PathCompare) {
		t.Error("/compare is not routed")
	}
}
