// Package class is the browser's side of class mode (docs/class.md): an
// instructor's page drives, students' pages follow, the class predicts.
// Its server side is app/server's /api/class/ over classroom's NATS.
package class

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"txnlab/app/browser"
	"txnlab/app/uitext"
	"txnlab/lessons/doc"
)

// A class (docs/class.md): an instructor's page drives, students' pages
// follow, the class predicts. The page speaks only to its own server
// (app/server's /api/class/): small POSTs up, server-sent events down.
// The session lives in the page's memory, not in a component, so it
// survives the page moving from the playground to a lesson and back; the
// instructor's secret is never in an address.

// Session is this page's class, if any.
type Session struct {
	Teacher bool // this page is the instructor's
	id      string
	code    string // the join code, for the instructor to show
	secret  string // the instructor's secret: drives the class
	view    string // the instructor's token for the event stream
	student string // a student's token
	lang    doc.Lang

	es        app.Value // the EventSource
	listeners []app.Func
	Following bool      // a student's page follows the instructor's
	State     State     // what the instructor's page shows, as last heard
	Question  *Question // the question asked, if any
	tally     *Tally
	students  int
	names     []string
	natsUp    bool
	Ended     bool // the instructor ended the class

	// The instructor's last state sent, and whether a send is on its way.
	sent    State
	sending bool

	// A student's vote in the open round, once acknowledged.
	voted     int
	voteRound int
	choice    int
	sure      int

	tickGen  int    // the instructor's playground sending now (classTick)
	Followed string // the lesson block a student's page followed last
	showQ    bool   // a new question to bring into a student's view
	retries  int    // streams reopened since the last that opened

	msg    string // the last outcome or refusal, in the page's language
	msgErr bool

	// The form fields of a question written on the spot.
	draftText, draftChoices string
}

// State is what the instructor's page shows: a playground's script and
// step, or a lesson's playground; Rev orders the states sent.
type State struct {
	Script string `json:"script"`
	Step   int    `json:"step"`
	Lesson string `json:"lesson,omitempty"`
	Block  string `json:"block,omitempty"` // a lesson's playground (class_follow.go)
	Rev    uint64 `json:"rev,omitempty"`
}

// Question is a question put to the class, a lesson's (ID) or written on
// the spot, and whether its round is open.
type Question struct {
	Round   int      `json:"round"`
	Of      int      `json:"of"`
	ID      string   `json:"id"`
	Text    string   `json:"text"`
	Choices []string `json:"choices"`
	Open    bool     `json:"open"`
}

// Tally is a round's votes per choice, with how sure the voters were,
// and the round before for comparison.
type Tally struct {
	Round  int      `json:"round"`
	Counts []int    `json:"counts"`
	Sure   [][3]int `json:"sure"`
	Total  int      `json:"total"`
	Prev   *Tally   `json:"prev"`
}

// theClass is the page's class session; nil when in none.
var theClass *Session

// Current is the page's class session; nil when in none.
func Current() *Session { return theClass }

// classHost is the class bar mounted now, whose context the class's
// events and answers are dispatched to, and classRedraw what it does
// with each (a student's page follows the instructor's).
var (
	classHost    app.Context
	hasClassHost bool
	classRedraw  = func(app.Context) {}
)

func classCtx(fallback app.Context) app.Context {
	if hasClassHost {
		return classHost
	}
	return fallback
}

// classJoinCode is the join code in an address's fragment (#class=CODE):
// a fragment never reaches a server's log.
func classJoinCode(fragment string) string {
	for _, part := range strings.Split(fragment, "&") {
		if v, ok := strings.CutPrefix(part, "class="); ok {
			return v
		}
	}
	return ""
}

// classAPI is the address of a class call, with the page's language for
// the reasons of a refusal.
func classAPI(op string, lang doc.Lang, id string) string {
	u := "/api/class/" + op + "?lang=" + string(lang)
	if id != "" {
		u += "&id=" + id
	}
	return u
}

