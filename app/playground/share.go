package playground

import (
	"encoding/base64"
	"errors"
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"txnlab/app/browser"
	"txnlab/app/uitext"
	"txnlab/internal/deflate"
)

// A share link carries the whole script in the URL's fragment (#s=…),
// compressed and URL-safe, so opening it reproduces the session exactly
// and no server ever sees or stores it.

// maxSharedScript bounds what a link may expand to, so a crafted link
// cannot make the page inflate gigabytes.
const maxSharedScript = 1 << 20

// EncodeScript compresses a script for a link.
func EncodeScript(src string) string {
	return base64.RawURLEncoding.EncodeToString(deflate.Compress([]byte(src)))
}

// decodeScript reverses encodeScript.
func decodeScript(s string) (string, error) {
	raw, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		return "", err
	}
	out, err := deflate.Decompress(raw, maxSharedScript)
	if errors.Is(err, deflate.ErrTooLong) {
		return "", errors.New("the shared script is too long")
	}
	return string(out), err
}

// sharedScript reads the script of a share link from a URL fragment.
func sharedScript(fragment string) (string, bool, error) {
	for _, part := range strings.Split(fragment, "&") {
		if v, ok := strings.CutPrefix(part, "s="); ok {
			src, err := decodeScript(v)
			return src, err == nil, err
		}
	}
	return "", false, nil
}

// sharedPos is the step a share link was made at (p=N), or -1.
func sharedPos(fragment string) int {
	for _, part := range strings.Split(fragment, "&") {
		if v, ok := strings.CutPrefix(part, "p="); ok {
			if n, err := strconv.Atoi(v); err == nil && n >= 0 {
				return n
			}
		}
	}
	return -1
}

// onShare puts a link to the script in the editor on the clipboard, and in
// the address bar, where the learner can copy it if the clipboard is
// refused.
func (p *playground) onShare(ctx app.Context, e app.Event) {
	if !app.IsClient {
		return
	}
	if len(p.run.script) > maxSharedScript {
		// The page that opens the link would refuse it: say so now.
		p.say(true, uitext.Tr(p.run.lang, "pg.share.toobig"))
		return
	}
	u := app.Window().URL()
	u.RawQuery = ""
	// The step goes with the script, so the link opens where it was
	// shared from.
	u.Fragment = "s=" + EncodeScript(p.run.script) + "&p=" + strconv.Itoa(p.run.engine.Pos())
	link := u.String()
	app.Window().Get("history").Call("replaceState", nil, "", link)
	// A reload of the new address brings this script back.
	p.page.source = sourceOf(u)
	keepScript(p.page.source, p.run.script)
	keepPos(p.page.source, p.run.engine.Pos())
	p.say(false, uitext.Tr(p.run.lang, "pg.share.address"))
	if browser.CopyToClipboard(link) {
		p.say(false, uitext.Tr(p.run.lang, "pg.share.copied"))
	}
}
