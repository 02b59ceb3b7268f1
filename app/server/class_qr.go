//go:build !wasm

package server

import (
	"fmt"
	"net/http"
	"strings"

	qrcode "github.com/skip2/go-qrcode"

	"txnlab/lessons/doc"
)

// serveClassQR draws the QR code of a class's join link as SVG, for the
// instructor's page to show on the projector: a phone's camera opens the
// link. Drawn here, not in the page, so the wasm links no encoder; the
// SVG is a single path of dark squares, scaled by the page.
func (s *Server) serveClassQR(w http.ResponseWriter, r *http.Request, lang doc.Lang, fail func(error)) {
	code, err := s.cfg.Classes.CheckCode(r.URL.Query().Get("code"))
	if err != nil {
		fail(err)
		return
	}
	path := "/playground"
	if lang == doc.Chinese {
		path = "/zh/playground"
	}
	link := joinScheme(r) + "://" + r.Host + path + "#class=" + code
	q, err := qrcode.New(link, qrcode.Medium)
	if err != nil {
		fail(err) // a link too long for a QR code: not from a real host
		return
	}
	w.Header().Set("Content-Type", "image/svg+xml")
	w.Write([]byte(qrSVG(q.Bitmap())))
}

// joinScheme is the scheme a phone should use: the request's, or the one
// a proxy in front says it was.
func joinScheme(r *http.Request) string {
	if r.TLS != nil || strings.EqualFold(strings.TrimSpace(strings.Split(r.Header.Get("X-Forwarded-Proto"), ",")[0]), "https") {
		return "https"
	}
	return "http"
}

// qrSVG draws a QR code's modules (its quiet zone included) as one path.
func qrSVG(bits [][]bool) string {
	var b strings.Builder
	n := len(bits)
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %d %d" shape-rendering="crispEdges"><rect width="%d" height="%d" fill="#fff"/><path fill="#000" d="`, n, n, n, n)
	for y, row := range bits {
		for x, dark := range row {
			if dark {
				fmt.Fprintf(&b, "M%d %dh1v1h-1z", x, y)
			}
		}
	}
	b.WriteString(`"/></svg>`)
	return b.String()
}
