package playground

import (
	"fmt"
	"txnlab/app/uitext"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// librarySelect is the editor's list of library scenarios, grouped by
// topic in teaching order (libraryTopics) as the scenarios page groups
// them, each title in the page's language. A component, so go-app does
// not rebuild and compare its two dozen options at every step.
type librarySelect struct {
	app.Compo
	Lang string
	// Listed is false until the page's first history is drawn: until
	// then only the scenario shown is listed (reading the whole library
	// is not needed for the first step).
	Listed bool
	// Slug is the scenario loaded ("" for none), Title its title.
	Slug, Title string
	// Edited is set once the learner's script differs from it: the list
	// then names the learner's script, not the scenario it came from.
	Edited   bool
	onChange app.EventHandler // kept from the first render: a method of the page
}

func (s *librarySelect) Render() app.UI {
	l := s.Lang
	first := uitext.Tr(l, "Load a scenario…")
	if s.Edited {
		first = uitext.Tr(l, "pg.your-script")
		if s.Title != "" {
			first = fmt.Sprintf(uitext.Tr(l, "pg.your-script-from"), s.Title)
		}
	}
	selected := s.Slug
	if s.Edited {
		selected = ""
	}
	opts := []app.UI{app.Option().Value("").Selected(selected == "").Text(first)}
	switch {
	case !s.Listed && selected != "":
		opts = append(opts, app.Option().Value(s.Slug).Selected(true).Text(s.Title))
	case s.Listed:
		bySlug := map[string]Scenario{}
		for _, sc := range libraryIn(l) {
			bySlug[sc.Slug] = sc
		}
		for t, topic := range LibraryTopics {
			var group []app.UI
			for _, slug := range topic.Slugs {
				if sc, ok := bySlug[slug]; ok {
					group = append(group, app.Option().Value(slug).Selected(slug == selected).Text(sc.Title))
				}
			}
			// app.Elem, not app.OptGroup: each go-app element type
			// links its own methods into the wasm.
			opts = append(opts, app.Elem("optgroup").Attr("label", TopicTitle(l, t)).Body(group...))
		}
	}
	// Its name in the page's language is a hidden span of the editor
	// (renderEditor), so the select stays where the layout puts it.
	return app.Select().Class("scenario-select").Aria("label", "Load a library scenario").
		Aria("labelledby", uitext.LabelledBy(l, "Load a library scenario", "library-select-name")).
		OnChange(s.onChange).Body(opts...)
}