// classPost sends body to the class API and calls done on the UI
// goroutine with the status (0: the server was not reached) and the text
// answered.
func classPost(ctx app.Context, url string, headers map[string]any, body any, done func(ctx app.Context, status int, text string)) {
	b, _ := json.Marshal(body)
	headers["Content-Type"] = "application/json"
	classFetch(ctx, url, map[string]any{"method": "POST", "headers": headers, "body": string(b)}, done)
}

func classFetch(ctx app.Context, url string, opts map[string]any, done func(ctx app.Context, status int, text string)) {
	// The answer is dispatched to the class bar mounted when it comes:
	// the button that asked may be gone by then (go-app drops a dispatch
	// to an element no longer mounted).
	ctx = classCtx(ctx)
	var onResponse, onText, onFail app.Func
	status := 0
	release := func() { onResponse.Release(); onText.Release(); onFail.Release() }
	onResponse = app.FuncOf(func(this app.Value, args []app.Value) any {
		status = args[0].Get("status").Int()
		return args[0].Call("text")
	})
	onText = app.FuncOf(func(this app.Value, args []app.Value) any {
		release()
		text := args[0].String()
		ctx.Dispatch(func(ctx app.Context) { done(ctx, status, text) })
		return nil
	})
	onFail = app.FuncOf(func(this app.Value, args []app.Value) any {
		release()
		ctx.Dispatch(func(ctx app.Context) { done(ctx, 0, "") })
		return nil
	})
	app.Window().Call("fetch", url, opts).Call("then", onResponse).Call("then", onText).Call("catch", onFail)
}

// refusal is what to tell the user of a failed call: the server's reason
// (in the page's language), or that it could not be reached.
func (c *Session) refusal(status int, text string) {
	c.msgErr = true
	text = strings.TrimSpace(text)
	switch {
	case status == 0 || text == "":
		c.msg = uitext.Tr(c.lang, "class.unreachable")
	case strings.HasPrefix(text, "<") || status == 405:
		// A page, not a reason: a static host, which has no classes.
		c.msg = uitext.Tr(c.lang, "class.err.off")
	default:
		c.msg = text
	}
}

// startClass creates a class with this page as its instructor.
func startClass(ctx app.Context, lang doc.Lang, redraw func(app.Context)) {
	classPost(ctx, classAPI("create", lang, ""), map[string]any{}, struct{}{}, func(ctx app.Context, status int, text string) {
		if status != 200 {
			c := &Session{lang: lang}
			c.refusal(status, text)
			theClass = c
			redraw(ctx)
			return
		}
		var r struct{ ID, Code, Secret, View string }
		json.Unmarshal([]byte(text), &r)
		c := &Session{Teacher: true, id: r.ID, code: r.Code, secret: r.Secret, view: r.View, lang: lang, natsUp: true}
		c.sent.Step = -1
		theClass = c
		c.listen(r.View)
		redraw(ctx)
	})
}

// joinClass joins the class of code as a student.
func joinClass(ctx app.Context, lang doc.Lang, code, name string, redraw func(app.Context)) {
	classPost(ctx, classAPI("join", lang, ""), map[string]any{}, map[string]string{"code": code, "name": name}, func(ctx app.Context, status int, text string) {
		if status != 200 {
			c := &Session{lang: lang, code: code}
			c.refusal(status, text)
			theClass = c
			redraw(ctx)
			return
		}
		var r struct{ ID, Student string }
		json.Unmarshal([]byte(text), &r)
		// Kept for this tab only: a phone reloading the page is back in
		// the class as the same student.
		app.Window().Get("sessionStorage").Call("setItem", "txnlab-class-"+code, r.ID+" "+r.Student)
		resumeClass(lang, r.ID, r.Student)
		redraw(ctx)
	})
}

// resumeClass follows class id as the student whose token is student.
func resumeClass(lang doc.Lang, id, student string) {
	c := &Session{id: id, student: student, lang: lang, Following: true, voted: -1, sure: 1}
	theClass = c
	c.listen(student)
}

