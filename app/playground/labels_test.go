package playground

import (
	"encoding/xml"
	"io"
	"strconv"
	"strings"
	"testing"

	"txnlab/app/engine"
	"txnlab/diagram"
	"txnlab/scenarios"
)

// svgTexts are the label texts of an SVG drawing with their x, and the
// drawing's width.
func svgTexts(t *testing.T, svg string) (texts []struct {
	class, text string
	x           int
}, width int) {
	t.Helper()
	dec := xml.NewDecoder(strings.NewReader(svg))
	var cur *struct {
		class, text string
		x           int
	}
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return texts, width
		} else if err != nil {
			t.Fatal(err)
		}
		switch el := tok.(type) {
		case xml.StartElement:
			attr := map[string]string{}
			for _, a := range el.Attr {
				attr[a.Name.Local] = a.Value
			}
			if el.Name.Local == "svg" && width == 0 {
				width, _ = strconv.Atoi(attr["width"])
			}
			if el.Name.Local == "text" && (strings.Contains(attr["class"], "message-label") || strings.Contains(attr["class"], "note-label")) {
				x, _ := strconv.Atoi(attr["x"])
				texts = append(texts, struct {
					class, text string
					x           int
				}{attr["class"], "", x})
				cur = &texts[len(texts)-1]
			}
		case xml.CharData:
			if cur != nil {
				cur.text += string(el)
			}
		case xml.EndElement:
			if el.Name.Local == "text" {
				cur = nil
			}
		}
	}
}

// TestLabelsFitTheDiagram: on the page and in the SVG export, every
// arrow label and note lies inside the diagram — responses to the first
// lane do not start left of its edge, notes of the last lane do not run
// past its right edge — and the export writes every label whole.
func TestLabelsFitTheDiagram(t *testing.T) {
	for _, sc := range scenarios.All() {
		e := engine.New()
		if err := e.Load(sc.Script); err != nil {
			t.Fatal(err)
		}
		e.Seek(e.Len())
		for _, f := range []diagram.Filter{{}, {Replication: true}} {
			l := diagram.LayoutOf(e.Names(), e.History(), e.Events(), len(e.Events()), f)
			var page strings.Builder
			for c := 0; c*chunkRows < len(l.Rows); c++ {
				page.WriteString(rawSVG("rows", drawChunk(l, e.Events(), c, 0)))
			}
			texts, _ := svgTexts(t, `<svg width="`+itoa(l.Width)+`">`+page.String()+`</svg>`)
			for _, tx := range texts {
				if tx.x < 0 || tx.x+diagram.TextWidth(tx.text) > l.Width {
					t.Errorf("%s (page, %+v): %q at x=%d..%d outside the diagram's 0..%d", sc.Slug, f, tx.text, tx.x, tx.x+diagram.TextWidth(tx.text), l.Width)
				}
			}
			svg := diagram.SVG(e.Names(), e.History(), e.Events(), f)
			texts, width := svgTexts(t, svg)
			for _, tx := range texts {
				if tx.x < 0 || tx.x+diagram.TextWidth(tx.text) > width {
					t.Errorf("%s (SVG, %+v): %q at x=%d..%d outside the drawing's 0..%d", sc.Slug, f, tx.text, tx.x, tx.x+diagram.TextWidth(tx.text), width)
				}
				if strings.Contains(tx.text, "…") {
					t.Errorf("%s (SVG): label cut: %q", sc.Slug, tx.text)
				}
			}
		}
	}
}
