package cluster

import (
	"txnlab/core/sim"
)

// MaxStepsPerStatement bounds the events one statement may run, so no
// script can hang a host; the statement reports when it hits the bound.
const MaxStepsPerStatement = 5_000_000

// RunResult says how a run ended.
type RunResult struct {
	Steps int
	// Reason is "" when the condition was met, else why it stopped:
	// "time limit", "step limit", or "nothing left to run".
	Reason string
}

// RunUntil runs events until done() holds, the virtual time passes limit,
// or the step bound is reached. done is checked before every event.
func (c *Cluster) RunUntil(done func() bool, limit sim.Time) RunResult {
	w := c.World
	var r RunResult
	for !done() {
		next, ok := w.Peek()
		if !ok {
			r.Reason = "nothing left to run"
			return r
		}
		if next.At > limit {
			w.AdvanceTo(limit, 0)
			r.Reason = "time limit"
			return r
		}
		if r.Steps >= MaxStepsPerStatement {
			r.Reason = "step limit"
			return r
		}
		w.Step()
		r.Steps++
	}
	return r
}

// RunIdle runs until nothing is in flight and no work is outstanding, for
// at most d of virtual time.
func (c *Cluster) RunIdle(d sim.Time) RunResult {
	return c.RunUntil(c.World.Idle, c.World.Now()+d)
}

// Advance moves virtual time forward by d, firing every timer due.
func (c *Cluster) Advance(d sim.Time) RunResult {
	steps, ok := c.World.AdvanceTo(c.World.Now()+d, MaxStepsPerStatement)
	r := RunResult{Steps: steps}
	if !ok {
		r.Reason = "step limit"
	}
	return r
}
