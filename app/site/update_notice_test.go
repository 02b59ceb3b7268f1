package site

import (
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"txnlab/lessons/doc"
)

// The update notice appears once go-app reports a new version, with the
// reload, in the page's language; before that it takes no room.
func TestUpdateNotice(t *testing.T) {
	u := &UpdateNotice{Lang: doc.Chinese}
	if html := app.HTMLString(u.Render()); !strings.Contains(html, "hidden") {
		t.Errorf("with no update the notice shows: %s", html)
	}
	u.available = true
	html := app.HTMLString(u.Render())
	for _, want := range []string{"新版本已经就绪", `data-action="update"`, `role="status"`} {
		if !strings.Contains(html, want) {
			t.Errorf("the notice lacks %q: %s", want, html)
		}
	}
}
