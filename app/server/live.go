//go:build !wasm

package server

// The playground's Live mode (issue 27): a session running outside the
// page — real Kafka clients on `txnlab serve --kafka` — followed as the
// script it is recorded as. The server streams the script and each line
// recorded after it (server-sent events); the page replays them with its
// own engine, so stepping back, the inspector, share links and exports
// all work on a live session. A fault card pressed in Live mode comes
// back here as a statement the session applies and records.

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"time"
)

// Live is a session the playground's Live mode follows.
type Live interface {
	// Follow returns the session's script so far and a channel of what
	// is recorded after it, each a run of whole lines ending in "\n". The
	// channel closes when the session ends or cancel is called.
	Follow() (script string, more <-chan string, cancel func())
	// Apply applies one statement typed on a page (a fault card: crash
	// the coordinator, cut a broker) to the session at its current
	// moment and records it, or says why it cannot.
	Apply(stmt string) error
}

// Breakpoints is a live session whose clients' requests the learner may
// hold (issue 27): Break names the API whose next request waits at the
// listener ("" clears it), Step lets the held request go. The Kafka
// listener offers it; a session without it answers the page 404.
type Breakpoints interface {
	Break(api string) error
	Step() error
}

// Live mode's paths.
const (
	liveEventsPath = "/live/events"
	liveApplyPath  = "/live/apply"
	liveBreakPath  = "/live/break"
	liveStepPath   = "/live/step"
)

// maxLiveFollowers bounds the pages following a live session at once:
// each holds a connection and a goroutine.
const maxLiveFollowers = 64

// livePing is how often an idle stream says it is alive, so a proxy
// does not close it and the page can tell a dead server from a quiet one.
const livePing = 15 * time.Second

// maxStatementBytes bounds a statement a page applies: one line.
const maxStatementBytes = 4 << 10

var (
	refuseNoLive = refusal{
		"404 no live session: start the server with --kafka to follow real clients",
		"404 没有实时会话：用 --kafka 启动服务器，才能跟随真实的客户端"}
	refuseLiveBusy = refusal{
		"503 too many pages follow the live session; close one and try again",
		"503 跟随实时会话的页面太多；请关闭一个再试"}
	refuseLiveMethod = refusal{
		"405 method not allowed: the live session's events are read with GET, statements sent with POST",
		"405 不允许的方法：实时会话的事件用 GET 读取，语句用 POST 发送"}
	refuseStatement = refusal{
		"400 the statement was refused: %s",
		"400 语句被拒绝：%s"}
	refuseNoBreakpoints = refusal{
		"404 this live session cannot hold requests",
		"404 这个实时会话不能暂停请求"}
	refuseBreakpoint = refusal{
		"422 the breakpoint was refused: %s",
		"422 断点被拒绝：%s"}
	refuseBreakAPI = refusal{
		"422 the breakpoint was refused: no API named %q can be held",
		"422 断点被拒绝：没有名为 %q 的可暂停 API"}
	refuseNothingHeld = refusal{
		"422 no request is held: set a breakpoint and wait for a client to send that API",
		"422 没有被暂停的请求：先设置断点，再等客户端发送这个 API"}
	refuseEmptyStatement = refusal{
		"400 no statement: send one line of the scenario language",
		"400 没有语句：请发送一行场景语言"}
)

// liveServer serves Live mode's two paths.
type liveServer struct {
	live      Live
	followers atomic.Int64
}

// liveLang is the language a live request's refusals are in: the page's,
// which it names in its lang parameter (the paths are not per language).
func liveLang(r *http.Request) string {
	if r.URL.Query().Get("lang") == "zh" {
		return "/zh/"
	}
	return "/"
}

// serve answers a request under /live/; it reports false for any other
// path.
func (l *liveServer) serve(w http.ResponseWriter, r *http.Request) bool {
	p := r.URL.Path
	if p != liveEventsPath && p != liveApplyPath && p != liveBreakPath && p != liveStepPath {
		return false
	}
	lang := liveLang(r)
	w.Header().Set("Cache-Control", "no-store")
	if l == nil || l.live == nil {
		http.Error(w, refuseNoLive.in(lang), http.StatusNotFound)
		return true
	}
	switch {
	case p == liveEventsPath && (r.Method == http.MethodGet || r.Method == http.MethodHead):
		l.events(w, r, lang)
	case p == liveApplyPath && r.Method == http.MethodPost:
		l.apply(w, r, lang)
	case (p == liveBreakPath || p == liveStepPath) && r.Method == http.MethodPost:
		l.breakpoint(w, r, lang)
	default:
		w.Header().Set("Allow", map[bool]string{true: "GET, HEAD", false: "POST"}[p == liveEventsPath])
		http.Error(w, refuseLiveMethod.in(lang), http.StatusMethodNotAllowed)
	}
	return true
}

