package app

import "github.com/maxence-charriere/go-app/v10/pkg/app"

// Description is the site's one-sentence summary: the home page's
// description and the default one the server gives every page.
const Description = "A playground that teaches Apache Kafka transactions by running them: " +
	"a simulated cluster in your browser that you can step through, break and replay."

// homePage says what txnlab is and where to start.
type homePage struct {
	app.Compo
}

func (h *homePage) OnNav(ctx app.Context) { setPage(ctx, "", Description) }

func (h *homePage) Render() app.UI {
	return shell(PathHome,
		app.Section().Class("hero").Body(
			app.H1().Text("Kafka transactions, step by step"),
			app.P().Class("lead").Text(
				"txnlab is a playground that teaches Apache Kafka transactions by running them. "+
					"A simulated cluster — brokers, the transaction coordinator, producers and consumers — "+
					"runs in your browser, one message at a time, so you can watch a commit happen, "+
					"crash a broker halfway through, and replay the same history exactly."),
			app.Ul().Class("actions").Body(
				app.Li().Body(app.A().Class("button primary").Href(PathPlayground).Text("Open the playground")),
				app.Li().Body(app.A().Class("button").Href(PathScenarios).Text("Browse the scenarios")),
			),
		),
		app.Section().Class("how").Aria("label", "How it works").Body(
			app.H2().Text("How it works"),
			app.Ul().Body(
				app.Li().Text("A scenario is a short script: set up a cluster, send, commit, crash."),
				app.Li().Text("Every step is drawn as a sequence diagram of the real Kafka requests."),
				app.Li().Text("The same script and seed always give the same history, in the browser and on the command line."),
			),
		),
	)
}
