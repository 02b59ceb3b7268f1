package client

// The operator's client: what kafka-transactions.sh does through the
// Admin client (Kafka 3.5's tools TransactionsCommand and the admin
// handlers ListTransactionsHandler, DescribeTransactionsHandler,
// DescribeProducersHandler, AbortTransactionHandler), one call at a time.
//
//   - list: ListTransactions to every live broker, the answers merged.
//   - describe ID: FindCoordinator, then DescribeTransactions there.
//   - producers T/P: DescribeProducers to the partition's leader (or to a
//     chosen broker, which answers from its own replica).
//   - find-hanging: DescribeProducers on every partition of a topic, or
//     every partition a broker holds a replica of (sent to that broker);
//     an open transaction whose last write is older than the maximum
//     transaction timeout (15 minutes) is a candidate; ListTransactions
//     finds the candidates' transactional ids and DescribeTransactions
//     their coordinators' view; a candidate is hanging when no id has its
//     producer id, its id cannot be described, or the coordinator's
//     transaction does not include the partition.
//   - abort T/P: DescribeProducers, the open transaction starting at the
//     given offset, then WriteTxnMarkers(ABORT) to the leader with its
//     producer id, epoch and coordinator epoch (0 when the partition has
//     applied no marker yet, as the command does).
//
// Retriable answers (a coordinator loading or moved, a leader moved) are
// retried after retry.backoff.ms; a request unanswered within
// request.timeout.ms is sent again; a call not done within
// default.api.timeout.ms (60 s) ends with TimeoutException.

import (
	"slices"
	"strconv"

	"txnlab/core/internal/ptrsort"
	"txnlab/core/protocol"
	"txnlab/core/sim"
)

// The admin's calls, named after the scenario statement's subcommands.
const (
	CallListTransactions     CallKind = "list-transactions"
	CallDescribeTransactions CallKind = "describe-transactions"
	CallDescribeProducers    CallKind = "describe-producers"
	CallFindHanging          CallKind = "find-hanging"
	CallAbortTransaction     CallKind = "abort"
)

// AdminMetadata is what the admin learns from Metadata requests (instant
// in the simulation): the clients' view, plus the brokers and where each
// partition's replicas are.
type AdminMetadata interface {
	Metadata
	// LiveBrokers lists the brokers the controller holds alive.
	LiveBrokers() []int32
	// PartitionsOf lists a topic's partitions; ReplicasOn the partitions
	// of user topics a broker holds a replica of.
	PartitionsOf(topic string) []protocol.TopicPartition
	ReplicasOn(broker int32) []protocol.TopicPartition
}

// AdminConfig is the admin client's configuration, Kafka's defaults.
type AdminConfig struct {
	RequestTimeoutMs    sim.Time // request.timeout.ms: 30 s
	RetryBackoffMs      sim.Time // retry.backoff.ms: 100 ms
	DefaultAPITimeoutMs sim.Time // default.api.timeout.ms: 60 s
}

// DefaultAdminConfig is Kafka's.
var DefaultAdminConfig = AdminConfig{RequestTimeoutMs: 30 * sim.Second, RetryBackoffMs: 100 * sim.Millisecond, DefaultAPITimeoutMs: 60 * sim.Second}

// MaxTransactionTimeout is find-hanging's default
// --max-transaction-timeout: 15 minutes.
const MaxTransactionTimeout = 15 * sim.Minute

// Admin is the operator's client node.
type Admin struct {
	calls
	Node sim.NodeID
	Cfg  AdminConfig
	meta AdminMetadata

	call     *Call
	deadline sim.Time
	pending  map[int64]*adminRequest
	// Found is what the last completed call found, one item a word:
	// list "ID:STATE", describe "STATE" "pid=N" "epoch=N"
	// "partitions=T/P,…", producers "PID:EPOCH@START" (START "-" when no
	// transaction is open), find-hanging and abort "T/P@OFFSET".
	Found []string
}

