package session

import (
	"encoding/json"
	"fmt"
	"reflect"

	"txnlab/core/protocol"
	"txnlab/core/sim"
)

// The wire: what crosses between the page and the engine's worker
// (worker.go, remote.go), as JSON. A history crosses once per script;
// then each move's state. Two things in a trace event do not survive
// encoding/json as they are: Kind renders by name (sim.Kind has no
// parser), and Msg is an interface. wireEvent carries both in a form that
// decodes back to the same event.

// wireEvent is a trace event on the wire: its own Kind and Msg shadow
// the event's. The event is embedded as plainEvent, which has none of
// sim.Event's methods: sim.Event.MarshalJSON writes codes by name, for
// people, and has no inverse.
type wireEvent struct {
	plainEvent
	Kind int      `json:"Kind"`
	Msg  *wireMsg `json:"Msg,omitempty"`
}

// plainEvent is sim.Event's fields without its methods.
type plainEvent sim.Event

// wireMsg is a protocol message with what names its type.
type wireMsg struct {
	API  protocol.APIKey `json:"a"`
	Resp bool            `json:"r,omitempty"`
	Body json.RawMessage `json:"b"`
}

// messageTypes are the protocol's messages, one of each: decoding a
// message makes a new one of the type its API and direction name.
var messageTypes = func() map[[2]int]reflect.Type {
	all := []protocol.Message{
		&protocol.JoinGroupRequest{}, &protocol.JoinGroupResponse{},
		&protocol.SyncGroupRequest{}, &protocol.SyncGroupResponse{},
		&protocol.HeartbeatRequest{}, &protocol.HeartbeatResponse{},
		&protocol.FindCoordinatorRequest{}, &protocol.FindCoordinatorResponse{},
		&protocol.InitProducerIdRequest{}, &protocol.InitProducerIdResponse{},
		&protocol.AddPartitionsToTxnRequest{}, &protocol.AddPartitionsToTxnResponse{},
		&protocol.AddOffsetsToTxnRequest{}, &protocol.AddOffsetsToTxnResponse{},
		&protocol.EndTxnRequest{}, &protocol.EndTxnResponse{},
		&protocol.WriteTxnMarkersRequest{}, &protocol.WriteTxnMarkersResponse{},
		&protocol.TxnOffsetCommitRequest{}, &protocol.TxnOffsetCommitResponse{},
		&protocol.OffsetCommitRequest{}, &protocol.OffsetCommitResponse{},
		&protocol.OffsetFetchRequest{}, &protocol.OffsetFetchResponse{},
		&protocol.ProduceRequest{}, &protocol.ProduceResponse{},
		&protocol.FetchRequest{}, &protocol.FetchResponse{},
	}
	m := map[[2]int]reflect.Type{}
	for _, msg := range all {
		m[msgKey(msg.APIKey(), msg.IsResponse())] = reflect.TypeOf(msg).Elem()
	}
	return m
}()

func msgKey(api protocol.APIKey, resp bool) [2]int {
	k := [2]int{int(api), 0}
	if resp {
		k[1] = 1
	}
	return k
}

// encodeEvents renders a history for the wire.
func encodeEvents(evs []sim.Event) ([]wireEvent, error) {
	out := make([]wireEvent, len(evs))
	for i := range evs {
		out[i] = wireEvent{plainEvent: plainEvent(evs[i]), Kind: int(evs[i].Kind)}
		out[i].plainEvent.Msg = nil
		if m := evs[i].Msg; m != nil {
			if _, ok := messageTypes[msgKey(m.APIKey(), m.IsResponse())]; !ok {
				return nil, fmt.Errorf("event %d: message %T is not on the wire's list", i, m)
			}
			body, err := json.Marshal(m)
			if err != nil {
				return nil, err
			}
			out[i].Msg = &wireMsg{API: m.APIKey(), Resp: m.IsResponse(), Body: body}
		}
	}
	return out, nil
}

// decodeEvents is encodeEvents undone.
func decodeEvents(in []wireEvent) ([]sim.Event, error) {
	out := make([]sim.Event, len(in))
	for i := range in {
		out[i] = sim.Event(in[i].plainEvent)
		out[i].Kind = sim.Kind(in[i].Kind)
		if w := in[i].Msg; w != nil {
			t, ok := messageTypes[msgKey(w.API, w.Resp)]
			if !ok {
				return nil, fmt.Errorf("event %d: no message type for API %d", i, w.API)
			}
			v := reflect.New(t)
			if err := json.Unmarshal(w.Body, v.Interface()); err != nil {
				return nil, fmt.Errorf("event %d: %w", i, err)
			}
			out[i].Msg = v.Interface().(protocol.Message)
		}
	}
	return out, nil
}
