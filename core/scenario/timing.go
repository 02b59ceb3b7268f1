package scenario

// Time: run (until quiet, or for a while), run until a message, and
// advance. Their types, option tables, parsing, canonical text and
// application live here.

import "txnlab/core/sim"

// DefaultRunFor is how long run and run until go at most by default.
const DefaultRunFor = 5 * sim.Minute

// RunStmt runs until quiescent, or for at most For of virtual time.
type RunStmt struct {
	Base
	For   sim.Time  // for=DURATION, default DefaultRunFor
	Given OptionSet // "for" when written
}

var runOptions = optTable[RunStmt]{
	durOpt("for", DefaultRunFor, MaxDuration, func(st *RunStmt) *sim.Time { return &st.For }),
}

// String renders the statement canonically.
func (s *RunStmt) String() string {
	b := words("run")
	runOptions.render(b, s, s.Given)
	return b.String()
}

// RunUntilStmt runs until a matching message is about to be delivered and
// stops just before it (or after For of virtual time). With nth=N it lets
// N-1 matching messages through first: the playground writes it to name
// exactly the moment a learner paused at.
type RunUntilStmt struct {
	Base
	Match MessageMatch
	Nth   int       // nth=N, default 1
	For   sim.Time  // for=DURATION, default DefaultRunFor
	Given OptionSet // which of nth, for were written
}

var runUntilOptions = func() optTable[RunUntilStmt] {
	from, to := endOpts(func(st *RunUntilStmt) *MessageMatch { return &st.Match })
	return optTable[RunUntilStmt]{from, to,
		intOpt("nth", 1, 1, MaxCount, func(st *RunUntilStmt) *int { return &st.Nth }),
		durOpt("for", DefaultRunFor, MaxDuration, func(st *RunUntilStmt) *sim.Time { return &st.For }),
	}
}()

// String renders the statement canonically.
func (s *RunUntilStmt) String() string {
	b := words("run", "until", apiText(s.Match))
	runUntilOptions.render(b, s, s.Given)
	return b.String()
}

func parseRun(lp *lineParser, kw token) Stmt {
	if lp.more() && lp.toks[lp.i].raw == "until" {
		lp.i++
		t := lp.next("run until needs an API, e.g. run until EndTxn.response")
		st := &RunUntilStmt{Match: lp.match(t)}
		runUntilOptions.defaults(st)
		opts := runUntilOptions.parse(lp, "run until", st)
		st.Given = removeKeys(opts.given(), "from", "to")
		return st
	}
	st := &RunStmt{}
	runOptions.defaults(st)
	st.Given = runOptions.parse(lp, "run", st).given()
	return st
}

func (st *RunStmt) apply(s *Session) *Error {
	s.waitFor(st, s.Cluster.Idle, st.For, sim.NewNote(sim.NoteRunOutstanding, st.For.Human()))
	return nil
}

func (st *RunUntilStmt) apply(s *Session) *Error {
	m, err := s.match(st, st.Match)
	if err != nil {
		return err
	}
	w := s.Cluster
	seen, nth := new(int), st.Nth
	if nth < 1 {
		nth = 1
	}
	var counted *sim.Envelope
	s.waitFor(st, func() bool {
		next, ok := w.Peek()
		if !ok || next.Env == nil || next.Env == counted || !matches(m, next.Env) {
			return false
		}
		if *seen+1 >= nth {
			return true
		}
		*seen, counted = *seen+1, next.Env // let this one through
		return false
	}, st.For, sim.NewNote(sim.NoteRunUntilNone, st.Match.String(), st.For.Human()))
	if s.active != nil {
		s.active.untilSeen = seen
	}
	return nil
}

// AdvanceStmt moves virtual time forward, firing the timers that fall due.
type AdvanceStmt struct {
	Base
	By sim.Time
}

// String renders the statement canonically.
func (s *AdvanceStmt) String() string { return "advance " + FormatDuration(s.By) }

func parseAdvance(lp *lineParser, kw token) Stmt {
	t := lp.next("advance needs a duration, e.g. advance 10s")
	d := lp.duration("advance", t.raw, t.col, MaxDuration)
	lp.done("advance takes one duration")
	return &AdvanceStmt{By: d}
}

func (st *AdvanceStmt) apply(s *Session) *Error {
	w := s.Cluster
	s.active = &wait{stmt: st, limit: w.Now() + st.By, advanceTo: w.Now() + st.By, isAdvance: true,
		start: w.Now(), delivered: s.freshDeliveries()}
	return nil
}