// NewAdmin makes the admin client of node.
func NewAdmin(node sim.NodeID, cfg AdminConfig, meta AdminMetadata) *Admin {
	return &Admin{calls: calls{node: node}, Node: node, Cfg: cfg, meta: meta, pending: map[int64]*adminRequest{}}
}

// adminRequest is a request in flight and what to do with its answer.
type adminRequest struct {
	to     sim.NodeID
	msg    protocol.Message
	answer func(w *sim.World, resp protocol.Message)
}

// Busy reports a call in progress.
func (a *Admin) Busy() bool { return a.call != nil }

func (a *Admin) begin(w *sim.World, kind CallKind, text string) *Call {
	a.call = a.start(w, kind, text)
	a.deadline = w.Now() + a.Cfg.DefaultAPITimeoutMs
	a.Found = nil
	return a.call
}

// done ends the call in progress with found, or with an error.
func (a *Admin) done(w *sim.World, res Result, found []string) {
	call := a.call
	if call == nil {
		return
	}
	a.call = nil
	clear(a.pending)
	if res.OK() {
		a.Found = found
	}
	detail := ""
	if res.OK() {
		detail = strconv.Itoa(len(found)) + " found"
	}
	a.finish(w, call, res, detail)
}

// send sends one request of the call in progress.
func (a *Admin) send(w *sim.World, to sim.NodeID, msg protocol.Message, answer func(w *sim.World, resp protocol.Message)) {
	if a.call == nil {
		return
	}
	id := w.Send(a.Node, to, msg, 0)
	a.pending[id] = &adminRequest{to: to, msg: msg, answer: answer}
	w.After(a.Node, a.Cfg.RequestTimeoutMs, "request-timeout", id)
}

// retry runs again after retry.backoff.ms, unless the call's time is up.
func (a *Admin) retry(w *sim.World, again func(w *sim.World)) {
	if w.Now()+a.Cfg.RetryBackoffMs > a.deadline {
		a.done(w, Raised(protocol.TimeoutException), nil)
		return
	}
	w.After(a.Node, a.Cfg.RetryBackoffMs, "retry", again)
}

// Receive takes a response to a request of the call in progress.
func (a *Admin) Receive(w *sim.World, env *sim.Envelope) {
	r := a.pending[env.ReplyTo]
	if r == nil || !env.Msg.IsResponse() {
		return
	}
	delete(a.pending, env.ReplyTo)
	r.answer(w, env.Msg)
}

// Timer handles backoffs and lost requests (sent again).
func (a *Admin) Timer(w *sim.World, t *sim.Timer) {
	switch t.Kind {
	case "retry":
		if a.call != nil {
			t.Data.(func(w *sim.World))(w)
		}
	case "request-timeout", sim.TimerDisconnected:
		id, _ := t.Data.(int64)
		if env, ok := t.Data.(*sim.Envelope); ok {
			id = env.ID
		}
		r := a.pending[id]
		if r == nil {
			return
		}
		delete(a.pending, id)
		a.retry(w, func(w *sim.World) { a.send(w, a.resend(r.to), r.msg, r.answer) })
	}
}

// resend is where a lost request goes again: a coordinator or leader may
// have moved, so broker requests go to the same broker if it is alive,
// else to the first live one.
func (a *Admin) resend(to sim.NodeID) sim.NodeID {
	for _, b := range a.meta.LiveBrokers() {
		if a.meta.BrokerNode(b) == to {
			return to
		}
	}
	return a.meta.Bootstrap(0)
}

// ---- list ----

// ListTransactions starts kafka-transactions.sh list, filtered by state
// names and producer ids (none: all).
func (a *Admin) ListTransactions(w *sim.World, states []string, pids []int64) *Call {
	call := a.begin(w, CallListTransactions, "")
	a.listTransactions(w, states, pids, func(w *sim.World, txns []protocol.ListedTransaction) {
		found := make([]string, len(txns))
		for i, t := range txns {
			found[i] = t.TransactionalId + ":" + t.TransactionState
		}
		a.done(w, OK, found)
	})
	return call
}

