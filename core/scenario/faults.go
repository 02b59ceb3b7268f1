package scenario

// The faults: crash, restart, pause, resume, isolate, partition, heal,
// drop, delay, and break/restore of a safety mechanism. Their types,
// parsing, canonical text and application live here.

import (
	"strconv"
	"strings"

	"txnlab/core/safety"
	"txnlab/core/sim"
)

// CrashStmt stops a node at once.
type CrashStmt struct {
	Base
	Node NodeRef
}

// String renders the statement canonically.
func (s *CrashStmt) String() string { return "crash " + s.Node.String() }

// RestartStmt brings a crashed broker back. It never names a client.
type RestartStmt struct {
	Base
	Node NodeRef
}

// String renders the statement canonically.
func (s *RestartStmt) String() string { return "restart " + s.Node.String() }

// PauseStmt stalls a process (a long GC pause): a client, or a broker.
type PauseStmt struct {
	Base
	Node NodeRef
}

// String renders the statement canonically.
func (s *PauseStmt) String() string { return "pause " + s.Node.String() }

// ResumeStmt resumes a paused process with its old state.
type ResumeStmt struct {
	Base
	Node NodeRef
}

// String renders the statement canonically.
func (s *ResumeStmt) String() string { return "resume " + s.Node.String() }

// IsolateStmt cuts a node off from every other node.
type IsolateStmt struct {
	Base
	Node NodeRef
}

// String renders the statement canonically.
func (s *IsolateStmt) String() string { return "isolate " + s.Node.String() }

// PartitionStmt cuts the network between groups of nodes: messages between
// nodes of different groups are lost. Nodes named in no group keep
// talking to everyone.
type PartitionStmt struct {
	Base
	Groups [][]NodeRef // at least two, each non-empty
}

// String renders the statement canonically.
func (s *PartitionStmt) String() string {
	gs := make([]string, len(s.Groups))
	for i, g := range s.Groups {
		ns := make([]string, len(g))
		for j, n := range g {
			ns[j] = n.String()
		}
		gs[i] = strings.Join(ns, ",")
	}
	return "partition " + strings.Join(gs, " | ")
}

// HealStmt removes every cut, drop rule and delay rule.
type HealStmt struct{ Base }

// String renders the statement canonically.
func (s *HealStmt) String() string { return "heal" }

func parseCrash(lp *lineParser, kw token) Stmt   { return &CrashStmt{Node: lp.nodeArg("crash")} }
func parseRestart(lp *lineParser, kw token) Stmt { return &RestartStmt{Node: lp.nodeArg("restart")} }
func parsePause(lp *lineParser, kw token) Stmt   { return &PauseStmt{Node: lp.nodeArg("pause")} }
func parseResume(lp *lineParser, kw token) Stmt  { return &ResumeStmt{Node: lp.nodeArg("resume")} }
func parseIsolate(lp *lineParser, kw token) Stmt { return &IsolateStmt{Node: lp.nodeArg("isolate")} }

func parseHeal(lp *lineParser, kw token) Stmt {
	lp.done("heal takes no arguments")
	return &HealStmt{}
}

func (lp *lineParser) nodeArg(verb string) NodeRef {
	t := lp.next(verb + " needs a node: broker-N, a client, coordinator(ID), group-coordinator(GROUP) or leader(TOPIC/PART)")
	n := lp.nodeRef(t.raw, t.col)
	lp.done(verb + " takes one node")
	if verb == "restart" && n.Kind == NodeClient {
		lp.failf(t.col, "a crashed client cannot be restarted: declare a new one")
	}
	return n
}

