package broker

// KIP-890 on the partition leader: before the first transactional write
// of a producer's transaction to a partition, the leader asks the
// transaction coordinator with AddPartitionsToTxn's broker-to-broker form
// (v4+): VerifyOnly for a classic client (part 1, Kafka 3.6+,
// transaction.partition.verification.enable), or an actual add for a
// transaction version 2 client, whose Produce v12 replaces the client's
// AddPartitionsToTxn (part 2, Kafka 4.0). The write then carries the
// verification's guard. Kafka's ReplicaManager.handleProduceAppend,
// maybeStartTransactionVerificationForPartitions and
// AddPartitionsToTxnManager; what was checked is in docs/kafka-fidelity.md.
//
// Simplified: one AddPartitionsToTxn per produce request (Kafka batches
// the transactions bound for one coordinator into one request per
// node), and the TxnOffsetCommit path verifies without a guard on the
// __consumer_offsets append.

import (
	"txnlab/core/protocol"
	"txnlab/core/safety"
	"txnlab/core/sim"
)

// verification is one AddPartitionsToTxn the leader sent, and what
// waits for its answer.
type verification struct {
	env *sim.Envelope
	// produce is the request being verified (nil for a TxnOffsetCommit).
	produce *protocol.ProduceRequest
	version int16 // of the client's request
	tps     []protocol.TopicPartition
	guards  map[protocol.TopicPartition]int64
	errs    map[protocol.TopicPartition]protocol.ErrorCode
}

// verifies reports whether this broker verifies transactional writes of
// a request at version v: with verification on, or always for a
// transaction version 2 request (which needs the leader's add), unless
// the mechanism is broken.
func (b *Broker) verifies(w *sim.World, tv2 bool) bool {
	if w.Broken(safety.PartitionVerification) {
		return false
	}
	return tv2 || b.Cfg.TransactionPartitionVerificationEnable
}

// startProduceVerification sends the verification a produce request
// needs, and reports whether the request now waits for it.
func (b *Broker) startProduceVerification(w *sim.World, env *sim.Envelope, m *protocol.ProduceRequest) bool {
	version := protocol.VersionOf(m)
	if m.TransactionalId == "" || !b.verifies(w, version >= protocol.ProduceTV2Version) {
		return false
	}
	v := &verification{env: env, produce: m, version: version,
		guards: map[protocol.TopicPartition]int64{}, errs: map[protocol.TopicPartition]protocol.ErrorCode{}}
	var pid int64 = -1
	var epoch int16
	for _, pd := range m.Partitions {
		rb := pd.Records
		if !rb.IsTransactional || rb.ProducerId < 0 {
			continue
		}
		if _, ok := b.isLeader(pd.TopicPartition); !ok {
			continue // the append answers NOT_LEADER_OR_FOLLOWER
		}
		if g := b.Disk.Log(pd.TopicPartition).StartVerification(rb.ProducerId, rb.ProducerEpoch, rb.BaseSequence); g != 0 {
			v.guards[pd.TopicPartition] = g
			v.tps = append(v.tps, pd.TopicPartition)
			pid, epoch = rb.ProducerId, rb.ProducerEpoch
		}
	}
	if len(v.tps) == 0 {
		return false // every partition already has the transaction open
	}
	b.sendVerification(w, v, m.TransactionalId, pid, epoch, version >= protocol.ProduceTV2Version)
	return true
}

// startOffsetsVerification does the same for a TxnOffsetCommit: its
// __consumer_offsets partition is verified (or, for v5, added) before the
// group coordinator takes the offsets. Kafka verifies TxnOffsetCommit
// from 3.8 (GroupCoordinator.handleTxnCommitOffsets), 3.6 only Produce.
func (b *Broker) startOffsetsVerification(w *sim.World, env *sim.Envelope, m *protocol.TxnOffsetCommitRequest) bool {
	version := protocol.VersionOf(m)
	if !b.verifies(w, version >= protocol.TxnOffsetCommitTV2Version) {
		return false
	}
	tp := protocol.TopicPartition{Topic: protocol.ConsumerOffsetsTopic, Partition: b.Meta.GroupPartitionFor(m.GroupId)}
	if log := b.Disk.Log(tp); log.StartVerification(m.ProducerId, m.ProducerEpoch, -1) == 0 {
		return false
	}
	v := &verification{env: env, version: version, tps: []protocol.TopicPartition{tp},
		guards: map[protocol.TopicPartition]int64{}, errs: map[protocol.TopicPartition]protocol.ErrorCode{}}
	b.sendVerification(w, v, m.TransactionalId, m.ProducerId, m.ProducerEpoch, version >= protocol.TxnOffsetCommitTV2Version)
	return true
}

