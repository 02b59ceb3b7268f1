package app

import (
	"strings"

	"txnlab/core/sim"
)

// fakeEngine stands in for the core until core/cluster and core/scenario
// can run a script. It draws what the script says rather than simulating
// anything, which is enough to build and test every control of the page:
// each statement is one step, and a step appends one trace event.
//
// Its language is two statements, one a line ('#' starts a comment):
//
//	A -> B: label      a message from A to B
//	note A: text       a note on A's lifeline
type fakeEngine struct {
	events []sim.Event
	pos    int
}

// newFakeEngine returns an empty fake engine.
func newFakeEngine() Engine { return &fakeEngine{} }

func (f *fakeEngine) Load(script string) error {
	var events []sim.Event
	at := sim.Time(0)
	for n, line := range strings.Split(script, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		ev, err := parseFakeLine(line, n+1)
		if err != nil {
			return err
		}
		ev.Index = len(events)
		ev.At = at
		at += 5 * sim.Millisecond
		events = append(events, ev)
	}
	f.events, f.pos = events, 0
	return nil
}

// parseFakeLine reads one statement. Columns are reported on the trimmed
// line, which is close enough for a stand-in.
func parseFakeLine(line string, lineNo int) (sim.Event, error) {
	if rest, ok := strings.CutPrefix(line, "note "); ok {
		node, text, ok := strings.Cut(rest, ":")
		if !ok || strings.TrimSpace(node) == "" {
			return sim.Event{}, &ScriptError{Line: lineNo, Col: 6, Msg: `expected "note NODE: text"`}
		}
		return sim.Event{Kind: sim.KindNote, Node: sim.NodeID(strings.TrimSpace(node)), Text: strings.TrimSpace(text)}, nil
	}
	from, rest, ok := strings.Cut(line, "->")
	if !ok {
		return sim.Event{}, &ScriptError{Line: lineNo, Col: 1, Msg: `expected "A -> B: label" or "note A: text"`}
	}
	to, label, ok := strings.Cut(rest, ":")
	from, to = strings.TrimSpace(from), strings.TrimSpace(to)
	switch {
	case from == "":
		return sim.Event{}, &ScriptError{Line: lineNo, Col: 1, Msg: "missing sender before ->"}
	case !ok || to == "":
		return sim.Event{}, &ScriptError{Line: lineNo, Col: strings.Index(line, "->") + 3, Msg: `missing "B: label" after ->`}
	}
	label = strings.TrimSpace(label)
	return sim.Event{
		Kind: sim.KindSend,
		Node: sim.NodeID(from),
		Peer: sim.NodeID(to),
		API:  label,
		Resp: strings.HasPrefix(label, "→"),
	}, nil
}

func (f *fakeEngine) Len() int { return len(f.events) }
func (f *fakeEngine) Pos() int { return f.pos }

func (f *fakeEngine) Step() bool {
	if f.pos >= len(f.events) {
		return false
	}
	f.pos++
	return true
}

func (f *fakeEngine) StepBack() { f.Seek(f.pos - 1) }

func (f *fakeEngine) Seek(i int) { f.pos = max(0, min(i, len(f.events))) }

func (f *fakeEngine) Events() []sim.Event { return f.events[:f.pos] }

func (f *fakeEngine) Digest() string { return sim.DigestOf(f.Events()) }
