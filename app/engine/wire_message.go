package engine

import (
	"encoding/json"
	"reflect"

	"txnlab/core/protocol"
)

// The page keeps a history's messages as the worker wrote them, and
// decodes one when it is read: an arrow drawn, the message panel, a
// trace line shown, an export. Decoded, the messages of the 10,004-arrow
// history were 2.9 MB of the page's 9.3 MB live heap and most of its
// pointers, and Go's collector under wasm marks the whole heap in one
// task of the page's thread (29.6 ms of a 44.6 ms scroll task,
// BENCHMARKS.md); their bodies are bytes it does not scan. Only the
// last few hundred read stay decoded (recentMessages): a step draws
// again the chunk of arrows it changed and the trace's last lines, a
// render the selected message, and decoding those at every draw cost
// more than the collector's marking them.

// encodedMessage is a message of the page's history in its wire form
// (protocol.Encoded): its type (msgKey) and its JSON body, a piece of
// the history's bodyArena, and the history's messages decoded last (nil:
// decode at every read).
type encodedMessage struct {
	key    [2]int
	body   []byte
	recent *recentMessages
}

// APIKey is the message's API.
func (m *encodedMessage) APIKey() protocol.APIKey { return protocol.APIKey(m.key[0]) }

// IsResponse tells a response from a request.
func (m *encodedMessage) IsResponse() bool { return m.key[1] == 1 }

// Summary is the decoded message's.
func (m *encodedMessage) Summary() string { return m.Decode().Summary() }

// MarshalJSON writes the decoded message, as the exports of an engine on
// the page write theirs: the body left out its zero fields (compactJSON).
func (m *encodedMessage) MarshalJSON() ([]byte, error) { return json.Marshal(m.Decode()) }

// Decode reads the body, by hand where it can (scanBody), else with
// json.Unmarshal. Loading the history checked the message's type and
// that its body is a JSON object; a field json.Unmarshal cannot read
// (which the worker, writing the same types, never sends) is left zero
// rather than fail a draw.
func (m *encodedMessage) Decode() protocol.Message {
	if msg := m.recent.find(m); msg != nil {
		return msg
	}
	msg := scanBody(m.key, m.body, nil)
	if msg == nil {
		v := reflect.New(messageTypes[m.key])
		_ = json.Unmarshal(m.body, v.Interface())
		msg = v.Interface().(protocol.Message)
	}
	m.recent.keep(m, msg)
	return msg
}

// recentMessages are the messages of a history decoded last, a few
// hundred: the chunks of arrows around the position and the trace's
// last lines, drawn again as the learner steps, with the message
// panel's. Decoding a message by reflection under wasm takes tens of µs
// to hundreds, and its summary as long again (a message memoizes it);
// kept, it is a graph the collector marks, so only these few are. A
// message read again once it left is decoded again.
type recentMessages struct {
	decoded map[*encodedMessage]protocol.Message
	order   [recentSize]*encodedMessage // oldest at next
	next    int
}

// recentSize is how many decoded messages a history keeps: more than
// the arrows of a tall screen's chunks and the trace's last list.
const recentSize = 512

// find is enc's decoded message if it is one of the recent; nil else.
func (r *recentMessages) find(enc *encodedMessage) protocol.Message {
	if r == nil {
		return nil
	}
	return r.decoded[enc]
}

// keep remembers msg as enc decoded, in place of the oldest kept.
func (r *recentMessages) keep(enc *encodedMessage, msg protocol.Message) {
	if r == nil {
		return
	}
	if r.decoded == nil {
		r.decoded = make(map[*encodedMessage]protocol.Message, recentSize)
	}
	if old := r.order[r.next]; old != nil {
		delete(r.decoded, old)
	}
	r.order[r.next], r.decoded[enc] = enc, msg
	r.next = (r.next + 1) % recentSize
}

// bodyArena holds a history's message bodies, copied out of the reply
// that brought them in blocks: a body kept as a piece of the reply would
// keep the whole reply alive, events and all.
type bodyArena struct{ block []byte }

// arenaBlock is the size of a bodyArena's block.
const arenaBlock = 64 << 10

// copy returns a copy of b in the arena.
func (a *bodyArena) copy(b []byte) []byte {
	if len(b) > cap(a.block)-len(a.block) {
		a.block = make([]byte, 0, max(arenaBlock, len(b)))
	}
	start := len(a.block)
	a.block = append(a.block, b...)
	return a.block[start:len(a.block):len(a.block)]
}

var _ protocol.Encoded = (*encodedMessage)(nil)
