package sim

import (
	"encoding/json"

	"txnlab/core/protocol"
)

// eventJSON is the shape exports have always had (txnlab run --format
// json, the playground's JSON download): the API and the error by name,
// omitted when there is none. Its field order is the JSON's.
type eventJSON struct {
	Index   int
	At      Time
	MsgID   int64 `json:",omitempty"`
	ReplyTo int64 `json:",omitempty"`
	Offset  int64 `json:",omitempty"`
	Node    string
	Peer    string `json:",omitempty"`
	API     string `json:",omitempty"`
	Error   string `json:",omitempty"`
	Subject string `json:",omitempty"`
	From    string `json:",omitempty"`
	To      string `json:",omitempty"`
	Text    string `json:",omitempty"`

	Msg protocol.Message `json:",omitempty"`

	Kind     Kind
	Resp     bool `json:",omitempty"`
	Internal bool `json:",omitempty"`
	Illegal  bool `json:",omitempty"`
	Unmet    bool `json:",omitempty"`
	// Contents is an appended batch's kind, when not data.
	Contents string `json:",omitempty"`
}

// Export is events as the trace's JSON writes them (txnlab run --format
// json, the playground's download): encoding/json writes it as an array
// of events, each with its nodes by name as the exports always had them
// ("Node":"broker-0"), its API and error by name: "API":"EndTxn",
// "Error":"PRODUCER_FENCED" (or a client exception's name), omitted when
// there is none. Names is the table of the World that recorded them.
// Nothing reads events back from JSON, so there is no UnmarshalJSON.
type Export struct {
	Names  *Names
	Events []Event
}

// MarshalJSON writes the events in order.
func (x Export) MarshalJSON() ([]byte, error) {
	out := make([]eventJSON, len(x.Events))
	for i := range x.Events {
		out[i] = x.Names.eventJSON(&x.Events[i])
	}
	return json.Marshal(out)
}

// eventJSON is e in the exports' shape.
func (n *Names) eventJSON(e *Event) eventJSON {
	j := eventJSON{Index: e.Index, At: e.At, MsgID: e.MsgID, ReplyTo: e.ReplyTo, Offset: e.Offset,
		Node: n.Name(e.Node), Peer: n.Name(e.Peer), Error: e.ErrorName(), Subject: e.Subject, From: n.Label(e.From), To: n.Label(e.To),
		Text: e.Text, Msg: e.Msg, Kind: e.Kind, Resp: e.Resp, Internal: e.Internal, Illegal: e.Illegal,
		Unmet: e.Unmet, Contents: e.Contents.String()}
	if e.Kind.CarriesMessage() && e.API != protocol.NoAPI {
		j.API = e.API.String()
	}
	return j
}
