package txncoord

// EndTxn v5 (key 26): the transaction version 2 path of
// TransactionCoordinator.endTransaction, Kafka 4.0 (KIP-890 part 2).
//
// Every decision bumps the producer epoch: PrepareCommit/PrepareAbort is
// written with epoch+1, the markers carry it (so the partition leaders
// fence everything the old epoch still has on the wire), and the
// response hands the client the new ProducerId and ProducerEpoch. An
// exhausted epoch (32766) is bumped to 32767 for the markers and the
// transaction completes on a fresh producer id at epoch 0. Since the
// epoch moves at every end, "same epoch" no longer means "retry": a retry
// is recognised by the stored epoch being the request's + 1
// (retryOnEpochBump) or, after a rotation, by the previous producer id at
// 32766 (retryOnOverflow). An abort at the current epoch with nothing
// open (Empty, CompleteCommit, CompleteAbort) is an "empty abort": it is
// written with a bump and no partitions.
//
// With `break epoch-bump` the decision keeps the epoch, as under the
// classic protocol: a delayed EndTxn of one transaction can end the next.

import (
	"txnlab/core/protocol"
	"txnlab/core/safety"
	"txnlab/core/sim"
)

func (c *Coordinator) handleEndTxnTV2(w *sim.World, env *sim.Envelope, m *protocol.EndTxnRequest) {
	c.endTransactionTV2(w, m.TransactionalId, m.ProducerId, m.ProducerEpoch, m.Committed, func(w *sim.World, err protocol.ErrorCode, pid int64, epoch int16) {
		c.reply(w, env, &protocol.EndTxnResponse{Version: m.Version, ErrorCode: err, ProducerId: pid, ProducerEpoch: epoch})
	})
}

// endTransactionTV2 decides a transaction for a transaction version 2
// client; done gets the producer id and epoch the client goes on with
// (-1 and -1 with an error).
func (c *Coordinator) endTransactionTV2(w *sim.World, id string, pid int64, epoch int16, commit bool, done func(w *sim.World, err protocol.ErrorCode, pid int64, epoch int16)) {
	fail := func(err protocol.ErrorCode) { done(w, err, protocol.NoProducerId, protocol.NoProducerEpoch) }
	if id == "" {
		fail(protocol.INVALID_REQUEST)
		return
	}
	entry, md, err := c.lookup(id)
	if err != protocol.NONE {
		fail(err)
		return
	}
	if md == nil {
		fail(protocol.INVALID_PRODUCER_ID_MAPPING)
		return
	}
	retryOnOverflow := md.PrevProducerId == pid && epoch == MaxProducerEpoch-1 && md.ProducerEpoch == 0
	retryOnEpochBump := md.ProducerEpoch == epoch+1
	var validEpoch bool
	switch md.State {
	case protocol.PrepareCommit, protocol.PrepareAbort:
		validEpoch = retryOnEpochBump
	case protocol.CompleteCommit, protocol.CompleteAbort:
		validEpoch = retryOnEpochBump || retryOnOverflow || epoch == md.ProducerEpoch
	default: // Ongoing, Empty, Dead
		validEpoch = epoch == md.ProducerEpoch
	}
	if w.Broken(safety.EpochFencing) && epoch <= md.ProducerEpoch {
		validEpoch = true
	}
	isRetry := retryOnEpochBump || retryOnOverflow
	switch {
	case md.ProducerId != pid && !retryOnOverflow:
		fail(protocol.INVALID_PRODUCER_ID_MAPPING)
		return
	case !validEpoch:
		fail(protocol.PRODUCER_FENCED)
		return
	case md.HasPendingState:
		fail(protocol.CONCURRENT_TRANSACTIONS)
		return
	}
	emptyAbort := false
	switch md.State {
	case protocol.Ongoing:
	case protocol.CompleteCommit:
		switch {
		case commit && isRetry:
			done(w, protocol.NONE, md.ProducerId, md.ProducerEpoch)
			return
		case commit, isRetry:
			fail(protocol.INVALID_TXN_STATE)
			return
		}
		emptyAbort = true
	case protocol.CompleteAbort:
		switch {
		case commit:
			fail(protocol.INVALID_TXN_STATE)
			return
		case isRetry:
			done(w, protocol.NONE, md.ProducerId, md.ProducerEpoch)
			return
		}
		emptyAbort = true
	case protocol.Empty:
		if commit {
			fail(protocol.INVALID_TXN_STATE)
			return
		}
		emptyAbort = true
	case protocol.PrepareCommit:
		fail(pick(commit, protocol.CONCURRENT_TRANSACTIONS, protocol.INVALID_TXN_STATE))
		return
	case protocol.PrepareAbort:
		fail(pick(commit, protocol.INVALID_TXN_STATE, protocol.CONCURRENT_TRANSACTIONS))
		return
	default:
		fail(protocol.UNKNOWN_SERVER_ERROR) // Dead: IllegalStateException in Kafka
		return
	}
	bump := !w.Broken(safety.EpochBump)
	nextPid := protocol.NoProducerId
	if bump && isEpochExhausted(md.ProducerEpoch) {
		nextPid = c.host.AllocateProducerId()
	}
	target := md.prepareAbortOrCommitTV2(commit, bump, emptyAbort, w.Now())
	coordinatorEpoch := entry.coordinatorEpoch
	c.appendTransactionToLog(w, id, coordinatorEpoch, md, target, func(w *sim.World, err protocol.ErrorCode) {
		if err != protocol.NONE {
			fail(err)
			return
		}
		complete := md.prepareComplete(w.Now())
		respPid, respEpoch := md.ProducerId, md.ProducerEpoch
		if nextPid != protocol.NoProducerId {
			// The epoch is spent: the transaction completes on a new
			// producer id, which the client gets now (KAFKA-18660).
			complete.PrevProducerId, complete.ProducerId, complete.ProducerEpoch = md.ProducerId, nextPid, 0
			complete.LastProducerEpoch = md.ProducerEpoch
			respPid, respEpoch = nextPid, 0
		}
		done(w, protocol.NONE, respPid, respEpoch)
		c.markers.add(w, c, id, coordinatorEpoch, commit, md, complete)
	})
}

// prepareAbortOrCommitTV2 is prepareAbortOrCommit with transaction
// version 2: epoch+1 (lastProducerEpoch the old one) unless bump is off;
// an empty abort starts its transaction now, having none. The next
// producer id of an exhausted epoch is held by the caller until the
// completion, not persisted (docs/kafka-fidelity.md).
func (md *TransactionMetadata) prepareAbortOrCommitTV2(commit, bump, emptyAbort bool, now sim.Time) transit {
	t := md.base()
	t.State = protocol.PrepareAbort
	if commit {
		t.State = protocol.PrepareCommit
	}
	if bump {
		t.ProducerEpoch, t.LastProducerEpoch = md.ProducerEpoch+1, md.ProducerEpoch
	}
	if emptyAbort {
		t.emptyAbort = true
		t.Partitions = nil
		t.TxnStartTimestamp = int64(now)
	}
	t.TxnLastUpdateTimestamp = int64(now)
	return md.prepareTransitionTo(t)
}
