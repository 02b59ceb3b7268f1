package sim

import (
	"errors"
	"strconv"
)

// NodeID is a node's code in its World: 1, 2, 3… in the order the
// World's Names learnt them, 0 (NoNode) for none. A trace holds hundreds
// of thousands of events and each names one or two nodes: as codes they
// are two bytes without a pointer, where a name was a string header the
// browser's garbage collector had to mark. A code means nothing without
// the Names of the World it came from (World.Names, Trace.Names); every
// text and JSON form of a trace writes the name, never the code.
type NodeID uint16

// NoNode is the zero NodeID: no node (an event without a peer).
const NoNode NodeID = 0

// MaxNodeNames is how many names one World's table holds, NoNode's ""
// included.
const MaxNodeNames = 1 << 16

// errNodeJSON is what encoding/json gets for a bare NodeID: a code
// written as a number would read as a node nobody can name.
var errNodeJSON = errors.New("sim: a NodeID is written by name through its World's Names (sim.Export)")

// MarshalText refuses: a NodeID alone cannot be named (see Export).
func (id NodeID) MarshalText() ([]byte, error) { return nil, errNodeJSON }

// Names is a World's table of node names, indexed by NodeID. It only
// grows, in the order the World learns names (a cluster registers its
// brokers and controller first, then each client as the script declares
// it), so the same script and seed give the same codes on every host,
// and a session replayed from a history shares its codes.
//
// It also holds the state names a state event moved between (Label), in
// a list of their own, so that node codes are the same whatever states
// a run went through.
type Names struct {
	list  []string
	index map[string]NodeID

	labels     []string
	labelIndex map[string]Label
}

// NewNames is a table that knows only NoNode ("") and NoLabel ("").
func NewNames() *Names {
	return &Names{list: []string{""}, index: map[string]NodeID{"": NoNode},
		labels: []string{""}, labelIndex: map[string]Label{"": NoLabel}}
}

// Label is a state's name (a state event's From and To) as a code in its
// World's Names: a heavy trace holds thousands of state events, and as
// strings their two names were 32 bytes and two pointers in every event
// of the trace, which the collector marks at every cycle (the browser's
// collector on the page's only thread). A code means nothing without its
// Names (Names.Label); every text and JSON form writes the name. The
// codes are given in the order the states are first recorded, so a
// replay of the same script and seed gives the same ones.
type Label uint32

// NoLabel is the zero Label: "".
const NoLabel Label = 0

// MarshalText refuses: a Label alone cannot be named (see Export).
func (l Label) MarshalText() ([]byte, error) { return nil, errLabelJSON }

var errLabelJSON = errors.New("sim: a Label is written by name through its World's Names (sim.Export)")

// InternLabel returns s's code, giving it the next one if the table does
// not know it yet.
func (n *Names) InternLabel(s string) Label {
	if l, ok := n.labelIndex[s]; ok {
		return l
	}
	l := Label(len(n.labels))
	n.labels = append(n.labels, s)
	n.labelIndex[s] = l
	return l
}

// Label is l's name: "" for NoLabel, a placeholder for a code the table
// does not know (a bug, shown rather than hidden).
func (n *Names) Label(l Label) string {
	if n != nil && int(l) < len(n.labels) {
		return n.labels[l]
	}
	return "label#" + strconv.Itoa(int(l))
}

// Intern returns name's code, giving it the next one if the table does
// not know it yet. ok is false when the table is full (MaxNodeNames).
func (n *Names) Intern(name string) (id NodeID, ok bool) {
	if id, ok := n.index[name]; ok {
		return id, true
	}
	if len(n.list) >= MaxNodeNames {
		return NoNode, false
	}
	id = NodeID(len(n.list))
	n.list = append(n.list, name)
	n.index[name] = id
	return id, true
}

// Lookup returns name's code; ok is false for a name the table does not
// know ("" is NoNode, known).
func (n *Names) Lookup(name string) (NodeID, bool) {
	if n == nil {
		return NoNode, name == ""
	}
	id, ok := n.index[name]
	return id, ok
}

// Name is id's name: "" for NoNode, a placeholder for a code the table
// does not know (a bug, shown rather than hidden). A nil table knows
// no code.
func (n *Names) Name(id NodeID) string {
	if n != nil && int(id) < len(n.list) {
		return n.list[id]
	}
	return "node#" + strconv.Itoa(int(id))
}

// Len is how many codes the table holds, NoNode's included: the codes
// are 0 … Len()-1.
func (n *Names) Len() int { return len(n.list) }
