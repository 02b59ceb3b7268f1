package playground

// The playground's Live mode (issue 27): the page follows a session
// running on the server — real Kafka clients on `txnlab serve --kafka` —
// as the script the session is recorded as. The server streams the
// script and each line recorded after it (server-sent events, served by
// app/server/live.go); the page replays them with its own engine, so
// stepping back, the inspector, share links and exports work as on any
// script. A fault card pressed in Live mode is sent to the session, which
// applies it at its current moment and streams it back as a line.

import (
	"errors"
	"net/url"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"txnlab/app/uitext"
	"txnlab/lessons/doc"
)

// The paths app/server/live.go serves.
const (
	liveEventsPath = "/live/events"
	liveApplyPath  = "/live/apply"
	liveBreakPath  = "/live/break"
	liveStepPath   = "/live/step"
)

// The states of a live feed, shown in its status line (data-live).
const (
	liveConnecting = "connecting" // waiting for the session's script
	liveFollowing  = "following"  // the script arrived; lines follow
	liveLost       = "lost"       // the stream broke; the browser retries
	liveEnded      = "ended"      // the session ended: the script is whole
	liveAbsent     = "absent"     // the server has no live session
)

// isLive reports whether a playground address asks for Live mode
// (?live or ?live=1).
func isLive(u *url.URL) bool {
	v, ok := u.Query()["live"]
	return ok && (len(v) == 0 || v[0] != "0")
}

// liveFeed is a playground's connection to the live session.
type liveFeed struct {
	state string
	// script is the session's script as the server sent it; pending is
	// set when lines arrived during a run, which then runs again.
	script  string
	pending bool
	// breakAPI is the API the breakpoint holds ("": none).
	breakAPI string
	es       app.Value
	funcs    []app.Func
}

// close stops following and releases the listeners.
func (f *liveFeed) close() {
	if f == nil {
		return
	}
	if f.es != nil && f.es.Truthy() {
		f.es.Call("close")
	}
	for _, fn := range f.funcs {
		fn.Release()
	}
	f.funcs = nil
}

// openLive starts following the live session: the editor empties, and
// the script arrives with the first event.
func (p *playground) openLive(ctx app.Context) {
	p.closeLive()
	p.live = &liveFeed{state: liveConnecting}
	p.lib.slug, p.lib.slugTitle, p.lib.original = "", uitext.Tr(p.run.lang, "live.title"), ""
	p.setEditor(ctx, "")
	if !app.IsClient {
		return
	}
	f := p.live
	on := func(event string, handle func(ctx app.Context, data string)) {
		fn := app.FuncOf(func(this app.Value, args []app.Value) any {
			data := ""
			if len(args) > 0 {
				if d := args[0].Get("data"); d.Truthy() {
					data = app.Window().Get("JSON").Call("parse", d).String()
				}
			}
			ctx.Dispatch(func(ctx app.Context) {
				if p.live == f {
					handle(ctx, data)
				}
			})
			return nil
		})
		f.funcs = append(f.funcs, fn)
		f.es.Call("addEventListener", event, fn)
	}
	f.es = app.Window().Get("EventSource").New(liveEventsPath + "?lang=" + p.run.lang)
	on("script", func(ctx app.Context, data string) {
		f.state, f.script = liveFollowing, data
		f.breakAPI = breakpointIn(f.script, "")
		p.liveRun(ctx, true)
	})
	on("append", func(ctx app.Context, data string) {
		f.script += data
		f.breakAPI = breakpointIn(data, f.breakAPI)
		p.liveRun(ctx, false)
	})
	on("end", func(ctx app.Context, _ string) {
		f.state = liveEnded
		f.close()
	})
	on("error", func(ctx app.Context, _ string) {
		if f.state == liveEnded {
			return
		}
		// Before any script: the server has no session (404) or is
		// gone; the browser would retry a 404 forever, so stop.
		if f.state == liveConnecting {
			f.state = liveAbsent
			f.close()
			return
		}
		f.state = liveLost // EventSource reconnects by itself; "script" comes again
	})
}

