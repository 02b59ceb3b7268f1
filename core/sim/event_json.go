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
	Node    NodeID
	Peer    NodeID `json:",omitempty"`
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

// MarshalJSON writes the event with its API and error by name, as the
// exports always have: "API":"EndTxn", "Error":"PRODUCER_FENCED" (or a
// client exception's name). Nothing reads events back from JSON, so
// there is no UnmarshalJSON.
func (e Event) MarshalJSON() ([]byte, error) {
	j := eventJSON{Index: e.Index, At: e.At, MsgID: e.MsgID, ReplyTo: e.ReplyTo, Offset: e.Offset,
		Node: e.Node, Peer: e.Peer, Error: e.ErrorName(), Subject: e.Subject, From: e.From, To: e.To,
		Text: e.Text, Msg: e.Msg, Kind: e.Kind, Resp: e.Resp, Internal: e.Internal, Illegal: e.Illegal,
		Unmet: e.Unmet, Contents: e.Contents.String()}
	if e.Kind.CarriesMessage() && e.API != protocol.NoAPI {
		j.API = e.API.String()
	}
	return json.Marshal(j)
}
