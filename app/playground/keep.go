package playground

import (
	"encoding/json"
	"net/url"
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"txnlab/app/browser"
	"txnlab/app/site"
	"txnlab/app/uitext"
	"txnlab/lessons/doc"
)

// The full playground keeps the learner's script and position in the
// browser, so a reload (or a crash of the tab) brings back what was on
// screen. What is kept belongs to the address it was made at: reloading
// /playground?scenario=abort after editing brings the edits back, while
// opening another scenario or a share link starts from what that address
// says (the edited script stays on Undo, as before).

// keptScriptKey and keptPosKey are the localStorage keys: the position
// changes at every step while playing, so it is kept apart from the
// script, which may be long.
const (
	keptScriptKey = "txnlab.playground.script"
	keptPosKey    = "txnlab.playground.pos"
)

// keptScript is the script last on screen and the address it belongs to.
type keptScript struct {
	Source string `json:"source"`
	Script string `json:"script"`
}

// sourceOf names the address a playground was opened at, whatever its
// language: /zh/playground?scenario=abort is the same source as
// /playground?scenario=abort, so the language control, which leads from
// one to the other, keeps the edited script and the position.
func sourceOf(u interface{ String() string }) string {
	s := u.String()
	v, err := url.Parse(s)
	if err != nil || uitext.LangOf(v.Path) != doc.Chinese {
		return s
	}
	v.Path = uitext.InLang(doc.English, v.Path)
	return v.String()
}

// keepScript writes the script down for its source.
func keepScript(source, script string) {
	if !app.IsClient {
		return
	}
	b, err := json.Marshal(keptScript{source, script})
	if err != nil {
		return
	}
	browser.SetItem(keptScriptKey, string(b))
}

// keepPos writes the position down for its source.
func keepPos(source string, pos int) {
	if app.IsClient {
		browser.SetItem(keptPosKey, strconv.Itoa(pos)+" "+source)
	}
}

// kept returns what was kept for source: the script, and the position
// (-1 when none was kept).
func kept(source string) (script string, pos int, ok bool) {
	if !app.IsClient {
		return "", -1, false
	}
	var k keptScript
	if v := browser.GetItem(keptScriptKey); v == "" || json.Unmarshal([]byte(v), &k) != nil || k.Source != source {
		return "", -1, false
	}
	pos = -1
	if n, src, found := cutSpace(browser.GetItem(keptPosKey)); found && src == source {
		if i, err := strconv.Atoi(n); err == nil && i >= 0 {
			pos = i
		}
	}
	return k.Script, pos, true
}

func cutSpace(s string) (before, after string, found bool) {
	for i := 0; i < len(s); i++ {
		if s[i] == ' ' {
			return s[:i], s[i+1:], true
		}
	}
	return s, "", false
}

// twinSuffix is what the playground's address in the other language
// keeps of this one: the scenario (?scenario=) and a shared script and
// step (#s=…&p=…). The edited script and the position go through the
// browser's storage, which sourceOf keys alike in both languages.
func (p *playground) twinSuffix() string {
	if p.page.source != "" {
		if u, err := url.Parse(p.page.source); err == nil {
			u.Scheme, u.Host, u.User, u.Path = "", "", nil, ""
			return u.String()
		}
	}
	if p.lib.slug != "" {
		return strings.TrimPrefix(site.PlaygroundLink(p.lib.slug), site.PathPlayground)
	}
	return ""
}

// keepNow writes down the script and the position for the address shown,
// before the page leaves it inside the app (the language control, a
// link): pagehide fires only when the document goes.
func (p *playground) keepNow() {
	if p.page.source != "" && p.run.script != "" {
		keepScript(p.page.source, p.run.script)
		keepPos(p.page.source, p.run.engine.Pos())
	}
}
