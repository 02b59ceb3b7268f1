package cluster

import "txnlab/core/sim"

// The cluster's world, as the hosts see it: the clock, the trace, the
// names of the nodes, their status, the queue of what happens next, and
// the notes a host writes into the trace. core/scenario drives and reads
// the simulation only through these (core/purity forbids it to reach
// Cluster.World), so that what a host may do to the world is listed here
// rather than spread over the interpreter.

// Now is the virtual clock.
func (c *Cluster) Now() sim.Time { return c.World.Now() }

// Trace is the history recorded so far.
func (c *Cluster) Trace() *sim.Trace { return &c.World.Trace }

// Names is the table the trace's node and state codes stand for.
func (c *Cluster) Names() *sim.Names { return c.World.Names() }

// Name is node id's name.
func (c *Cluster) Name(id sim.NodeID) string { return c.World.Name(id) }

// StatusOf is whether node id is up, paused or crashed.
func (c *Cluster) StatusOf(id sim.NodeID) sim.Status { return c.World.StatusOf(id) }

// Idle reports whether nothing remains that a `run` must wait for: no
// message in flight, no foreground timer, no busy node.
func (c *Cluster) Idle() bool { return c.World.Idle() }

// Peek is what happens next, without doing it; false when nothing is
// queued.
func (c *Cluster) Peek() (sim.Pending, bool) { return c.World.Peek() }

// Step runs the next queued event; false when there was none.
func (c *Cluster) Step() bool { return c.World.Step() }

// AdvanceTo moves the clock to t, running at most maxSteps events due
// on the way; false when more were due (sim.World.AdvanceTo).
func (c *Cluster) AdvanceTo(t sim.Time, maxSteps int) (int, bool) {
	return c.World.AdvanceTo(t, maxSteps)
}

// QueueLen is how many events wait to run (messages in flight, timers).
func (c *Cluster) QueueLen() int { return c.World.QueueLen() }

// Lossy reports whether the network cuts, drops or delays anything: a
// cluster with such a rule is not healed.
func (c *Cluster) Lossy() bool { return c.World.Net.Lossy() || len(c.World.Net.Delays) > 0 }

// Note writes a note into the trace, at node (sim.NoNode for the
// cluster as a whole), as a code and its arguments.
func (c *Cluster) Note(node sim.NodeID, subject string, code sim.NoteCode, args ...string) {
	c.World.Note(node, subject, code, args...)
}

// ScriptNode is the node the script's own events (its expectations) are
// recorded at, named "script" the first time it is asked for.
func (c *Cluster) ScriptNode() sim.NodeID { return c.World.Node("script") }

// Record appends a host's own event (an expectation's result) to the
// trace.
func (c *Cluster) Record(e sim.Event) { c.World.Record(e) }
