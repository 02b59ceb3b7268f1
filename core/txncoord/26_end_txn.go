package txncoord

// EndTxn (key 26), the TV1 path of TransactionCoordinator.endTransaction,
// Kafka 3.5.
//
// From Ongoing: persist PrepareCommit/PrepareAbort, answer NONE as soon as
// it is replicated (the decision is durable), then send WriteTxnMarkers
// and finally persist CompleteCommit/CompleteAbort. A retry of a finished
// commit (CompleteCommit + commit) or abort is NONE; the same decision
// still in Prepare* is CONCURRENT_TRANSACTIONS; anything else is
// INVALID_TXN_STATE. The producer epoch must equal the current one for a
// client (PRODUCER_FENCED otherwise); the fence and timeout paths pass the
// bumped epoch themselves.

import (
	"txnlab/core/protocol"
	"txnlab/core/sim"
)

func (c *Coordinator) handleEndTxn(w *sim.World, env *sim.Envelope, m *protocol.EndTxnRequest) {
	// KafkaApis: EndTxn above version 4 is transaction version 2.
	if m.Version >= protocol.EndTxnTV2Version {
		c.handleEndTxnTV2(w, env, m)
		return
	}
	c.endTransaction(w, m.TransactionalId, m.ProducerId, m.ProducerEpoch, m.Committed, true, func(w *sim.World, err protocol.ErrorCode) {
		// v0-4 carry no producer id or epoch (the schema default -1).
		c.reply(w, env, &protocol.EndTxnResponse{Version: m.Version, ErrorCode: err, ProducerId: protocol.NoProducerId, ProducerEpoch: protocol.NoProducerEpoch})
	})
}

// endTransaction decides a transaction. fromClient distinguishes the
// client's EndTxn from the coordinator's own fence and timeout aborts.
func (c *Coordinator) endTransaction(w *sim.World, id string, pid int64, epoch int16, commit, fromClient bool, done func(w *sim.World, err protocol.ErrorCode)) {
	if id == "" {
		done(w, protocol.INVALID_REQUEST)
		return
	}
	entry, md, err := c.lookup(id)
	switch {
	case err != protocol.NONE:
		done(w, err)
		return
	case md == nil, md.ProducerId != pid:
		done(w, protocol.INVALID_PRODUCER_ID_MAPPING)
		return
	case fromClient && !c.epochMatches(w, md, epoch):
		done(w, protocol.PRODUCER_FENCED)
		return
	case md.HasPendingState:
		done(w, protocol.CONCURRENT_TRANSACTIONS)
		return
	}
	var target transit
	switch md.State {
	case protocol.Ongoing:
		target = md.prepareAbortOrCommit(commit, w.Now())
	case protocol.PrepareCommit:
		done(w, pick(commit, protocol.CONCURRENT_TRANSACTIONS, protocol.INVALID_TXN_STATE))
		return
	case protocol.PrepareAbort:
		done(w, pick(commit, protocol.INVALID_TXN_STATE, protocol.CONCURRENT_TRANSACTIONS))
		return
	case protocol.CompleteCommit:
		done(w, pick(commit, protocol.NONE, protocol.INVALID_TXN_STATE))
		return
	case protocol.CompleteAbort:
		done(w, pick(commit, protocol.INVALID_TXN_STATE, protocol.NONE))
		return
	default:
		done(w, protocol.INVALID_TXN_STATE)
		return
	}
	coordinatorEpoch := entry.coordinatorEpoch
	c.appendTransactionToLog(w, id, coordinatorEpoch, md, target, func(w *sim.World, err protocol.ErrorCode) {
		if err != protocol.NONE {
			done(w, err)
			return
		}
		// sendTxnMarkersCallback: answer now, then write the markers.
		done(w, protocol.NONE)
		c.markers.add(w, c, id, coordinatorEpoch, commit, md, md.prepareComplete(w.Now()))
	})
}

func pick(commit bool, ifCommit, ifAbort protocol.ErrorCode) protocol.ErrorCode {
	if commit {
		return ifCommit
	}
	return ifAbort
}