// resumeJoined takes this tab back into the class of the address's join
// code, if it joined it before (a reload).
func resumeJoined(lang doc.Lang) {
	if theClass != nil || !app.IsClient {
		return
	}
	code := classJoinCode(app.Window().URL().Fragment)
	if code == "" {
		return
	}
	kept := app.Window().Get("sessionStorage").Call("getItem", "txnlab-class-"+code)
	if !kept.Truthy() {
		return
	}
	if id, student, ok := strings.Cut(kept.String(), " "); ok {
		resumeClass(lang, id, student)
	}
}

// listen opens the class's event stream. The browser's EventSource
// reconnects by itself when the stream breaks, and the server starts each
// stream with the class's current state.
func (c *Session) listen(token string) {
	c.es = app.Window().Get("EventSource").New("/api/class/events?id=" + c.id + "&t=" + token)
	on := func(name string, f func(data string)) {
		fn := app.FuncOf(func(this app.Value, args []app.Value) any {
			data := args[0].Get("data").String()
			if !hasClassHost {
				return nil // no page draws a class bar now
			}
			classHost.Dispatch(func(ctx app.Context) {
				f(data)
				classRedraw(ctx)
			})
			return nil
		})
		c.listeners = append(c.listeners, fn)
		c.es.Call("addEventListener", name, fn)
	}
	on("state", func(d string) {
		var s State
		if json.Unmarshal([]byte(d), &s) == nil {
			c.State = s
		}
	})
	on("question", func(d string) {
		var q Question
		if json.Unmarshal([]byte(d), &q) == nil {
			if c.Question == nil || c.Question.Round != q.Round {
				// No choice made for the student: one picked for
				// them would be the vote of whoever just commits.
				c.voted, c.choice = -1, -1
				c.showQ = q.Open && !c.Teacher
			}
			c.Question = &q
		}
	})
	on("tally", func(d string) {
		var t Tally
		if json.Unmarshal([]byte(d), &t) == nil {
			c.tally = &t
		}
	})
	on("students", func(d string) {
		var s struct {
			Count int
			Names []string
		}
		if json.Unmarshal([]byte(d), &s) == nil {
			c.students, c.names = s.Count, s.Names
		}
	})
	on("nats", func(d string) { c.natsUp = strings.Contains(d, "true") })
	on("ended", func(string) { c.Ended = true; c.close() })
	// An EventSource reconnects by itself when a stream breaks, but
	// gives up for good on an answer that is not a stream (the server
	// restarting, NATS away: 503). Try again, for a while.
	var onError app.Func
	onError = app.FuncOf(func(this app.Value, args []app.Value) any {
		if c.es.Get("readyState").Int() != 2 || c.Ended || c.retries >= classRetries {
			return nil
		}
		c.retries++
		es := c.es
		var again app.Func
		again = app.FuncOf(func(this app.Value, args []app.Value) any {
			again.Release()
			if theClass == c && c.es.Equal(es) && !c.Ended {
				c.close()
				c.listen(token)
			}
			return nil
		})
		app.Window().Call("setTimeout", again, 2000)
		return nil
	})
	c.listeners = append(c.listeners, onError)
	c.es.Call("addEventListener", "error", onError)
	on("open", func(string) { c.retries = 0 })
	c.listenBeat()
}

// classRetries bounds how often a page reopens a stream the server
// refused (every 2 s: ten minutes).
const classRetries = 300

// close stops the event stream.
func (c *Session) close() {
	if c.es.Truthy() {
		c.es.Call("close")
	}
	for _, f := range c.listeners {
		f.Release()
	}
	c.listeners = nil
}

// SendState sends the instructor's state when it differs from the last
// sent, one send at a time (the newest wins: a step pressed during a send
// goes with the next).
func (c *Session) SendState(ctx app.Context, s State) {
	if !c.Teacher || c.Ended || c.sending || s == c.sent {
		return
	}
	c.sending = true
	headers := map[string]any{"X-Class-Secret": c.secret}
	classPost(ctx, classAPI("state", c.lang, c.id), headers, s, func(ctx app.Context, status int, text string) {
		c.sending = false
		if status == 200 {
			c.sent = s
			if c.msgErr {
				c.msg, c.msgErr = "", false
			}
		} else {
			c.refusal(status, text)
		}
	})
}