func (b *Broker) sendVerification(w *sim.World, v *verification, id string, pid int64, epoch int16, add bool) {
	coord := b.Meta.Leader(protocol.TopicPartition{Topic: protocol.TransactionStateTopic, Partition: b.Meta.TxnPartitionFor(id)})
	if coord < 0 || !b.Meta.Alive[coord] {
		// getTransactionCoordinator: no live leader of the partition.
		b.finishVerification(w, v, protocol.COORDINATOR_NOT_AVAILABLE, nil)
		return
	}
	req := &protocol.AddPartitionsToTxnRequest{Version: protocol.AddPartitionsToTxnBrokerVersion, TransactionalId: id,
		ProducerId: pid, ProducerEpoch: epoch, VerifyOnly: !add, Partitions: v.tps}
	if add {
		req.Version = protocol.AddPartitionsToTxnAbortableVersion
	}
	if b.verifying == nil {
		b.verifying = map[int64]*verification{}
	}
	id2 := w.Send(b.Node, NodeID(coord), req, 0)
	b.verifying[id2] = v
	w.AfterBackground(b.Node, b.Cfg.RequestTimeoutMs, timerVerifyTimeout, id2)
}

const timerVerifyTimeout = "verify-timeout"

// verificationLost answers a verification whose request got no answer
// (NETWORK_EXCEPTION in Kafka, mapped like the coordinator errors).
func (b *Broker) verificationLost(w *sim.World, msgID int64) {
	v, ok := b.verifying[msgID]
	if !ok {
		return
	}
	delete(b.verifying, msgID)
	b.finishVerification(w, v, protocol.REQUEST_TIMED_OUT, nil)
}

// handleVerificationResponse applies the coordinator's answer.
func (b *Broker) handleVerificationResponse(w *sim.World, env *sim.Envelope, m *protocol.AddPartitionsToTxnResponse) {
	v, ok := b.verifying[env.ReplyTo]
	if !ok {
		return
	}
	delete(b.verifying, env.ReplyTo)
	b.finishVerification(w, v, protocol.NONE, m.Results)
}

// finishVerification maps the coordinator's errors to what the client's
// request version understands (AddPartitionsToTxnManager and
// handleProduceAppend's postVerificationCallback), then goes on with the
// request: the appends for a produce, the group coordinator for offsets.
func (b *Broker) finishVerification(w *sim.World, v *verification, all protocol.ErrorCode, results []protocol.PartitionError) {
	for _, tp := range v.tps {
		err := all
		for _, r := range results {
			if r.TopicPartition == tp {
				err = r.ErrorCode
			}
		}
		if err = b.mapVerificationError(err, v); err != protocol.NONE {
			v.errs[tp] = err
		}
	}
	if v.produce != nil {
		b.produceAppend(w, v.env, v.produce, v)
		return
	}
	if len(v.errs) > 0 {
		m := v.env.Msg.(*protocol.TxnOffsetCommitRequest)
		resp := &protocol.TxnOffsetCommitResponse{}
		for _, o := range m.Offsets {
			resp.Results = append(resp.Results, protocol.PartitionError{TopicPartition: o.TopicPartition, ErrorCode: v.errs[v.tps[0]]})
		}
		b.reply(w, v.env, resp)
		return
	}
	b.Group.Handle(w, v.env)
}

func (b *Broker) mapVerificationError(err protocol.ErrorCode, v *verification) protocol.ErrorCode {
	switch err {
	case protocol.NONE:
		return protocol.NONE
	case protocol.PRODUCER_FENCED:
		// "Producers expect to handle INVALID_PRODUCER_EPOCH in this
		// scenario" (AddPartitionsToTxnManager).
		return protocol.INVALID_PRODUCER_EPOCH
	case protocol.TRANSACTION_ABORTABLE:
		// For backward compatibility with clients: Produce from v11,
		// TxnOffsetCommit from v4 handle it (genericError).
		if v.produce != nil && v.version < protocol.ProduceAbortableVersion ||
			v.produce == nil && v.version < protocol.TxnOffsetCommitAbortableVersion {
			return protocol.INVALID_TXN_STATE
		}
		return err
	case protocol.REQUEST_TIMED_OUT:
		if v.produce == nil {
			// GroupMetadataManager.maybeConvertOffsetCommitError: the
			// client retries without a coordinator lookup.
			return protocol.COORDINATOR_LOAD_IN_PROGRESS
		}
		return protocol.NOT_ENOUGH_REPLICAS
	case protocol.CONCURRENT_TRANSACTIONS, protocol.COORDINATOR_LOAD_IN_PROGRESS,
		protocol.COORDINATOR_NOT_AVAILABLE, protocol.NOT_COORDINATOR:
		if v.produce == nil {
			return err // TxnOffsetCommit's client retries these itself
		}
		// Retriable, but older clients may not retry them: Kafka answers
		// NOT_ENOUGH_REPLICAS, which every producer retries.
		return protocol.NOT_ENOUGH_REPLICAS
	}
	return err
}
