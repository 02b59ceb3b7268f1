package engine

import (
	"sync"
	"time"

	"txnlab/lessons/doc"
	"txnlab/lessons/exercise"
)

// "Let the explorer try" (issue 24): an attack exercise's exploration
// (lessons/exercise.Explorer, txnlab explore --break M cut into units)
// runs in the engine's worker beside the playgrounds' engines, so the
// page keeps its frames while hundreds of schedules run and shrink. The
// page sends {op: "explore", eng, x: the exercise, seed}; the worker
// answers {op: "explore", eng, xs: the state} as it goes (at most every
// exploreEvery) and once at the end, and forgets it then; {op:
// "explore-stop", eng} ends it early. When the worker cannot be used (it
// never started, or failed), the exploration runs on the page instead,
// a slice at a time between turns of the event loop.

// exploreEvery is how often the worker reports an exploration's progress:
// often enough for a smooth progress bar, rarely enough to cost nothing.
const exploreEvery = 100 * time.Millisecond

// exploring is an exploration in the worker.
type exploring struct {
	e    *exercise.Explorer
	sent time.Time
}

// exploreRequest starts or stops an exploration.
func (s *Server) exploreRequest(r request) {
	if r.Op == "explore-stop" {
		if x, ok := s.explorers[r.Eng]; ok {
			x.e.Stop()
			s.sendExplore(r.Eng, x)
			delete(s.explorers, r.Eng)
		}
		return
	}
	if r.X == nil {
		return
	}
	e, err := exercise.NewExplorer(r.X, r.Seed, 0, 0)
	if err != nil {
		st := exercise.ExploreState{Phase: exercise.PhaseNone}
		s.send(reply{Op: "explore", Eng: r.Eng, XS: &st, ErrMsg: err.Error()})
		return
	}
	s.explorers[r.Eng] = &exploring{e: e}
}

// explore works on the explorations for about budget (at least a unit
// each) and reports whether any remains.
func (s *Server) explore(budget time.Duration) bool {
	if len(s.explorers) == 0 {
		return false
	}
	start := time.Now()
	for id, x := range s.explorers {
		for !x.e.Work(1) && time.Since(start) < budget {
		}
		if x.e.State().Done() {
			s.sendExplore(id, x)
			delete(s.explorers, id)
		} else if time.Since(x.sent) >= exploreEvery {
			s.sendExplore(id, x)
		}
	}
	return len(s.explorers) > 0
}

func (s *Server) sendExplore(id int, x *exploring) {
	st := x.e.State()
	x.sent = time.Now()
	s.send(reply{Op: "explore", Eng: id, XS: &st})
}

// Exploration is the page's side of one exploration: in the worker while
// it can be, else on the page. Its state is reported to notify, which
// may be called from another goroutine (a UI hands it to its own
// dispatcher).
type Exploration struct {
	link   *Link // nil: on the page from the start
	id     int
	ex     doc.Exercise
	seed   uint64
	notify func(exercise.ExploreState)

	mu      sync.Mutex
	state   exercise.ExploreState
	local   *exercise.Explorer
	stopped bool
}

// Explore starts an exploration for ex in the worker (on the page when
// the worker failed). seed is the first run's seed.
func (l *Link) Explore(ex doc.Exercise, seed uint64, notify func(exercise.ExploreState)) *Exploration {
	l.next++
	x := &Exploration{link: l, id: l.next, ex: ex, seed: seed, notify: notify,
		state: exercise.ExploreState{Phase: exercise.PhaseSearch}}
	if l.fault != nil {
		x.onPage()
		return x
	}
	if l.explorations == nil {
		l.explorations = map[int]*Exploration{}
	}
	l.explorations[x.id] = x
	l.request(request{Op: "explore", Eng: x.id, X: &x.ex, Seed: seed})
	return x
}

// ExploreOnPage runs an exploration on the page's own thread: where there
// is no worker at all.
func ExploreOnPage(ex doc.Exercise, seed uint64, notify func(exercise.ExploreState)) *Exploration {
	x := &Exploration{ex: ex, seed: seed, notify: notify, state: exercise.ExploreState{Phase: exercise.PhaseSearch}}
	x.onPage()
	return x
}

// State is how the exploration stands.
func (x *Exploration) State() exercise.ExploreState {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.state
}

// OnPage reports whether the exploration runs on the page.
func (x *Exploration) OnPage() bool {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.local != nil
}

// Stop ends the exploration; its state says stopped unless it was over.
func (x *Exploration) Stop() {
	x.mu.Lock()
	if x.stopped || x.state.Done() {
		x.mu.Unlock()
		return
	}
	x.stopped = true
	local := x.local
	x.mu.Unlock()
	if local == nil && x.link != nil {
		x.link.request(request{Op: "explore-stop", Eng: x.id})
		return
	}
	// On the page, the loop sees stopped at its next slice.
}

// receive takes the worker's report.
func (x *Exploration) receive(m reply) {
	if m.XS == nil {
		return
	}
	x.mu.Lock()
	if x.local != nil {
		x.mu.Unlock()
		return
	}
	x.state = *m.XS
	st := x.state
	x.mu.Unlock()
	if st.Done() {
		delete(x.link.explorations, x.id)
	}
	x.notify(st)
}

// fallBack carries an unfinished exploration over to the page when the
// worker fails: it starts again there, from the same seed (the
// explorer is deterministic, so it finds the same script).
func (x *Exploration) fallBack() {
	x.mu.Lock()
	done := x.state.Done() || x.local != nil
	x.mu.Unlock()
	if !done {
		x.onPage()
	}
}

// pageSlice is how long the page explores between two turns of its event
// loop.
const pageSlice = 8 * time.Millisecond

// onPage runs the exploration on the page, a slice at a time: a
// goroutine that sleeps between slices, which in a browser hands the
// thread back to the event loop (frames, clicks, the Stop button).
func (x *Exploration) onPage() {
	e, err := exercise.NewExplorer(&x.ex, x.seed, 0, 0)
	x.mu.Lock()
	if err != nil {
		x.state = exercise.ExploreState{Phase: exercise.PhaseNone}
		x.mu.Unlock()
		x.notify(x.State())
		return
	}
	x.local = e
	x.mu.Unlock()
	go func() {
		last := time.Time{}
		for {
			x.mu.Lock()
			if x.stopped {
				e.Stop()
			}
			x.mu.Unlock()
			deadline := time.Now().Add(pageSlice)
			for !e.Work(1) && time.Now().Before(deadline) {
			}
			st := e.State()
			x.mu.Lock()
			x.state = st
			x.mu.Unlock()
			if st.Done() || time.Since(last) >= exploreEvery {
				last = time.Now()
				x.notify(st)
			}
			if st.Done() {
				return
			}
			time.Sleep(time.Millisecond)
		}
	}()
}
