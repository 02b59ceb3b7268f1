package scenario

// How expectations and queries (Session.Query, read by the lessons) render
// the values core/cluster's queries return: computed once, so an `expect`
// and a lesson's sentence can never disagree about them.

import (
	"slices"
	"strconv"
	"strings"

	"txnlab/core/cluster"
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

// A fact is one value of a subject's state under one key, the one home of
// its two forms: `expect KIND SUBJECT KEY=VALUE` checks it and the query
// `KIND SUBJECT KEY` reads it. The query's fields are the table's keys
// (queryFields), and both render the value with read, so a lesson's
// sentence quotes what an expectation compares.
type fact[V any] struct {
	key string
	// read renders the value as an expectation writes it ("none" for
	// nothing).
	read func(v *V) string
	// query, when set, renders it for a query instead; else a query
	// answers read's text, with noValue for "none".
	query func(v *V) string
}

// factTable is a kind's facts in its expectation's canonical order.
type factTable[V any] []fact[V]

// keys are the facts' keys: the query's fields.
func (t factTable[V]) keys() []string {
	out := make([]string, len(t))
	for i, f := range t {
		out[i] = f.key
	}
	return out
}

// value answers the query field key on v.
func (t factTable[V]) value(v *V, key string) string {
	for _, f := range t {
		if f.key != key {
			continue
		}
		if f.query != nil {
			return f.query(v)
		}
		if s := f.read(v); s != "none" {
			return orMark(s)
		}
		return noValue
	}
	return noValue
}

// check compares, for each key written (given), the expected text
// want(key) with v's, in the table's order: what an expectation reports.
func (t factTable[V]) check(v *V, given OptionSet, want func(key string) string) (expected, actual string, ok bool) {
	var exp, act []string
	ok = true
	for _, f := range t {
		if !given.Has(f.key) {
			continue
		}
		w, g := want(f.key), f.read(v)
		exp, act = append(exp, f.key+"="+w), append(act, f.key+"="+g)
		ok = ok && w == g
	}
	return strings.Join(exp, " "), strings.Join(act, " "), ok
}

// num renders an integer.
func num[N ~int16 | ~int32 | ~int64](n N) string { return strconv.FormatInt(int64(n), 10) }

// txnFacts: expect txn ID … and the query txn ID FIELD.
var txnFacts = factTable[cluster.TxnMetadata]{
	{key: "state", read: func(t *cluster.TxnMetadata) string { return t.Metadata.State }},
	{key: "epoch", read: func(t *cluster.TxnMetadata) string { return num(t.Metadata.ProducerEpoch) }},
	{key: "pid", read: func(t *cluster.TxnMetadata) string { return num(t.Metadata.ProducerId) }},
	{key: "partitions", read: func(t *cluster.TxnMetadata) string { return tpList(t.Metadata.Partitions) }},
}

// partitionFacts: expect partition T/P … and the query partition T/P FIELD.
var partitionFacts = factTable[cluster.PartitionFacts]{
	{key: "hw", read: func(f *cluster.PartitionFacts) string { return num(f.HW) }},
	{key: "lso", read: func(f *cluster.PartitionFacts) string { return num(f.LSO) }},
	{key: "log-end", read: func(f *cluster.PartitionFacts) string { return num(f.LogEnd) }},
	{key: "leader", read: func(f *cluster.PartitionFacts) string { return brokerName(f.Leader) }},
	{key: "leader-epoch", read: func(f *cluster.PartitionFacts) string { return num(f.LeaderEpoch) }},
	{key: "isr", read: func(f *cluster.PartitionFacts) string { return brokerSet(f.ISR) }},
}

// coordinatorFacts: expect coordinator ID … and the query coordinator ID
// FIELD.
var coordinatorFacts = factTable[cluster.CoordinatorInfo]{
	{key: "partition", read: func(co *cluster.CoordinatorInfo) string { return num(co.Partition) }},
	{key: "broker", read: func(co *cluster.CoordinatorInfo) string { return brokerName(co.Broker) }},
	{key: "epoch", read: func(co *cluster.CoordinatorInfo) string { return num(co.Epoch) }},
}

// groupFacts: expect group G … and the query group G FIELD. An
// expectation compares the members as a set (sorted); a query lists them
// in the order they joined, as a sentence tells them.
var groupFacts = factTable[cluster.GroupView]{
	{key: "state", read: func(g *cluster.GroupView) string { return g.State }},
	{key: "generation", read: func(g *cluster.GroupView) string { return num(g.Generation) }},
	{key: "members",
		read: func(g *cluster.GroupView) string {
			got := slices.Clone(g.Clients)
			slices.Sort(got)
			return membersText(got)
		},
		query: func(g *cluster.GroupView) string { return orMark(strings.Join(g.Clients, " ")) }},
	{key: "leader", read: func(g *cluster.GroupView) string { return orNone(g.LeaderClient) }},
	{key: "protocol", read: func(g *cluster.GroupView) string { return orNone(g.Protocol) }},
}
