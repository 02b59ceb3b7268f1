package protocol

// The operator's APIs of KIP-664 (Kafka 3.0+), what kafka-transactions.sh
// and Admin.listTransactions / describeTransactions / describeProducers
// send, with the field names of their JSON schemas
// (DescribeProducersRequest.json, …) at the versions Kafka 3.5 serves:
// DescribeProducers v0, DescribeTransactions v0, ListTransactions v0
// (v1's DurationFilter came with KIP-994 in 3.8). The admin's abort is an
// ordinary WriteTxnMarkers sent to the partition leader. Nested topic
// layouts are flattened to one entry per topic-partition, as elsewhere.

import (
	"strconv"
	"strings"
)

// DescribeProducersRequest (key 61) asks a partition leader for the
// producers it holds state for.
type DescribeProducersRequest struct {
	Partitions []TopicPartition
}

// ProducerState is one active producer of a partition, as its leader
// holds it (ProducerStateEntry).
type ProducerState struct {
	ProducerId       int64
	ProducerEpoch    int32
	LastSequence     int32
	LastTimestamp    int64
	CoordinatorEpoch int32
	// CurrentTxnStartOffset is the first offset of its open transaction
	// here, or -1.
	CurrentTxnStartOffset int64
}

// DescribeProducersPartition is one partition's answer.
type DescribeProducersPartition struct {
	TopicPartition
	ErrorCode       ErrorCode
	ActiveProducers []ProducerState
}

// DescribeProducersResponse carries each partition's producers.
type DescribeProducersResponse struct {
	Partitions []DescribeProducersPartition
}

// DescribeTransactionsRequest (key 65) asks a coordinator for its
// metadata of transactional ids.
type DescribeTransactionsRequest struct {
	TransactionalIds []string
}

// TransactionDescription is a coordinator's metadata of one
// transactional id (DescribeTransactionsResponseData.TransactionState).
type TransactionDescription struct {
	ErrorCode       ErrorCode
	TransactionalId string
	// TransactionState is the state's name (Kafka sends the name).
	TransactionState       string
	TransactionTimeoutMs   int32
	TransactionStartTimeMs int64
	ProducerId             int64
	ProducerEpoch          int16
	Partitions             []TopicPartition
}

// DescribeTransactionsResponse carries one description per id asked.
type DescribeTransactionsResponse struct {
	TransactionStates []TransactionDescription
}

// ListTransactionsRequest (key 66) asks one broker's coordinator for its
// transactional ids, filtered by state names and producer ids (empty:
// all).
type ListTransactionsRequest struct {
	StateFilters      []string
	ProducerIdFilters []int64
}

// ListedTransaction is one transactional id a coordinator holds.
type ListedTransaction struct {
	TransactionalId  string
	ProducerId       int64
	TransactionState string
}

// ListTransactionsResponse lists the matching transactional ids;
// UnknownStateFilters are the filters that name no state.
type ListTransactionsResponse struct {
	ErrorCode           ErrorCode
	UnknownStateFilters []string
	TransactionStates   []ListedTransaction
}

func (*DescribeProducersRequest) APIKey() APIKey     { return DescribeProducers }
func (*DescribeProducersResponse) APIKey() APIKey    { return DescribeProducers }
func (*DescribeTransactionsRequest) APIKey() APIKey  { return DescribeTransactions }
func (*DescribeTransactionsResponse) APIKey() APIKey { return DescribeTransactions }
func (*ListTransactionsRequest) APIKey() APIKey      { return ListTransactions }
func (*ListTransactionsResponse) APIKey() APIKey     { return ListTransactions }

func (*DescribeProducersRequest) IsResponse() bool     { return false }
func (*DescribeProducersResponse) IsResponse() bool    { return true }
func (*DescribeTransactionsRequest) IsResponse() bool  { return false }
func (*DescribeTransactionsResponse) IsResponse() bool { return true }
func (*ListTransactionsRequest) IsResponse() bool      { return false }
func (*ListTransactionsResponse) IsResponse() bool     { return true }

// TopError of a DescribeProducers response: the first partition's error.
func (m *DescribeProducersResponse) TopError() ErrorCode {
	for _, p := range m.Partitions {
		if p.ErrorCode != NONE {
			return p.ErrorCode
		}
	}
	return NONE
}

// TopError of a DescribeTransactions response: the first id's error.
func (m *DescribeTransactionsResponse) TopError() ErrorCode {
	for _, t := range m.TransactionStates {
		if t.ErrorCode != NONE {
			return t.ErrorCode
		}
	}
	return NONE
}

// TopError of a ListTransactions response.
func (m *ListTransactionsResponse) TopError() ErrorCode { return m.ErrorCode }

// Summary of DescribeProducers.
func (m *DescribeProducersRequest) Summary() string { return summary(m) }

func (m *DescribeProducersRequest) summarize(f *fields) { f.add("Partitions", tpList(m.Partitions)) }

// Summary of DescribeProducers.
func (m *DescribeProducersResponse) Summary() string { return summary(m) }

func (m *DescribeProducersResponse) summarize(f *fields) {
	parts := make([]string, len(m.Partitions))
	for i, p := range m.Partitions {
		ps := make([]string, len(p.ActiveProducers))
		for j, a := range p.ActiveProducers {
			q := f.part()
			q.i("ProducerId", a.ProducerId)
			q.i("ProducerEpoch", int64(a.ProducerEpoch))
			q.i("CoordinatorEpoch", int64(a.CoordinatorEpoch))
			q.i("CurrentTxnStartOffset", a.CurrentTxnStartOffset)
			ps[j] = "{" + q.String() + "}"
		}
		s := p.TopicPartition.String() + ":" + p.ErrorCode.String()
		if len(ps) > 0 {
			s += " [" + strings.Join(ps, ",") + "]"
		}
		parts[i] = s
	}
	f.add("Partitions", "["+strings.Join(parts, ", ")+"]")
}