// Ask opens, reopens or closes the class's question.
func (c *Session) Ask(ctx app.Context, action, id, text string, choices []string) {
	headers := map[string]any{"X-Class-Secret": c.secret}
	body := map[string]any{"action": action, "id": id, "text": text, "choices": choices}
	classPost(ctx, classAPI("question", c.lang, c.id), headers, body, func(ctx app.Context, status int, text string) {
		if status != 200 {
			c.refusal(status, text)
		} else {
			c.msg, c.msgErr = "", false
		}
		classRedraw(ctx)
	})
}

// predict commits the student's vote.
func (c *Session) predict(ctx app.Context) {
	q := c.Question
	if q == nil || !q.Open {
		return
	}
	round, choice := q.Round, c.choice
	if choice < 0 {
		c.msg, c.msgErr = uitext.Tr(c.lang, "q.pick"), true
		classRedraw(ctx)
		return
	}
	headers := map[string]any{"X-Class-Student": c.student}
	body := map[string]int{"round": round, "choice": choice, "sure": c.sure}
	classPost(ctx, classAPI("predict", c.lang, c.id), headers, body, func(ctx app.Context, status int, text string) {
		if status == 204 {
			c.voted, c.voteRound = choice, round
			c.msg, c.msgErr = uitext.Tr(c.lang, "class.voted"), false
		} else {
			c.refusal(status, text)
		}
		classRedraw(ctx)
	})
}

// downloadResults saves the class's votes as CSV.
func (c *Session) downloadResults(ctx app.Context) {
	opts := map[string]any{"headers": map[string]any{"X-Class-Secret": c.secret}}
	classFetch(ctx, classAPI("results.csv", c.lang, c.id), opts, func(ctx app.Context, status int, text string) {
		if status != 200 {
			c.refusal(status, text)
			classRedraw(ctx)
			return
		}
		browser.Download(ctx, "class-results.csv", "text/csv", text)
	})
}

// endClass ends the class for everyone.
func (c *Session) endClass(ctx app.Context) {
	classPost(ctx, classAPI("end", c.lang, c.id), map[string]any{"X-Class-Secret": c.secret}, struct{}{}, func(ctx app.Context, status int, text string) {
		if status != 204 {
			c.refusal(status, text)
		}
		c.close()
		theClass = nil
		classRedraw(ctx)
	})
}

// ---- The class bar ----

// classPoll is how often an instructor's playground checks whether its
// script or step has changed since the last state sent.
const classPoll = 150 * time.Millisecond

// Bar is the class's bar on a page. A component, so that the page
// mounted now is the one the class's events redraw: an event dispatched
// to a page that has gone would be dropped.
type Bar struct {
	app.Compo
	Lang doc.Lang
	// Follow takes the instructor's state into a student's page, and
	// keeps the instructor's own state going out; Start runs when the
	// instructor's class begins on this page.
	Follow func(app.Context)
	Start  func(app.Context)
	// More is what the page adds under the bar (a lesson's questions).
	More app.UI
	// Local finds a lesson question in the page's own language
	// (class_follow.go); nil off a lesson.
	Local func(id string) (text string, choices []string, ok bool)
	// Join is the path of the page a student's link opens (the
	// playground's, in English: the link is given in the bar's language).
	Join string
}

// OnMount makes this bar the one the class's events redraw, and resumes
// a class the page was in.
func (b *Bar) OnMount(ctx app.Context) {
	classHost, hasClassHost, classRedraw = ctx, true, b.follow
	classLocal = b.Local
	resumeJoined(b.Lang)
	if c := theClass; c != nil && c.id != "" {
		if c.Teacher && b.Start != nil {
			b.Start(ctx)
		}
		b.follow(ctx)
	}
}

func (b *Bar) follow(ctx app.Context) {
	classShowQuestion(ctx)
	if b.Follow != nil {
		b.Follow(ctx)
	}
}

// Render draws the bar for the page's role in the class, and the page's
// addition under it.
func (b *Bar) Render() app.UI {
	return app.Div().Class("class-host").Body(
		renderClassBar(b.Lang, b.Join, b.follow, func(ctx app.Context) {
			if b.Start != nil {
				b.Start(ctx)
			}
		}),
		b.More,
	)
}

