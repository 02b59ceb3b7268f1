package engine

import "time"

// NewLoopback returns an engine of the page's kind (a Remote) whose
// worker is a Server in the calling goroutine, each request answered as
// it is made: the worker's protocol without a worker, for code that
// reads a history as the page does where there is no browser (the
// worker's warm-up, tests of the panels).
func NewLoopback() Engine { return newLoopback().link.Engine() }

// loopback joins a Link and a Server in one goroutine: what one sends,
// pump hands the other, until neither has more to say, as the browser's
// event loop would between the page and its worker.
type loopback struct {
	server         *Server
	link           *Link
	toPage, toWork [][]byte
}

func newLoopback() *loopback {
	lb := &loopback{}
	lb.server = NewServer(func(b []byte) { lb.toPage = append(lb.toPage, b) })
	lb.link = NewLink(func(b []byte) { lb.toWork = append(lb.toWork, b) }, lb.pump)
	return lb
}

// pump delivers the messages both ways and has the server work until
// it is idle.
func (lb *loopback) pump() {
	for {
		for len(lb.toWork) > 0 {
			m := lb.toWork[0]
			lb.toWork = lb.toWork[1:]
			lb.server.Receive(m)
		}
		more := lb.server.Work(time.Hour)
		for len(lb.toPage) > 0 {
			m := lb.toPage[0]
			lb.toPage = lb.toPage[1:]
			lb.link.Receive(m)
		}
		if !more && len(lb.toWork) == 0 && len(lb.toPage) == 0 {
			return
		}
	}
}