// Summary of DescribeTransactions.
func (m *DescribeTransactionsRequest) Summary() string { return summary(m) }

func (m *DescribeTransactionsRequest) summarize(f *fields) {
	f.add("TransactionalIds", "["+strings.Join(m.TransactionalIds, ",")+"]")
}

// Summary of DescribeTransactions.
func (m *DescribeTransactionsResponse) Summary() string { return summary(m) }

func (m *DescribeTransactionsResponse) summarize(f *fields) {
	parts := make([]string, len(m.TransactionStates))
	for i, t := range m.TransactionStates {
		q := f.part()
		q.e("ErrorCode", t.ErrorCode)
		q.s("TransactionalId", t.TransactionalId)
		if t.ErrorCode == NONE {
			q.add("TransactionState", t.TransactionState)
			q.i("ProducerId", t.ProducerId)
			q.i("ProducerEpoch", int64(t.ProducerEpoch))
			q.add("Partitions", tpList(t.Partitions))
		}
		parts[i] = "{" + q.String() + "}"
	}
	f.add("TransactionStates", "["+strings.Join(parts, ",")+"]")
}

// Summary of ListTransactions.
func (m *ListTransactionsRequest) Summary() string { return summary(m) }

func (m *ListTransactionsRequest) summarize(f *fields) {
	f.add("StateFilters", "["+strings.Join(m.StateFilters, ",")+"]")
	ids := make([]string, len(m.ProducerIdFilters))
	for i, id := range m.ProducerIdFilters {
		ids[i] = strconv.FormatInt(id, 10)
	}
	f.add("ProducerIdFilters", "["+strings.Join(ids, ",")+"]")
}

// Summary of ListTransactions.
func (m *ListTransactionsResponse) Summary() string { return summary(m) }

func (m *ListTransactionsResponse) summarize(f *fields) {
	f.e("ErrorCode", m.ErrorCode)
	parts := make([]string, len(m.TransactionStates))
	for i, t := range m.TransactionStates {
		parts[i] = t.TransactionalId + ":" + t.TransactionState + "@" + strconv.FormatInt(t.ProducerId, 10)
	}
	f.add("TransactionStates", "["+strings.Join(parts, ",")+"]")
}

func (m *DescribeProducersRequest) walk(w *walker) { w.tps("Partitions", m.Partitions, true) }

func (m *DescribeProducersResponse) walk(w *walker) {
	w.list("Partitions", len(m.Partitions), func(i int) {
		p := &m.Partitions[i]
		w.inPart(i, func() {
			w.group(index(i), func() {
				w.tp("TopicPartition", p.TopicPartition)
				w.code("ErrorCode", p.ErrorCode)
				w.list("ActiveProducers", len(p.ActiveProducers), func(j int) {
					a := &p.ActiveProducers[j]
					w.group(index(j), func() {
						w.int("ProducerId", a.ProducerId)
						w.int("ProducerEpoch", int64(a.ProducerEpoch))
						w.int("LastSequence", int64(a.LastSequence))
						w.int("LastTimestamp", a.LastTimestamp)
						w.int("CoordinatorEpoch", int64(a.CoordinatorEpoch))
						w.int("CurrentTxnStartOffset", a.CurrentTxnStartOffset)
					})
				})
			})
		})
	})
}

func (m *DescribeTransactionsRequest) walk(w *walker) {
	w.list("TransactionalIds", len(m.TransactionalIds), func(i int) {
		w.inPart(i, func() {
			w.str(index(i), m.TransactionalIds[i])
			w.matched("TransactionalId", FieldValue{Str: m.TransactionalIds[i]})
		})
	})
}

func (m *DescribeTransactionsResponse) walk(w *walker) {
	w.list("TransactionStates", len(m.TransactionStates), func(i int) {
		t := &m.TransactionStates[i]
		w.inPart(i, func() {
			w.group(index(i), func() {
				w.code("ErrorCode", t.ErrorCode)
				w.str("TransactionalId", t.TransactionalId)
				w.str("TransactionState", t.TransactionState)
				w.int("TransactionTimeoutMs", int64(t.TransactionTimeoutMs))
				w.int("TransactionStartTimeMs", t.TransactionStartTimeMs)
				w.int("ProducerId", t.ProducerId)
				w.int("ProducerEpoch", int64(t.ProducerEpoch))
				w.tps("Partitions", t.Partitions, false)
			})
		})
	})
}

func (m *ListTransactionsRequest) walk(w *walker) {
	w.list("StateFilters", len(m.StateFilters), func(i int) { w.str(index(i), m.StateFilters[i]) })
	w.list("ProducerIdFilters", len(m.ProducerIdFilters), func(i int) { w.int(index(i), m.ProducerIdFilters[i]) })
}

func (m *ListTransactionsResponse) walk(w *walker) {
	w.code("ErrorCode", m.ErrorCode)
	w.list("UnknownStateFilters", len(m.UnknownStateFilters), func(i int) { w.str(index(i), m.UnknownStateFilters[i]) })
	w.list("TransactionStates", len(m.TransactionStates), func(i int) {
		t := &m.TransactionStates[i]
		w.inPart(i, func() {
			w.group(index(i), func() {
				w.str("TransactionalId", t.TransactionalId)
				w.int("ProducerId", t.ProducerId)
				w.str("TransactionState", t.TransactionState)
			})
		})
	})
}