// renderClassBar is the class's bar on any page: redraw is called after
// each event (a page that follows the instructor moves in it), start
// when the instructor's class begins.
func renderClassBar(l doc.Lang, join string, redraw func(app.Context), start func(app.Context)) app.UI {
	c := theClass
	if c == nil || c.id == "" {
		return renderClassStart(l, c, redraw, start)
	}
	if c.Ended {
		return app.Section().Class("class-bar").ID("class").Body(
			app.P().Role("status").Text(uitext.Tr(l, "class.ended")),
		)
	}
	if c.Teacher {
		return renderClassTeacher(l, join, c)
	}
	return renderClassStudent(l, c, redraw)
}

// renderClassStart offers to start a class, or to join the one whose code
// the address carries.
func renderClassStart(l doc.Lang, failed *Session, redraw func(app.Context), start func(app.Context)) app.UI {
	code := ""
	if app.IsClient {
		code = classJoinCode(app.Window().URL().Fragment)
	}
	var msg app.UI
	if failed != nil && failed.msg != "" {
		msg = app.P().Class("notice error").Role("alert").Text(failed.msg)
	}
	if code == "" {
		return app.Details().Class("class-bar").ID("class").Body(
			app.Summary().Text(uitext.Tr(l, "class.teach")),
			app.P().Text(uitext.Tr(l, "class.teach.what")),
			app.Button().ID("class-start").Text(uitext.Tr(l, "class.start")).OnClick(func(ctx app.Context, e app.Event) {
				startClass(ctx, l, func(ctx app.Context) {
					redraw(ctx)
					start(ctx)
				})
			}),
			msg,
		)
	}
	return app.Section().Class("class-bar").ID("class").Aria("label", uitext.Tr(l, "class.join")).Body(
		app.H2().Text(uitext.Tr(l, "class.join")),
		app.P().Text(uitext.Tr(l, "class.join.what")),
		app.Label().For("class-name").Text(uitext.Tr(l, "class.name")),
		app.Input().ID("class-name").Type("text").MaxLength(40).AutoComplete(false),
		app.Button().ID("class-join").Text(uitext.Tr(l, "class.join.go")).OnClick(func(ctx app.Context, e app.Event) {
			name := app.Window().GetElementByID("class-name").Get("value").String()
			joinClass(ctx, l, code, name, redraw)
		}),
		msg,
	)
}

// renderClassTeacher is the instructor's view: the code and link to give
// out, who is in, the question and its live distribution.
func renderClassTeacher(l doc.Lang, join string, c *Session) app.UI {
	link := ""
	if app.IsClient {
		u := app.Window().URL()
		link = u.Scheme + "://" + u.Host + uitext.InLang(l, join) + "#class=" + c.code
	}
	return app.Section().Class("class-bar teacher").ID("class").Aria("label", uitext.Tr(l, "class.yours")).Body(
		app.H2().Text(uitext.Tr(l, "class.yours")),
		app.P().Body(
			app.Text(uitext.Tr(l, "class.code")+" "),
			app.Strong().Class("class-code").ID("class-code").Text(c.code[:5]+"-"+c.code[5:]),
		),
		app.P().Body(app.Text(uitext.Tr(l, "class.link")+" "), app.Code().ID("class-link").Text(link)),
		classQR(l, c),
		app.If(!c.natsUp, func() app.UI {
			return app.P().Class("notice error").Role("alert").ID("class-nats").Text(uitext.Tr(l, "class.nats.down"))
		}),
		app.P().ID("class-students").Text(classStudents(l, c)),
		renderClassQuestionTeacher(l, c),
		app.If(c.msg != "", func() app.UI {
			return app.P().Class(classMsgClass(c)).Role("status").Text(c.msg)
		}),
		app.P().Body(
			app.Button().ID("class-csv").Text(uitext.Tr(l, "class.csv")).OnClick(func(ctx app.Context, e app.Event) { c.downloadResults(ctx) }),
			app.Text(" "),
			app.Button().ID("class-end").Text(uitext.Tr(l, "class.end")).OnClick(func(ctx app.Context, e app.Event) { c.endClass(ctx) }),
		),
	)
}

