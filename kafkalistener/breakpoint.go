//go:build !wasm

package kafkalistener

// The breakpoint (issue 27, Live mode): the learner names an API, and the
// next request of it that a client sends is held at the listener, before
// it enters the simulation, until the learner steps. The clock runs on
// meanwhile, as it does for a request delayed on the wire, so a client
// whose timeout passes gives up on it as against a slow broker. While a
// request is held its connection waits (a broker serves a connection's
// requests in order) and every other connection goes on. Holding and
// stepping are written in the recording as comments: the replay needs
// nothing of them, since the request is recorded at the moment it was
// let in, and the page shows them where the session is.

import (
	"errors"
	"fmt"
	"strings"
)

// breakpoint is the driver's state of it.
type breakpoint struct {
	key  int16    // the API to hold; -1: none
	held *request // the request held, or nil
}

// apiKeyByName finds a served API by its name, in any case.
func (v versions) apiKeyByName(name string) (int16, bool) {
	for key, n := range apiNames {
		if _, served := v[key]; served && key != 18 && strings.EqualFold(n, name) {
			return key, true
		}
	}
	return 0, false
}

// BreakableAPIs lists the APIs a breakpoint may name, in key order.
func (l *Listener) BreakableAPIs() []string {
	var out []string
	for key := int16(0); key < 100; key++ {
		if _, ok := l.vers[key]; ok && key != 18 {
			out = append(out, apiName(key))
		}
	}
	return out
}

// Break sets the breakpoint on an API by its name (EndTxn, Produce, …),
// or clears it when api is empty; clearing lets a held request go.
func (l *Listener) Break(api string) error {
	key := int16(-1)
	if api = strings.TrimSpace(api); api != "" {
		k, ok := l.vers.apiKeyByName(api)
		if !ok {
			return fmt.Errorf("no API %q is served: a breakpoint names one of %s", api, strings.Join(l.BreakableAPIs(), ", "))
		}
		key = k
	}
	errc := make(chan error, 1)
	l.run(func() {
		if l.isStopped() {
			errc <- errors.New("the listener has stopped")
			return
		}
		l.brk.key = key
		if key < 0 {
			l.comment("# breakpoint: cleared")
			l.release()
		} else {
			l.comment("# breakpoint: the next " + apiName(key) + " request is held until you step")
		}
		errc <- nil
	})
	return <-errc
}

// Step lets the held request into the simulation; the breakpoint stays
// set for the next one.
func (l *Listener) Step() error {
	errc := make(chan error, 1)
	l.run(func() {
		switch {
		case l.isStopped():
			errc <- errors.New("the listener has stopped")
		case l.brk.held == nil:
			errc <- errors.New("no request is held: set a breakpoint and wait for a client to send that API")
		default:
			l.release()
			errc <- nil
		}
	})
	return <-errc
}

// Held describes the request held at the breakpoint, or "".
func (l *Listener) Held() string {
	got := make(chan string, 1)
	l.run(func() {
		if r := l.brk.held; r != nil {
			got <- heldText(r)
			return
		}
		got <- ""
	})
	return <-got
}

func heldText(r *request) string {
	return fmt.Sprintf("%s v%d from %s to broker-%d", apiName(r.key), r.version, orUnknown(strings.Map(printable, r.clientID)), r.c.broker)
}

func (l *Listener) isStopped() bool {
	select {
	case <-l.stopped:
		return true
	default:
		return false
	}
}

// hold keeps r out of the simulation when the breakpoint names its API
// and nothing is held yet; it reports whether it did.
func (l *Listener) hold(r *request) bool {
	if r.released || l.brk.key < 0 || r.key != l.brk.key || l.brk.held != nil {
		return false
	}
	l.brk.held = r
	r.c.busy = true
	l.comment("# breakpoint: holding " + heldText(r) + "; step to send it")
	return true
}

// release lets the held request go on as if it had just arrived.
func (l *Listener) release() {
	r := l.brk.held
	if r == nil {
		return
	}
	l.brk.held = nil
	r.c.busy = false
	l.advance() // it enters at the moment the learner stepped
	if !l.conns[r.c] {
		return
	}
	r.released = true
	l.serve(r)
	l.dirty = append(l.dirty, r.c)
}

// dropHeld forgets a held request whose connection closed: its client
// gave up waiting.
func (l *Listener) dropHeld(c *conn) {
	if r := l.brk.held; r != nil && r.c == c {
		l.brk.held = nil
		l.comment("# breakpoint: " + heldText(r) + " was given up: its connection closed")
	}
}

// comment records one comment line at the current moment, while the
// recording has room.
func (l *Listener) comment(s string) {
	if l.full {
		return
	}
	l.flushAdvance()
	l.recordLine(s)
}
