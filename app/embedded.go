package app

// TEMPORARY stand-in for the embedded playground being written on branch
// embed; replaced by that branch's app/embedded.go at the merge.

import "github.com/maxence-charriere/go-app/v10/pkg/app"

const showAction = "scenario.show"

// ShowRequest asks the embedded playground ID to show Script stopped
// after line Stop.
type ShowRequest struct {
	ID     string
	Script string
	Stop   int
}

type scenarioPlayground struct {
	app.Compo
	ID, Title, Script string
	Facts             []string
	Lang              string
}

func (s *scenarioPlayground) Render() app.UI {
	return app.Section().Class("embedded-playground").Attr("data-scenario", s.ID).Body(
		app.H3().Text(s.Title), app.Pre().Text(s.Script))
}