func classMsgClass(c *Session) string {
	if c.msgErr {
		return "notice error"
	}
	return "notice"
}

func classStudents(l doc.Lang, c *Session) string {
	s := strconv.Itoa(c.students) + " " + uitext.Tr(l, "class.students")
	if len(c.names) > 0 {
		s += ": " + strings.Join(c.names, ", ")
	}
	return s
}

// renderClassQuestionTeacher opens a question, shows its distribution
// while the class votes, and offers the second round.
func renderClassQuestionTeacher(l doc.Lang, c *Session) app.UI {
	q := c.Question
	var tally app.UI
	if q != nil && c.tally != nil && c.tally.Round == q.Round {
		tally = renderTally(l, q, c.tally)
	}
	if q != nil && q.Open {
		return app.Div().Class("class-question").Body(
			app.P().Class("class-q-text").Text(q.Text),
			tally,
			app.Button().ID("class-close").Text(uitext.Tr(l, "class.q.close")).OnClick(func(ctx app.Context, e app.Event) { c.Ask(ctx, "close", "", "", nil) }),
		)
	}
	return app.Div().Class("class-question").Body(
		app.If(q != nil, func() app.UI {
			return app.Div().Body(
				app.P().Class("class-q-text").Text(q.Text),
				tally,
				app.Button().ID("class-again").Text(uitext.Tr(l, "class.q.again")).OnClick(func(ctx app.Context, e app.Event) { c.Ask(ctx, "again", "", "", nil) }),
			)
		}),
		app.Details().Body(
			app.Summary().Text(uitext.Tr(l, "class.q.new")),
			app.Label().For("class-q-text").Text(uitext.Tr(l, "class.q.text")),
			app.Textarea().ID("class-q-text").Rows(2).Text(c.draftText),
			app.Label().For("class-q-choices").Text(uitext.Tr(l, "class.q.choices")),
			app.Textarea().ID("class-q-choices").Rows(4).Text(c.draftChoices),
			app.Button().ID("class-open").Text(uitext.Tr(l, "class.q.open")).OnClick(func(ctx app.Context, e app.Event) {
				doc := app.Window().Get("document")
				c.draftText = doc.Call("getElementById", "class-q-text").Get("value").String()
				c.draftChoices = doc.Call("getElementById", "class-q-choices").Get("value").String()
				var choices []string
				for _, line := range strings.Split(c.draftChoices, "\n") {
					if s := strings.TrimSpace(line); s != "" {
						choices = append(choices, s)
					}
				}
				c.Ask(ctx, "open", "", strings.TrimSpace(c.draftText), choices)
			}),
		),
	)
}

// renderTally draws a round's distribution: per choice a bar and the
// count, without names, and the first vote's count beside a second's.
func renderTally(l doc.Lang, q *Question, t *Tally) app.UI {
	rows := make([]app.UI, 0, len(q.Choices))
	for i, choice := range q.Choices {
		n := 0
		if i < len(t.Counts) {
			n = t.Counts[i]
		}
		text := strconv.Itoa(n)
		if t.Prev != nil && i < len(t.Prev.Counts) {
			text += " (" + uitext.Tr(l, "class.tally.before") + " " + strconv.Itoa(t.Prev.Counts[i]) + ")"
		}
		rows = append(rows, app.Li().DataSet("choice", i).DataSet("count", n).Body(
			app.Span().Class("class-choice").Text(choice),
			// A bar in twentieths (classes w0…w20 in app.css): the
			// page's CSP allows no inline style, and a <meter> would
			// link one more element type into the wasm.
			app.Span().Class("class-track").Aria("hidden", "true").Body(
				app.Span().Class("class-fill w"+strconv.Itoa(n*20/max(1, t.Total))),
			),
			app.Span().Class("class-count").Text(text),
		))
	}
	return app.Div().Class("class-tally").ID("class-tally").DataSet("total", t.Total).Body(
		app.P().Text(uitext.Tr(l, "class.tally")+" "+strconv.Itoa(t.Total)),
		app.Ul().Body(rows...),
	)
}

