package app

import "github.com/maxence-charriere/go-app/v10/pkg/app"

// Paths of the pages, shared by the route table, the links and the tests.
const (
	PathHome       = "/"
	PathPlayground = "/playground"
	PathScenarios  = "/scenarios"
)

// Register installs the route table. Both hosts call it: the wasm entry
// before app.RunWhenOnBrowser, and the server before it serves, because
// go-app pre-renders a page on the server with the same components.
func Register() {
	app.Route(PathHome, func() app.Composer { return &homePage{} })
	app.Route(PathPlayground, func() app.Composer { return newPlayground() })
	app.Route(PathScenarios, func() app.Composer { return &scenariosPage{} })
}

// Paths lists every route, for the static export.
func Paths() []string { return []string{PathHome, PathPlayground, PathScenarios} }
