package scenario

// How expectations and queries (Session.Query, read by the lessons) render
// the values core/cluster's queries return: computed once, so an `expect`
// and a lesson's sentence can never disagree about them.

import (
	"slices"
	"strconv"
	"strings"

	"txnlab/core/protocol"
	"txnlab/core/sim"
)

// brokerName renders a broker id, "none" for -1.
func brokerName(id int32) string {
	if id < 0 {
		return "none"
	}
	return "broker-" + strconv.Itoa(int(id))
}

// brokerSet renders a set of brokers as "broker-0,broker-2", "none" when
// empty: the form expect partition … isr= takes.
func brokerSet(ids []int32) string {
	if len(ids) == 0 {
		return "none"
	}
	parts := make([]string, len(ids))
	for i, id := range ids {
		parts[i] = brokerName(id)
	}
	return strings.Join(parts, ",")
}

// AbortedEntry is one entry of a fetch answer's aborted list, naming its
// producer id by a producer that held it: P@FIRST_OFFSET.
type AbortedEntry struct {
	Producer    string
	FirstOffset int64
}

// String renders "P@OFFSET".
func (e AbortedEntry) String() string {
	return e.Producer + "@" + strconv.FormatInt(e.FirstOffset, 10)
}

// lastAborted is the aborted list of the last Fetch response a broker sent
// the consumer for tp (read_committed fetches carry one; an empty list is
// found too). found is false when no such response was sent yet.
func (s *Session) lastAborted(client string, tp protocol.TopicPartition) (entries []protocol.AbortedTransaction, found bool) {
	t := s.Cluster.Trace()
	node, ok := s.Cluster.Node(client)
	if !ok {
		return nil, false
	}
	for i := t.Len() - 1; i >= 0; i-- {
		e := t.At(i)
		if e.Kind != sim.KindSend || !e.Resp || e.Internal || e.Peer != node {
			continue
		}
		fr, ok := e.Msg.(*protocol.FetchResponse)
		if !ok {
			continue
		}
		for _, pd := range fr.Responses {
			if pd.TopicPartition == tp {
				return pd.AbortedTransactions, true
			}
		}
	}
	return nil, false
}

// abortedText renders an aborted list with producer names ("?" for a
// producer id no declared producer held) and reports, for comparing,
// whether it matches want.
func (s *Session) abortedText(list []protocol.AbortedTransaction, want []AbortedEntry) (string, bool) {
	holders := s.Cluster.ProducerHolders()
	ok := len(list) == len(want)
	parts := make([]string, len(list))
	for i, a := range list {
		names := holders[a.ProducerId]
		name := "?"
		if len(names) > 0 {
			name = names[0]
		}
		parts[i] = AbortedEntry{Producer: name, FirstOffset: a.FirstOffset}.String()
		if i < len(want) && (!slices.Contains(names, want[i].Producer) || want[i].FirstOffset != a.FirstOffset) {
			ok = false
		}
	}
	return strings.Join(parts, " "), ok
}