// renderClassStudent is a student's view: following or exploring, and
// the open question to predict.
func renderClassStudent(l doc.Lang, c *Session, redraw func(app.Context)) app.UI {
	follow := app.Button().ID("class-detach").Text(uitext.Tr(l, "class.detach")).OnClick(func(ctx app.Context, e app.Event) { c.Following = false })
	status := uitext.Tr(l, "class.following")
	if !c.Following {
		status = uitext.Tr(l, "class.exploring")
		follow = app.Button().ID("class-rejoin").Text(uitext.Tr(l, "class.rejoin")).OnClick(func(ctx app.Context, e app.Event) {
			c.Following = true
			redraw(ctx)
		})
	}
	return app.Section().Class("class-bar student").ID("class").DataSet("following", c.Following).Aria("label", uitext.Tr(l, "class.in")).Body(
		app.P().Body(app.Strong().Text(uitext.Tr(l, "class.in")), app.Text(" "+status+" "), follow),
		renderClassQuestionStudent(l, c),
		app.If(c.msg != "", func() app.UI {
			return app.P().Class(classMsgClass(c)).Role("status").ID("class-msg").Text(c.msg)
		}),
	)
}

func renderClassQuestionStudent(l doc.Lang, c *Session) app.UI {
	q := classLocalize(c.Question)
	if q == nil {
		return nil
	}
	if !q.Open {
		// The vote is over: say what this student predicted, for the
		// discussion and the run that settles it.
		if c.voteRound != q.Round || c.voted < 0 || c.voted >= len(q.Choices) {
			return nil
		}
		return app.P().Class("class-question").ID("class-closed").Text(fmt.Sprintf(uitext.Tr(l, "class.closed.yours"), q.Choices[c.voted]))
	}
	choices := make([]app.UI, 0, len(q.Choices))
	for i, text := range q.Choices {
		id := "class-choice-" + strconv.Itoa(i)
		choices = append(choices, app.Li().Body(
			app.Input().Type("radio").Name("class-choice").ID(id).Checked(c.choice == i).OnChange(func(ctx app.Context, e app.Event) { c.choice = i }),
			app.Label().For(id).Text(text),
		))
	}
	sure := []string{"q.sure.low", "q.sure.mid", "q.sure.high"}
	sures := make([]app.UI, 0, 3)
	for i, key := range sure {
		id := "class-sure-" + strconv.Itoa(i)
		sures = append(sures, app.Span().Body(
			app.Input().Type("radio").Name("class-sure").ID(id).Checked(c.sure == i).OnChange(func(ctx app.Context, e app.Event) { c.sure = i }),
			app.Label().For(id).Text(uitext.Tr(l, key)),
		))
	}
	return app.Div().Class("class-question").ID("class-predict").DataSet("round", q.Round).Body(
		app.P().Class("class-q-text").Text(q.Text),
		app.FieldSet().Body(app.Legend().Text(uitext.Tr(l, "q.predict")), app.Ul().Body(choices...)),
		app.FieldSet().Body(append([]app.UI{app.Legend().Text(uitext.Tr(l, "q.sure"))}, sures...)...),
		app.Button().ID("class-commit").Text(uitext.Tr(l, "class.commit")).OnClick(func(ctx app.Context, e app.Event) { c.predict(ctx) }),
	)
}

// ---- A lesson's class bar ----

// PlainText is a lesson's inline HTML as text, for a question sent to the
// class: its tags dropped and the entities goldmark writes read back.
// (Not package html nor regexp: html's entity table alone adds hundreds
// of kB to the wasm.)
func PlainText(h string) string {
	var b strings.Builder
	for {
		i := strings.IndexByte(h, '<')
		if i < 0 {
			b.WriteString(h)
			break
		}
		b.WriteString(h[:i])
		j := strings.IndexByte(h[i:], '>')
		if j < 0 {
			break
		}
		h = h[i+j+1:]
	}
	return strings.TrimSpace(entities.Replace(b.String()))
}

