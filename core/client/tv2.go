package client

// The producer under transaction version 2 (KIP-890 part 2, Kafka 4.0),
// as the Java client's TransactionManager does it once
// isTransactionV2Enabled():
//
//   - decided at beginTransaction from the cluster's finalized
//     transaction.version, so a transaction never changes protocol
//     midway (maybeUpdateTransactionV2Enabled);
//   - no AddPartitionsToTxn: a partition counts as added at once and its
//     first Produce v12 has the partition leader add it;
//   - no AddOffsetsToTxn: TxnOffsetCommit v5 has the group coordinator's
//     broker add the offsets partition;
//   - EndTxn v5, whose response carries the producer id and epoch of the
//     next transaction (the coordinator bumped it): the client adopts
//     them and restarts its sequences;
//   - no client-side epoch bump after an abortable error (KAFKA-17898):
//     the abort's own bump fences what the old epoch left on the wire.

import (
	"txnlab/core/protocol"
	"txnlab/core/sim"
)

// decideTransactionVersion is called at beginTransaction.
func (p *Producer) decideTransactionVersion() {
	p.tv2 = p.meta != nil && p.meta.TransactionVersion() >= 2
}

// TransactionV2 reports whether the current (or last) transaction uses
// transaction version 2.
func (p *Producer) TransactionV2() bool { return p.tv2 }

// produceVersion is the Produce version of a batch: v12 for a transaction
// version 2 transaction, else the classic client's.
func (p *Producer) produceVersion() int16 {
	if p.tv2 && p.Transactional() {
		return protocol.ProduceTV2Version
	}
	return 0
}

// txnOffsetCommitVersion is the TxnOffsetCommit version.
func (p *Producer) txnOffsetCommitVersion() int16 {
	if p.tv2 {
		return protocol.TxnOffsetCommitTV2Version
	}
	return 0
}

// endTxnRequest builds EndTxn, v5 under transaction version 2.
func (p *Producer) endTxnRequest(commit bool) *protocol.EndTxnRequest {
	req := &protocol.EndTxnRequest{TransactionalId: p.Cfg.TransactionalId, ProducerId: p.ProducerId,
		ProducerEpoch: p.ProducerEpoch, Committed: commit}
	if p.tv2 {
		req.Version = protocol.EndTxnTV2Version
	}
	return req
}

// adoptEndTxn takes the producer id and epoch of a successful EndTxn v5
// response: a new epoch restarts every partition's sequence at 0, and it
// is a grant like InitProducerId's (the fencing invariant reads grants).
func (p *Producer) adoptEndTxn(w *sim.World, resp protocol.Message) {
	r, ok := resp.(*protocol.EndTxnResponse)
	if !ok || r.Version < protocol.EndTxnTV2Version || r.ProducerId < 0 {
		return
	}
	// The server bumped the epoch: the bump an abortable error asked for
	// has happened.
	p.epochBumpRequired = false
	if r.ProducerId == p.ProducerId && r.ProducerEpoch == p.ProducerEpoch {
		return // the epoch-bump mechanism is broken: nothing changed
	}
	p.ProducerId, p.ProducerEpoch = r.ProducerId, r.ProducerEpoch
	p.nextSeq = map[protocol.TopicPartition]int32{}
	p.Grants = append(p.Grants, Grant{ProducerId: r.ProducerId, ProducerEpoch: r.ProducerEpoch, At: w.Now()})
}