func (a *Admin) listTransactions(w *sim.World, states []string, pids []int64, then func(*sim.World, []protocol.ListedTransaction)) {
	brokers := a.meta.LiveBrokers()
	left := len(brokers)
	var all []protocol.ListedTransaction
	if left == 0 {
		a.done(w, Broker(protocol.COORDINATOR_NOT_AVAILABLE), nil)
		return
	}
	var ask func(w *sim.World, b int32)
	ask = func(w *sim.World, b int32) {
		a.send(w, a.meta.BrokerNode(b), &protocol.ListTransactionsRequest{StateFilters: states, ProducerIdFilters: pids},
			func(w *sim.World, resp protocol.Message) {
				r := resp.(*protocol.ListTransactionsResponse)
				switch r.ErrorCode {
				case protocol.NONE:
				case protocol.COORDINATOR_LOAD_IN_PROGRESS, protocol.COORDINATOR_NOT_AVAILABLE:
					a.retry(w, func(w *sim.World) { ask(w, b) })
					return
				default:
					a.done(w, Broker(r.ErrorCode), nil)
					return
				}
				all = append(all, r.TransactionStates...)
				if left--; left == 0 {
					ptrsort.SortFunc(all, func(x, y *protocol.ListedTransaction) int {
						if x.TransactionalId < y.TransactionalId {
							return -1
						}
						if x.TransactionalId > y.TransactionalId {
							return 1
						}
						return 0
					})
					then(w, all)
				}
			})
	}
	for _, b := range brokers {
		ask(w, b)
	}
}

// ---- describe ----

// DescribeTransactions starts kafka-transactions.sh describe for one
// transactional id.
func (a *Admin) DescribeTransactions(w *sim.World, id string) *Call {
	call := a.begin(w, CallDescribeTransactions, id)
	a.describeTransaction(w, id, func(w *sim.World, d protocol.TransactionDescription) {
		if d.ErrorCode != protocol.NONE {
			a.done(w, Broker(d.ErrorCode), nil)
			return
		}
		a.done(w, OK, []string{d.TransactionState, "pid=" + strconv.FormatInt(d.ProducerId, 10),
			"epoch=" + strconv.Itoa(int(d.ProducerEpoch)), "partitions=" + tpWords(d.Partitions)})
	})
	return call
}

// describeTransaction finds the id's coordinator and asks it; a
// non-retriable error comes back in the description.
func (a *Admin) describeTransaction(w *sim.World, id string, then func(*sim.World, protocol.TransactionDescription)) {
	var find func(w *sim.World, attempt int)
	find = func(w *sim.World, attempt int) {
		a.send(w, a.meta.Bootstrap(attempt), &protocol.FindCoordinatorRequest{Key: id, KeyType: protocol.KeyTypeTransaction},
			func(w *sim.World, resp protocol.Message) {
				fc := resp.(*protocol.FindCoordinatorResponse)
				if fc.ErrorCode != protocol.NONE {
					a.retry(w, func(w *sim.World) { find(w, attempt+1) })
					return
				}
				a.send(w, a.meta.BrokerNode(fc.NodeId), &protocol.DescribeTransactionsRequest{TransactionalIds: []string{id}},
					func(w *sim.World, resp protocol.Message) {
						d := resp.(*protocol.DescribeTransactionsResponse).TransactionStates[0]
						switch d.ErrorCode {
						case protocol.NOT_COORDINATOR, protocol.COORDINATOR_NOT_AVAILABLE, protocol.COORDINATOR_LOAD_IN_PROGRESS:
							a.retry(w, func(w *sim.World) { find(w, attempt+1) })
							return
						}
						then(w, d)
					})
			})
	}
	find(w, 0)
}

// ---- producers ----