var entities = strings.NewReplacer("&lt;", "<", "&gt;", ">", "&quot;", `"`, "&#39;", "'", "&#x27;", "'", "&amp;", "&")

// listenBeat answers the stream's beats with a sign that this student's
// page is still here. A network event, not a timer: a hidden tab's
// timers are throttled to once a minute, its events are not.
func (c *Session) listenBeat() {
	if c.student == "" {
		return
	}
	var ignore app.Func
	ignore = app.FuncOf(func(this app.Value, args []app.Value) any { return nil })
	beat := app.FuncOf(func(this app.Value, args []app.Value) any {
		opts := map[string]any{"method": "POST", "headers": map[string]any{"X-Class-Student": c.student}}
		// The answer changes nothing on the page; a beat lost is
		// made up by the next.
		app.Window().Call("fetch", classAPI("here", c.lang, c.id), opts).Call("catch", ignore)
		return nil
	})
	c.listeners = append(c.listeners, ignore, beat)
	c.es.Call("addEventListener", "beat", beat)
	listenPageHide()
}

// pageHooks is set once the page's pagehide and pageshow listeners are
// in: they serve whichever class the page is in, for the page's life.
var pageHooks bool

// listenPageHide closes a student's stream when the page is hidden for
// good or put in the back-forward cache: a page leaving for another
// site kept its stream open while cached, and stayed in the count until
// its sign expired. A page that comes back from the cache follows again.
func listenPageHide() {
	if pageHooks || !app.IsClient {
		return
	}
	pageHooks = true
	hide := app.FuncOf(func(this app.Value, args []app.Value) any {
		if c := theClass; c != nil && c.student != "" && c.es.Truthy() {
			c.es.Call("close")
		}
		return nil
	})
	show := app.FuncOf(func(this app.Value, args []app.Value) any {
		if c := theClass; c != nil && c.student != "" && !c.Ended && args[0].Get("persisted").Bool() {
			c.close()
			c.listen(c.student)
		}
		return nil
	})
	app.Window().Call("addEventListener", "pagehide", hide)
	app.Window().Call("addEventListener", "pageshow", show)
}

// classQR is the join link's QR code, drawn by the server.
func classQR(l doc.Lang, c *Session) app.UI {
	return app.Img().ID("class-qr").Class("class-qr").
		Src(classAPI("qr.svg", l, "") + "&code=" + c.code).
		Alt(uitext.Tr(l, "class.qr")).Title(uitext.Tr(l, "class.qr"))
}

// TickEvery runs send now and then every classPoll, until the class ends
// or another page starts its own ticks (the page that started these has
// gone: the timer's dispatch to it is dropped).
func (c *Session) TickEvery(ctx app.Context, send func(app.Context)) {
	c.tickGen++
	gen := c.tickGen
	var tick func(ctx app.Context)
	tick = func(ctx app.Context) {
		if theClass != c || c.tickGen != gen || c.Ended {
			return
		}
		send(ctx)
		ctx.After(classPoll, tick)
	}
	tick(ctx)
}

// classLocal is the mounted class bar's Local.
var classLocal func(id string) (string, []string, bool)

// classLocalize is q as a student's page shows it: a lesson question in
// the page's own language (the instructor's page may be in another), the
// choices in the same order, so a vote's index means the same choice.
func classLocalize(q *Question) *Question {
	if q == nil || q.ID == "" || classLocal == nil {
		return q
	}
	text, choices, ok := classLocal(q.ID)
	if !ok || len(choices) != len(q.Choices) {
		return q
	}
	local := *q
	local.Text, local.Choices = text, choices
	return &local
}

// classShowQuestion brings a question just opened into a student's view:
// on a phone the page may be scrolled to a playground far below the bar.
func classShowQuestion(ctx app.Context) {
	c := theClass
	if c == nil || !c.showQ || !app.IsClient {
		return
	}
	c.showQ = false
	ctx.Defer(func(app.Context) {
		if el := app.Window().GetElementByID("class-predict"); el.Truthy() {
			el.Call("scrollIntoView", map[string]any{"block": "nearest"})
		}
	})
}