// closeLive stops following, if the playground was.
func (p *playground) closeLive() {
	p.live.close()
	p.live = nil
}

// liveRun replays the session's script: the learner who was at the
// newest step (or who just arrived) follows it; one who stepped back
// stays where they are. Lines arriving during a run wait for it.
func (p *playground) liveRun(ctx app.Context, first bool) {
	f := p.live
	if p.run.busy {
		f.pending = true
		return
	}
	f.pending = false
	follow := first || p.run.engine.Pos() >= p.run.engine.Len()
	pos := p.run.engine.Pos()
	src := f.script
	p.setEditor(ctx, src)
	p.startLoad(ctx, src, func(ctx app.Context, err error) {
		if p.live != f {
			return
		}
		if follow {
			p.run.engine.Seek(p.run.engine.Len())
		} else {
			p.run.engine.Seek(pos)
		}
		p.followNewest(ctx)
		if f.pending {
			ctx.Defer(func(ctx app.Context) { p.liveRun(ctx, false) })
		}
	})
}

// liveAct sends a card's statement to the live session instead of
// writing it into the page's script: the session applies it and the line
// comes back with the stream. It reports whether Live mode took it.
func (p *playground) liveAct(ctx app.Context, stmt string) bool {
	if p.live == nil {
		return false
	}
	if p.live.state != liveFollowing {
		p.say(true, uitext.Tr(p.run.lang, "live.notfollowing"))
		return true
	}
	lang := p.run.lang
	var onResponse, onText, onFail app.Func
	release := func() { onResponse.Release(); onText.Release(); onFail.Release() }
	ok := false
	onResponse = app.FuncOf(func(this app.Value, args []app.Value) any {
		ok = args[0].Get("ok").Bool()
		return args[0].Call("text")
	})
	onText = app.FuncOf(func(this app.Value, args []app.Value) any {
		release()
		reason := ""
		if len(args) > 0 {
			reason = args[0].String()
		}
		ctx.Dispatch(func(ctx app.Context) {
			if ok {
				p.say(false, uitext.Tr(lang, "live.sent")+" "+stmt)
			} else {
				p.sayPieces(true, actionError(lang, stmt, errors.New(reason)))
			}
		})
		return nil
	})
	onFail = app.FuncOf(func(this app.Value, args []app.Value) any {
		release()
		ctx.Dispatch(func(ctx app.Context) { p.say(true, uitext.Tr(lang, "live.unreachable")) })
		return nil
	})
	opts := app.Window().Get("Object").New()
	opts.Set("method", "POST")
	opts.Set("body", stmt)
	app.Window().Call("fetch", liveApplyPath+"?lang="+lang, opts).Call("then", onResponse).Call("then", onText).Call("catch", onFail)
	return true
}

// renderLive is Live mode's status line: where the script comes from and
// whether it is still coming.
func (p *playground) renderLive() app.UI {
	if p.live == nil {
		return nil
	}
	l := doc.Lang(p.run.lang)
	return app.Div().Body(
		app.P().Class("live-status").Role("status").DataSet("live", p.live.state).Body(
			app.Span().Class("live-dot").Aria("hidden", true),
			app.Text(uitext.Tr(l, "live."+p.live.state)),
		),
		app.If(p.live.state == liveFollowing, func() app.UI { return p.renderBreakpoint(l) }),
	)
}

// breakpointIn is the API the session's breakpoint holds after lines of
// its script, which record each setting as a comment (kafkalistener's
// breakpoint.go): a page that opens or reloads shows the breakpoint the
// session has. was is the API before these lines.
func breakpointIn(lines, was string) string {
	const set, cleared = "# breakpoint: the next ", "# breakpoint: cleared"
	i, j := strings.LastIndex(lines, set), strings.LastIndex(lines, cleared)
	switch {
	case i < 0 && j < 0:
		return was
	case j > i:
		return ""
	}
	api, _, _ := strings.Cut(lines[i+len(set):], " ")
	return api
}

