package sim

import (
	"txnlab/core/protocol"
)

// Match selects messages for a drop or delay rule.
type Match struct {
	API      protocol.APIKey
	Response bool
	From, To NodeID // NoNode: any
}

func (m Match) matches(env *Envelope) bool {
	return env.Msg.APIKey() == m.API && env.Msg.IsResponse() == m.Response &&
		(m.From == NoNode || m.From == env.From) && (m.To == NoNode || m.To == env.To)
}

// DropRule loses matching messages: all of them (Remaining < 0) or the
// next Remaining.
type DropRule struct {
	Match
	Remaining int
}

// DelayRule adds By to matching messages' latency.
type DelayRule struct {
	Match
	By Time
}

// Network is the simulated network: seeded latency, cuts between nodes,
// drop and delay rules.
type Network struct {
	rng        *Rand
	MinLatency Time
	MaxLatency Time
	Drops      []*DropRule
	Delays     []DelayRule
	// cuts holds the cut pairs, each as pair's key: two codes in one
	// integer hash faster than a pair of names did.
	cuts map[uint32]bool
}

func newNetwork(seed uint64) *Network {
	return &Network{rng: NewRand(seed), MinLatency: 1, MaxLatency: 5, cuts: map[uint32]bool{}}
}

func (n *Network) latency() Time {
	return Time(n.rng.Range(int64(n.MinLatency), int64(n.MaxLatency)))
}

func (n *Network) delayFor(env *Envelope) Time {
	var d Time
	for _, r := range n.Delays {
		if r.matches(env) {
			d += r.By
		}
	}
	return d
}

// pair is the key of the link between a and b, either way round.
func pair(a, b NodeID) uint32 {
	if b < a {
		a, b = b, a
	}
	return uint32(a)<<16 | uint32(b)
}

// Cut blocks traffic between a and b in both directions.
func (n *Network) Cut(a, b NodeID) { n.cuts[pair(a, b)] = true }

// Lossy reports whether any cut or drop rule is in force: only then can a
// message vanish without its sender being told (a crashed destination
// refuses the connection instead).
func (n *Network) Lossy() bool { return len(n.cuts) > 0 || len(n.Drops) > 0 }

// IsCut reports whether a and b cannot talk.
func (n *Network) IsCut(a, b NodeID) bool { return n.cuts[pair(a, b)] }

// Heal removes every cut, drop rule and delay rule; messages already
// delayed keep their delay.
func (n *Network) Heal() {
	n.cuts = map[uint32]bool{}
	n.Drops = nil
	n.Delays = nil
}

// Why a message is lost (a KindDrop event's Text): the page says each in
// its language (app/uitext), the trace's canonical line in English.
const (
	DropNetworkCut      = "network cut"
	DropByRule          = "dropped by rule"
	DropDestinationDown = "destination down"
)

// DropReasons lists every reason a message is lost.
var DropReasons = []string{DropNetworkCut, DropByRule, DropDestinationDown}

// judge decides at delivery whether a message is lost, and why.
func (n *Network) judge(env *Envelope) string {
	if env.From != env.To && n.cuts[pair(env.From, env.To)] {
		return DropNetworkCut
	}
	for i, r := range n.Drops {
		if r.matches(env) {
			if r.Remaining > 0 {
				r.Remaining--
				if r.Remaining == 0 {
					n.Drops = append(n.Drops[:i:i], n.Drops[i+1:]...)
				}
			}
			return DropByRule
		}
	}
	return ""
}
