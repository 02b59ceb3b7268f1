//go:build !wasm

package server

import (
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"time"

	"txnlab/app/uitext"
	"txnlab/classroom"
	"txnlab/lessons/doc"
)

// The class API: browsers never speak NATS, they speak this. Small POSTs
// up (JSON bodies, classroom.Decode's bounds), server-sent events down.
// The instructor's secret travels in a header, never in an address; a
// student's token is in the event stream's address because EventSource
// cannot send headers, and it drives nothing but that student's vote.
const (
	classPrefix   = "/api/class/"
	secretHeader  = "X-Class-Secret"
	studentHeader = "X-Class-Student"
	// heartbeat keeps a quiet stream's connection from being closed by a
	// proxy, and finds a page that has gone away.
	heartbeat = 20 * time.Second
)

// serveClass answers the class API; a server with no Classes answers 404.
func (s *Server) serveClass(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-store")
	lang := classLang(r)
	h := s.cfg.Classes
	fail := func(err error) {
		var e *classroom.Error
		if !errors.As(err, &e) {
			e = &classroom.Error{Status: 500, Key: "class.err.nats"}
		}
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.WriteHeader(e.Status)
		fmt.Fprintln(w, uitext.ClassText(lang, e.Key, e.Args...))
	}
	if h == nil {
		fail(&classroom.Error{Status: 404, Key: "class.err.off"})
		return
	}
	op := strings.TrimPrefix(r.URL.Path, classPrefix)
	want := http.MethodPost
	if op == "events" || op == "results.csv" || op == "qr.svg" {
		want = http.MethodGet
	}
	if r.Method != want {
		w.Header().Set("Allow", want)
		fail(&classroom.Error{Status: 405, Key: "class.err.method"})
		return
	}
	id := r.URL.Query().Get("id")
	secret := r.Header.Get(secretHeader)
	// Every client has its own rate: an address for creating and
	// joining, the class's instructor, each student.
	var allowed bool
	switch {
	case secret != "":
		// By the secret, not the class: a stranger sending wrong
		// secrets must not spend the instructor's budget.
		allowed = h.Allow("i:" + secret)
	case r.Header.Get(studentHeader) != "":
		allowed = h.Allow("s:" + r.Header.Get(studentHeader))
	case op == "events":
		allowed = h.Allow("e:" + r.URL.Query().Get("t"))
	default:
		allowed = h.AllowJoin(clientAddr(r))
	}
	if !allowed {
		w.Header().Set("Retry-After", "1")
		fail(&classroom.Error{Status: 429, Key: "class.err.rate"})
		return
	}
	body := http.MaxBytesReader(w, r.Body, classroom.MaxMessage+1)
	reply := func(v any, err error) {
		if err != nil {
			fail(err)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(v)
	}
	switch op {
	case "create":
		c, err := h.Create(clientAddr(r))
		reply(c, err)
	case "join":
		var in classroom.JoinIn
		if err := classroom.Decode(body, &in); err != nil {
			fail(err)
			return
		}
		j, err := h.Join(in)
		reply(j, err)
	case "state":
		var in classroom.StateIn
		if err := classroom.Decode(body, &in); err != nil {
			fail(err)
			return
		}
		st, err := h.SetState(id, secret, in)
		reply(st, err)
	case "question":
		var in classroom.QuestionIn
		if err := classroom.Decode(body, &in); err != nil {
			fail(err)
			return
		}
		q, err := h.Ask(id, secret, in)
		reply(q, err)
	case "predict":
		var in classroom.PredictIn
		if err := classroom.Decode(body, &in); err != nil {
			fail(err)
			return
		}
		if err := h.Predict(id, r.Header.Get(studentHeader), in); err != nil {
			fail(err)
			return
		}
		// Answered only once JetStream holds the vote: acknowledged
		// means kept.
		w.WriteHeader(http.StatusNoContent)
	case "here":
		// A student's page answering its stream's beat: still here.
		if err := h.Here(id, r.Header.Get(studentHeader)); err != nil {
			fail(err)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	case "end":
		if err := h.End(id, secret); err != nil {
			fail(err)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	case "results.csv":
		rows, err := h.Results(id, secret)
		if err != nil {
			fail(err)
			return
		}
		w.Header().Set("Content-Type", "text/csv; charset=utf-8")
		w.Header().Set("Content-Disposition", `attachment; filename="class-results.csv"`)
		classroom.WriteCSV(w, rows)
	case "events":
		s.serveEvents(w, r, id, fail)
	case "qr.svg":
		s.serveClassQR(w, r, lang, fail)
	default:
		fail(&classroom.Error{Status: 404, Key: "class.err.noop"})
	}
}

// serveEvents streams a class's events to one page until the page goes
// away, the class ends or the server shuts down.
func (s *Server) serveEvents(w http.ResponseWriter, r *http.Request, id string, fail func(error)) {
	f, err := s.cfg.Classes.Follow(id, r.URL.Query().Get("t"))
	if err != nil {
		fail(err)
		return
	}
	defer f.Close()
	rc := http.NewResponseController(w)
	// The server's timeouts bound a request and its response; a stream
	// is one response for the whole class. (The read deadline matters
	// too: when it passes, the server cancels the request's context.)
	rc.SetWriteDeadline(time.Time{})
	rc.SetReadDeadline(time.Time{})
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	// An EventSource reconnects after this many ms when the stream ends.
	fmt.Fprint(w, "retry: 1000\n\n")
	rc.Flush()
	// The beat asks a student's page for a sign of presence (an
	// instructor's page ignores it); it also keeps the connection open.
	tick := time.NewTicker(min(heartbeat, s.cfg.Classes.Beat()))
	defer tick.Stop()
	for {
		select {
		case e, ok := <-f.Events:
			if !ok {
				return
			}
			fmt.Fprintf(w, "event: %s\ndata: %s\n\n", e.Name, e.Data)
			// Send what else is queued in the same write.
			for more := true; more; {
				select {
				case e, ok := <-f.Events:
					if !ok {
						rc.Flush()
						return
					}
					fmt.Fprintf(w, "event: %s\ndata: %s\n\n", e.Name, e.Data)
				default:
					more = false
				}
			}
		case <-tick.C:
			fmt.Fprint(w, "event: beat\ndata: {}\n\n")
		case <-r.Context().Done():
			return
		case <-s.stopping:
			return
		}
		if rc.Flush() != nil {
			return
		}
	}
}

// classLang is the language a reason is given in: the page's (?lang=zh),
// else the browser's first.
func classLang(r *http.Request) doc.Lang {
	if l := r.URL.Query().Get("lang"); l != "" {
		if l == "zh" {
			return doc.Chinese
		}
		return doc.English
	}
	if strings.HasPrefix(strings.ToLower(r.Header.Get("Accept-Language")), "zh") {
		return doc.Chinese
	}
	return doc.English
}

func clientAddr(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// classWorker is go-app's service worker with the API left to the
// network. A page's fetches go through the worker, and so did a class's
// event stream: when the page went away the worker's own fetch of it
// went on, so the server saw the student still there (for as long as
// the worker lived). Nothing of the API is cached anyway. A worker of
// another shape is kept as it is (TestTheWorkerLeavesTheClassAPIAlone
// fails then).
func classWorker(worker string) string {
	const upstream = `self.addEventListener("fetch", (event) => {
  event.respondWith(fetchWithCache(event.request));
});`
	const bypass = `self.addEventListener("fetch", (event) => {
  // txnlab: the API, a class's event stream among it, goes straight to
  // the network, so closing the page closes the stream.
  if (new URL(event.request.url).pathname.startsWith("/api/")) {
    return;
  }
  event.respondWith(fetchWithCache(event.request));
});`
	return strings.Replace(worker, upstream, bypass, 1)
}
