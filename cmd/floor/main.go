// Command floor is the bare go-app page that `make bench` measures the
// playground's time to interactive against (issue 13: "as a ratio to a
// bare go-app page built and served the same way in the same run"). It
// is built with the playground's flags into out/floor (make floor) and
// served by the same server; its one page answers at /playground with
// the two things the time-to-interactive probe looks for, a Step button
// and a status that reads "Step i of 1000" after i presses. So the ratio
// of the two figures is what the playground costs above go-app itself.
package main

import (
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// floorPage is the least a go-app page can be and still answer a press.
type floorPage struct {
	app.Compo
	steps int
}

// Render shows the button and the position.
func (p *floorPage) Render() app.UI {
	return app.Main().Body(
		app.Button().Aria("label", "Step").Text("Step").OnClick(func(app.Context, app.Event) { p.steps = min(p.steps+1, 1000) }),
		app.P().Class("status").Body(
			app.Span().Class("position").Text("Step "+strconv.Itoa(p.steps)+" of 1000"),
		),
	)
}

func main() {
	app.Route("/playground", func() app.Composer { return &floorPage{} })
	app.RunWhenOnBrowser()
}