// liveBreakAPIs are the APIs the breakpoint offers: what a transactional
// producer and a consumer send, by Kafka's names (not translated).
var liveBreakAPIs = []string{"FindCoordinator", "InitProducerId", "AddPartitionsToTxn", "Produce", "AddOffsetsToTxn",
	"TxnOffsetCommit", "EndTxn", "Metadata", "ListOffsets", "Fetch", "JoinGroup", "SyncGroup", "Heartbeat",
	"OffsetCommit", "OffsetFetch", "LeaveGroup"}

// renderBreakpoint is Live mode's breakpoint (issue 27): the learner
// picks an API, the listener holds the next request of it outside the
// simulation (the script shows a "# breakpoint: holding …" line), and
// Step lets it in.
func (p *playground) renderBreakpoint(l doc.Lang) app.UI {
	opts := []app.UI{app.Option().Value("").Text(uitext.Tr(l, "live.break.none")).Selected(p.live.breakAPI == "")}
	for _, api := range liveBreakAPIs {
		opts = append(opts, app.Option().Value(api).Text(api).Selected(p.live.breakAPI == api))
	}
	return app.P().Class("live-break").Body(
		app.Label().For("live-break").Text(uitext.Tr(l, "live.break")),
		app.Select().ID("live-break").OnChange(p.onLiveBreak).Body(opts...),
		app.Button().Class("live-step").Text(uitext.Tr(l, "live.step")).Disabled(p.live.breakAPI == "").OnClick(p.onLiveStep),
	)
}

func (p *playground) onLiveBreak(ctx app.Context, e app.Event) {
	api := ctx.JSSrc().Get("value").String()
	if p.live == nil {
		return
	}
	lang := p.run.lang
	p.livePost(ctx, liveBreakPath, api, func(ctx app.Context, ok bool) {
		switch {
		case !ok:
			p.say(true, uitext.Tr(lang, "live.break.refused"))
		case api == "":
			p.live.breakAPI = ""
			p.say(false, uitext.Tr(lang, "live.break.cleared"))
		default:
			p.live.breakAPI = api
			p.say(false, uitext.Tr(lang, "live.break.set")+" "+api)
		}
	})
}

func (p *playground) onLiveStep(ctx app.Context, e app.Event) {
	lang := p.run.lang
	p.livePost(ctx, liveStepPath, "", func(ctx app.Context, ok bool) {
		if ok {
			p.say(false, uitext.Tr(lang, "live.stepped"))
		} else {
			p.say(true, uitext.Tr(lang, "live.step.none"))
		}
	})
}

// livePost posts body to one of the live session's paths and hands
// whether the session took it to done, on the page's goroutine. The
// server's reason is English, so the page says its own.
func (p *playground) livePost(ctx app.Context, path, body string, done func(ctx app.Context, ok bool)) {
	if !app.IsClient || p.live == nil {
		return
	}
	var onResponse, onFail app.Func
	release := func() { onResponse.Release(); onFail.Release() }
	onResponse = app.FuncOf(func(this app.Value, args []app.Value) any {
		release()
		ok := args[0].Get("ok").Bool()
		ctx.Dispatch(func(ctx app.Context) { done(ctx, ok) })
		return nil
	})
	onFail = app.FuncOf(func(this app.Value, args []app.Value) any {
		release()
		ctx.Dispatch(func(ctx app.Context) { p.say(true, uitext.Tr(p.run.lang, "live.unreachable")) })
		return nil
	})
	opts := app.Window().Get("Object").New()
	opts.Set("method", "POST")
	opts.Set("body", body)
	app.Window().Call("fetch", path+"?lang="+p.run.lang, opts).Call("then", onResponse).Call("catch", onFail)
}