func parsePartition(lp *lineParser, kw token) Stmt {
	if !lp.more() {
		lp.failf(lp.endCol(), "partition needs groups of nodes, e.g. partition broker-0,p1 | broker-1,broker-2")
	}
	st := &PartitionStmt{}
	var group []NodeRef
	seen := map[NodeRef]bool{}
	expectNode := true // a node must come next
	sepCol := 0
	closeGroup := func(col int) {
		if len(group) == 0 {
			lp.failf(col, "empty group: put at least one node between the bars")
		}
		st.Groups = append(st.Groups, group)
		group = nil
	}
	for lp.more() {
		t := lp.next("")
		raw := t.raw
		off := 0
		for off < len(raw) {
			rest := raw[off:]
			i := indexOutside(rest, ",|", true)
			if i != 0 {
				item := rest
				if i > 0 {
					item = rest[:i]
				}
				col := runeCol(t.raw, t.col, off)
				if !expectNode {
					lp.failf(col, "expected ',' or '|' before %q", item)
				}
				n := lp.nodeRef(item, col)
				if seen[n] {
					lp.failf(col, "%s is named twice", n)
				}
				seen[n] = true
				group = append(group, n)
				expectNode = false
				off += len(item)
				continue
			}
			col := runeCol(t.raw, t.col, off)
			if expectNode {
				lp.failf(col, "expected a node before %q", rest[:1])
			}
			if rest[0] == '|' {
				closeGroup(col)
			}
			expectNode = true
			sepCol = col
			off++
		}
	}
	if expectNode {
		lp.failf(sepCol, "expected a node after the last separator")
	}
	closeGroup(lp.endCol())
	if len(st.Groups) < 2 {
		lp.failf(lp.toks[1].col, "partition needs at least two groups separated by '|' (use isolate to cut off one node)")
	}
	return st
}

func (st *CrashStmt) apply(s *Session) *Error {
	n, err := s.resolve(st, st.Node)
	if err != nil {
		return err
	}
	if s.Cluster.StatusOf(n) == sim.Crashed {
		// Crashing what is down changes nothing; in the playground a
		// learner may have crashed it a moment before the script does.
		s.Cluster.Note(sim.NoNode, "", sim.NoteAlreadyDown, strconv.Itoa(st.Position().Line), s.Cluster.Name(n))
		return nil
	}
	if e := s.Cluster.Crash(n); e != nil {
		return s.errorf(st, "%v", e)
	}
	return nil
}

func (st *RestartStmt) apply(s *Session) *Error {
	return s.onNode(st, st.Node, s.Cluster.Restart)
}

func (st *PauseStmt) apply(s *Session) *Error { return s.onNode(st, st.Node, s.Cluster.Pause) }

func (st *ResumeStmt) apply(s *Session) *Error { return s.onNode(st, st.Node, s.Cluster.Resume) }

func (st *IsolateStmt) apply(s *Session) *Error {
	return s.onNode(st, st.Node, func(n sim.NodeID) error { s.Cluster.Isolate(n); return nil })
}

// onNode resolves a statement's node and does op to it.
func (s *Session) onNode(st Stmt, ref NodeRef, op func(sim.NodeID) error) *Error {
	n, err := s.resolve(st, ref)
	if err != nil {
		return err
	}
	if e := op(n); e != nil {
		return s.errorf(st, "%v", e)
	}
	return nil
}

func (st *PartitionStmt) apply(s *Session) *Error {
	var groups [][]sim.NodeID
	for _, g := range st.Groups {
		var ids []sim.NodeID
		for _, ref := range g {
			n, err := s.resolve(st, ref)
			if err != nil {
				return err
			}
			ids = append(ids, n)
		}
		groups = append(groups, ids)
	}
	s.Cluster.Partition(groups)
	s.Cluster.Note(sim.NoNode, "", sim.NotePartitioned, st.String()[len("partition "):])
	return nil
}

func (st *HealStmt) apply(s *Session) *Error {
	s.Cluster.Heal()
	return nil
}

// DropStmt loses matching messages in transit.
type DropStmt struct {
	Base
	Match MessageMatch
	Count int // count=N: drop the next N (≥ 1); 0: every matching message until heal
}

var dropOptions = func() optTable[DropStmt] {
	from, to := endOpts(func(st *DropStmt) *MessageMatch { return &st.Match })
	count := intOpt("count", 0, 1, MaxCount, func(st *DropStmt) *int { return &st.Count })
	count.present = func(st *DropStmt) bool { return st.Count > 0 }
	return optTable[DropStmt]{from, to, count}
}()

// String renders the statement canonically.
func (s *DropStmt) String() string {
	b := words("drop", apiText(s.Match))
	dropOptions.render(b, s, nil)
	return b.String()
}

func parseDrop(lp *lineParser, kw token) Stmt {
	t := lp.next("drop needs an API, e.g. drop WriteTxnMarkers count=1")
	st := &DropStmt{Match: lp.match(t)}
	dropOptions.parse(lp, "drop", st)
	return st
}