// DescribeProducers starts kafka-transactions.sh describe-producers for
// one partition, asking its leader (broker < 0) or that broker.
func (a *Admin) DescribeProducers(w *sim.World, tp protocol.TopicPartition, broker int32) *Call {
	call := a.begin(w, CallDescribeProducers, tp.String())
	a.describeProducers(w, []protocol.TopicPartition{tp}, broker, func(w *sim.World, by map[protocol.TopicPartition][]protocol.ProducerState) {
		var found []string
		for _, s := range by[tp] {
			start := "-"
			if s.CurrentTxnStartOffset >= 0 {
				start = strconv.FormatInt(s.CurrentTxnStartOffset, 10)
			}
			found = append(found, strconv.FormatInt(s.ProducerId, 10)+":"+strconv.Itoa(int(s.ProducerEpoch))+"@"+start)
		}
		a.done(w, OK, found)
	})
	return call
}

// describeProducers asks each partition's leader (or broker) for its
// producers, one request per destination.
func (a *Admin) describeProducers(w *sim.World, tps []protocol.TopicPartition, broker int32, then func(*sim.World, map[protocol.TopicPartition][]protocol.ProducerState)) {
	by := map[protocol.TopicPartition][]protocol.ProducerState{}
	left := len(tps)
	if left == 0 {
		then(w, by)
		return
	}
	var ask func(w *sim.World, tps []protocol.TopicPartition)
	ask = func(w *sim.World, tps []protocol.TopicPartition) {
		dest := map[sim.NodeID][]protocol.TopicPartition{}
		var order []sim.NodeID
		for _, tp := range tps {
			to := a.meta.BrokerNode(broker)
			if broker < 0 {
				l, ok := a.meta.LeaderOf(tp)
				if !ok {
					a.retry(w, func(w *sim.World) { ask(w, []protocol.TopicPartition{tp}) })
					continue
				}
				to = l
			}
			if dest[to] == nil {
				order = append(order, to)
			}
			dest[to] = append(dest[to], tp)
		}
		for _, to := range order {
			a.send(w, to, &protocol.DescribeProducersRequest{Partitions: dest[to]}, func(w *sim.World, resp protocol.Message) {
				var again []protocol.TopicPartition
				for _, p := range resp.(*protocol.DescribeProducersResponse).Partitions {
					switch p.ErrorCode {
					case protocol.NONE:
						by[p.TopicPartition] = p.ActiveProducers
						left--
					case protocol.NOT_LEADER_OR_FOLLOWER:
						if broker >= 0 {
							a.done(w, Broker(p.ErrorCode), nil)
							return
						}
						again = append(again, p.TopicPartition)
					default:
						a.done(w, Broker(p.ErrorCode), nil)
						return
					}
				}
				if len(again) > 0 {
					a.retry(w, func(w *sim.World) { ask(w, again) })
				} else if left == 0 {
					then(w, by)
				}
			})
		}
	}
	ask(w, tps)
}

// ---- find-hanging ----

// FindHanging starts kafka-transactions.sh find-hanging over a topic's
// partitions (topic != "") or a broker's replicas (broker ≥ 0).
func (a *Admin) FindHanging(w *sim.World, topic string, broker int32, maxTimeout sim.Time) *Call {
	text := topic
	var tps []protocol.TopicPartition
	if topic != "" {
		tps = a.meta.PartitionsOf(topic)
	} else {
		text = "broker-" + strconv.Itoa(int(broker))
		tps = a.meta.ReplicasOn(broker)
	}
	call := a.begin(w, CallFindHanging, text)
	target := int32(-1)
	if topic == "" {
		target = broker
	}
	a.describeProducers(w, tps, target, func(w *sim.World, by map[protocol.TopicPartition][]protocol.ProducerState) {
		type open struct {
			tp protocol.TopicPartition
			ps protocol.ProducerState
		}
		var candidates []open
		var pids []int64
		for _, tp := range tps {
			for _, s := range by[tp] {
				if s.CurrentTxnStartOffset >= 0 && int64(w.Now())-s.LastTimestamp > int64(maxTimeout) {
					candidates = append(candidates, open{tp, s})
					if !slices.Contains(pids, s.ProducerId) {
						pids = append(pids, s.ProducerId)
					}
				}
			}
		}
		if len(candidates) == 0 {
			a.done(w, OK, nil)
			return
		}
		slices.Sort(pids)
		a.listTransactions(w, nil, pids, func(w *sim.World, listed []protocol.ListedTransaction) {
			ids := map[int64]string{}
			for _, l := range listed {
				ids[l.ProducerId] = l.TransactionalId
			}
			var names []string
			for _, pid := range pids {
				if id, ok := ids[pid]; ok && !slices.Contains(names, id) {
					names = append(names, id)
				}
			}
			descs := map[string]protocol.TransactionDescription{}
			var next func(w *sim.World, i int)
			next = func(w *sim.World, i int) {
				if i == len(names) {
					var found []string
					for _, c := range candidates {
						id, ok := ids[c.ps.ProducerId]
						d, described := descs[id]
						if !ok || !described || d.ErrorCode != protocol.NONE || !slices.Contains(d.Partitions, c.tp) {
							found = append(found, c.tp.String()+"@"+strconv.FormatInt(c.ps.CurrentTxnStartOffset, 10))
						}
					}
					a.done(w, OK, found)
					return
				}
				a.describeTransaction(w, names[i], func(w *sim.World, d protocol.TransactionDescription) {
					descs[names[i]] = d
					next(w, i+1)
				})
			}
			next(w, 0)
		})
	})
	return call
}