// events streams the session: "script" with everything so far, then
// "append" with each run of lines recorded, then "end" when it ends.
// Each event's data is a JSON string, so lines need no escaping of
// their own.
func (l *liveServer) events(w http.ResponseWriter, r *http.Request, lang string) {
	if l.followers.Add(1) > maxLiveFollowers {
		l.followers.Add(-1)
		w.Header().Set("Retry-After", "5")
		http.Error(w, refuseLiveBusy.in(lang), http.StatusServiceUnavailable)
		return
	}
	defer l.followers.Add(-1)
	rc := http.NewResponseController(w)
	// The stream outlives the server's read and write timeouts, meant
	// for files: past the read deadline net/http would cancel the
	// request's context and end the stream.
	rc.SetReadDeadline(time.Time{})
	rc.SetWriteDeadline(time.Time{})
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	if r.Method == http.MethodHead {
		return
	}
	script, more, cancel := l.live.Follow()
	defer cancel()
	send := func(event, data string) bool {
		b, _ := json.Marshal(data)
		if _, err := fmt.Fprintf(w, "event: %s\ndata: %s\n\n", event, b); err != nil {
			return false
		}
		return rc.Flush() == nil
	}
	if !send("script", script) {
		return
	}
	ping := time.NewTicker(livePing)
	defer ping.Stop()
	for {
		select {
		case <-r.Context().Done():
			return
		case lines, ok := <-more:
			if !ok {
				send("end", "")
				return
			}
			if !send("append", lines) {
				return
			}
		case <-ping.C:
			if _, err := io.WriteString(w, ": ping\n\n"); err != nil || rc.Flush() != nil {
				return
			}
		}
	}
}

// apply applies the statement in the request's body.
func (l *liveServer) apply(w http.ResponseWriter, r *http.Request, lang string) {
	b, err := io.ReadAll(io.LimitReader(r.Body, maxStatementBytes+1))
	if err != nil {
		return
	}
	stmt := strings.TrimSpace(string(b))
	switch {
	case len(b) > maxStatementBytes:
		http.Error(w, refuseStatement.in(lang, fmt.Sprintf("longer than %d bytes", maxStatementBytes)), http.StatusRequestEntityTooLarge)
	case stmt == "":
		http.Error(w, refuseEmptyStatement.in(lang), http.StatusBadRequest)
	case strings.ContainsAny(stmt, "\r\n"):
		http.Error(w, refuseStatement.in(lang, "one line only"), http.StatusBadRequest)
	default:
		if err := l.live.Apply(stmt); err != nil {
			// The core's reason as it is (the CLI's words): the page
			// says it in its own language with the reason's identifiers
			// (actionError), as for a statement it ran itself.
			http.Error(w, err.Error(), http.StatusUnprocessableEntity)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	}
}

// breakpoint sets or clears the breakpoint (/live/break, the API's name
// in the body, empty to clear) or steps (/live/step).
func (l *liveServer) breakpoint(w http.ResponseWriter, r *http.Request, lang string) {
	bp, ok := l.live.(Breakpoints)
	if !ok {
		http.Error(w, refuseNoBreakpoints.in(lang), http.StatusNotFound)
		return
	}
	b, err := io.ReadAll(io.LimitReader(r.Body, maxStatementBytes+1))
	if err != nil {
		return
	}
	if len(b) > maxStatementBytes {
		http.Error(w, refuseBreakpoint.in(lang, fmt.Sprintf("longer than %d bytes", maxStatementBytes)), http.StatusRequestEntityTooLarge)
		return
	}
	// The listener's reasons are English: what it refuses is said here
	// in the page's language, with the API's name as it was sent.
	if r.URL.Path == liveStepPath {
		if bp.Step() != nil {
			http.Error(w, refuseNothingHeld.in(lang), http.StatusUnprocessableEntity)
			return
		}
	} else if api := strings.TrimSpace(string(b)); bp.Break(api) != nil {
		http.Error(w, refuseBreakAPI.in(lang, api), http.StatusUnprocessableEntity)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}