func (st *DropStmt) apply(s *Session) *Error {
	m, err := s.match(st, st.Match)
	if err != nil {
		return err
	}
	s.Cluster.Drop(m, st.Count)
	s.Cluster.Note(sim.NoNode, "", sim.NoteStatement, st.String())
	return nil
}

// DelayStmt adds latency to matching messages.
type DelayStmt struct {
	Base
	Match MessageMatch
	By    sim.Time // by=DURATION, required
}

var delayOptions = func() optTable[DelayStmt] {
	by := durOpt("by", 0, MaxDuration, func(st *DelayStmt) *sim.Time { return &st.By })
	by.present = func(*DelayStmt) bool { return true }
	from, to := endOpts(func(st *DelayStmt) *MessageMatch { return &st.Match })
	return optTable[DelayStmt]{by, from, to}
}()

// String renders the statement canonically; by= comes right after the API.
func (s *DelayStmt) String() string {
	b := words("delay", apiText(s.Match))
	delayOptions.render(b, s, nil)
	return b.String()
}

func parseDelay(lp *lineParser, kw token) Stmt {
	t := lp.next("delay needs an API and by=DURATION, e.g. delay EndTxn.response by=2s")
	st := &DelayStmt{Match: lp.match(t)}
	opts := delayOptions.scan(lp, "delay")
	delayOptions.read(lp, st, opts, "from", "to")
	if !opts.has("by") {
		lp.failf(lp.endCol(), "delay needs by=DURATION, e.g. by=2s")
	}
	delayOptions.read(lp, st, opts, "by")
	return st
}

func (st *DelayStmt) apply(s *Session) *Error {
	m, err := s.match(st, st.Match)
	if err != nil {
		return err
	}
	s.Cluster.Delay(m, st.By)
	s.Cluster.Note(sim.NoNode, "", sim.NoteStatement, st.String())
	return nil
}

// Mechanism is a safety mechanism that break/restore switch off and on:
// an entry of core/safety's table, which names them.
type Mechanism = *safety.Mechanism

// Mechanisms lists every mechanism in documentation order.
var Mechanisms = safety.Mechanisms

// MechanismByName finds a mechanism by its script name.
func MechanismByName(name string) (Mechanism, bool) { return safety.MechanismByName(name) }

// mechanismNames is the table's names in the shape of the language's
// other enums (enumNames): index 0 is no value.
var mechanismNames = append([]string{""}, safety.MechanismNames()...)

// BreakStmt switches a safety mechanism off.
type BreakStmt struct {
	Base
	Mechanism Mechanism
}

// String renders the statement canonically.
func (s *BreakStmt) String() string { return "break " + s.Mechanism.String() }

// RestoreStmt switches a safety mechanism back on.
type RestoreStmt struct {
	Base
	Mechanism Mechanism
}

// String renders the statement canonically.
func (s *RestoreStmt) String() string { return "restore " + s.Mechanism.String() }

func parseBreak(lp *lineParser, kw token) Stmt {
	return &BreakStmt{Mechanism: lp.mechanism("break")}
}

func parseRestore(lp *lineParser, kw token) Stmt {
	return &RestoreStmt{Mechanism: lp.mechanism("restore")}
}

func (lp *lineParser) mechanism(verb string) Mechanism {
	names := enumNames(mechanismNames)
	t := lp.next(verb + " needs a mechanism: " + strings.Join(names, ", "))
	m, ok := MechanismByName(t.raw)
	if !ok || t.quoted {
		lp.failf(t.col, "unknown mechanism %q%s (mechanisms: %s)", t.raw, didYouMean(t.text, names), strings.Join(names, ", "))
	}
	lp.done(verb + " takes one mechanism")
	return m
}

func (st *BreakStmt) apply(s *Session) *Error {
	s.Cluster.SetBroken(st.Mechanism, true)
	s.Cluster.Note(sim.NoNode, "", sim.NoteBreak, st.Mechanism.String())
	return nil
}

func (st *RestoreStmt) apply(s *Session) *Error {
	s.Cluster.SetBroken(st.Mechanism, false)
	s.Cluster.Note(sim.NoNode, "", sim.NoteRestore, st.Mechanism.String())
	return nil
}