// ---- abort ----

// AbortTransaction starts kafka-transactions.sh abort: the open
// transaction of tp that starts at startOffset (< 0: the only one open
// there) is aborted by a marker the admin writes.
func (a *Admin) AbortTransaction(w *sim.World, tp protocol.TopicPartition, startOffset int64) *Call {
	call := a.begin(w, CallAbortTransaction, tp.String())
	a.describeProducers(w, []protocol.TopicPartition{tp}, -1, func(w *sim.World, by map[protocol.TopicPartition][]protocol.ProducerState) {
		var picked []protocol.ProducerState
		for _, s := range by[tp] {
			if s.CurrentTxnStartOffset >= 0 && (startOffset < 0 || s.CurrentTxnStartOffset == startOffset) {
				picked = append(picked, s)
			}
		}
		if len(picked) != 1 {
			// "Could not find any open transactions starting at offset …"
			// (or, without an offset, not exactly one open).
			a.done(w, Broker(protocol.INVALID_REQUEST), nil)
			return
		}
		s := picked[0]
		marker := protocol.WritableTxnMarker{ProducerId: s.ProducerId, ProducerEpoch: int16(s.ProducerEpoch),
			TransactionResult: false, Partitions: []protocol.TopicPartition{tp}, CoordinatorEpoch: max(0, s.CoordinatorEpoch)}
		var write func(w *sim.World)
		write = func(w *sim.World) {
			leader, ok := a.meta.LeaderOf(tp)
			if !ok {
				a.retry(w, write)
				return
			}
			a.send(w, leader, &protocol.WriteTxnMarkersRequest{Markers: []protocol.WritableTxnMarker{marker}}, func(w *sim.World, resp protocol.Message) {
				code := protocol.NONE
				for _, m := range resp.(*protocol.WriteTxnMarkersResponse).Markers {
					for _, p := range m.Partitions {
						if p.ErrorCode != protocol.NONE {
							code = p.ErrorCode
						}
					}
				}
				switch code {
				case protocol.NONE:
					a.done(w, OK, []string{tp.String() + "@" + strconv.FormatInt(s.CurrentTxnStartOffset, 10)})
				case protocol.NOT_LEADER_OR_FOLLOWER, protocol.UNKNOWN_TOPIC_OR_PARTITION:
					a.retry(w, write)
				default:
					a.done(w, Broker(code), nil)
				}
			})
		}
		write(w)
	})
	return call
}

// tpWords writes partitions as a script does: "orders/0,orders/1", or
// "-" for none.
func tpWords(tps []protocol.TopicPartition) string {
	if len(tps) == 0 {
		return "-"
	}
	s := ""
	for i, tp := range tps {
		if i > 0 {
			s += ","
		}
		s += tp.String()
	}
	return s
}
