package scenario

// Facts are the values of the state that both expectations and queries
// (Session.Query, read by the lessons) report: computed here once, so an
// `expect` and a lesson's sentence can never disagree about them.

import (
	"slices"
	"strconv"
	"strings"

	"txnlab/core/broker"
	"txnlab/core/protocol"
	"txnlab/core/sim"
)

// partitionFacts is what expect partition and the partition query read:
// the controller's view (leader, leader epoch, ISR) and the offsets of
// the leader's replica (or the first replica's while it has no leader).
type partitionFacts struct {
	Leader      int32 // -1: none
	LeaderEpoch int32
	ISR         []int32 // sorted
	HW, LSO     int64
	LogEnd      int64
}

func (s *Session) partitionFacts(tp protocol.TopicPartition) (partitionFacts, bool) {
	p := s.Cluster.Meta.Partitions[tp]
	if p == nil {
		return partitionFacts{}, false
	}
	holder := p.Leader
	if holder < 0 {
		holder = p.Replicas[0]
	}
	log := s.Cluster.Disks[holder].Log(tp)
	isr := append([]int32(nil), p.ISR...)
	slices.Sort(isr)
	return partitionFacts{Leader: p.Leader, LeaderEpoch: p.LeaderEpoch, ISR: isr,
		HW: log.HighWatermark, LSO: log.LSO(), LogEnd: log.LogEndOffset()}, true
}

// brokerName renders a broker id, "none" for -1.
func brokerName(id int32) string {
	if id < 0 {
		return "none"
	}
	return string(broker.NodeID(id))
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

// position is a consumer's fetch position of a partition: the offset of
// the next record it will fetch, -1 before it knows one.
func (s *Session) position(client string, tp protocol.TopicPartition) (int64, bool) {
	c := s.Cluster.Consumers[client]
	if c == nil {
		return 0, false
	}
	pos, ok := c.Positions[tp]
	if !ok {
		return -1, true
	}
	return pos, true
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
	t := &s.Cluster.World.Trace
	for i := t.Len() - 1; i >= 0; i-- {
		e := t.At(i)
		if e.Kind != sim.KindSend || !e.Resp || e.Internal || e.Peer != sim.NodeID(client) {
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
	holders := s.holders()
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
