package txncoord

// InitProducerId (key 22): TransactionCoordinator.handleInitProducerId and
// prepareInitProducerIdTransit, Kafka 3.5.
//
// - A null transactional id gets a fresh producer id at epoch 0, nothing
//   written.
// - From Empty/CompleteCommit/CompleteAbort: bump the epoch (KIP-360
//   rules) or rotate to a new producer id when the epoch is exhausted,
//   persist Empty, answer with the new pid and epoch.
// - From Ongoing: fence (epoch+1, PrepareEpochFence pending), abort the
//   open transaction (PrepareAbort, markers) and answer
//   CONCURRENT_TRANSACTIONS; the client retries and gets another bump.
// - From Prepare*: CONCURRENT_TRANSACTIONS, nothing changes.
// - At an exhausted epoch (≥ 32766) with an expected epoch that is not the
//   current one, or Ongoing at 32767 (no fence possible): Kafka throws
//   IllegalStateException, answered as UNKNOWN_SERVER_ERROR.
//
// The UI relies on the PrepareEpochFence state note and on the two bumps.

import (
	"txnlab/core/protocol"
	"txnlab/core/sim"
)

func (c *Coordinator) handleInitProducerId(w *sim.World, env *sim.Envelope, m *protocol.InitProducerIdRequest) {
	fail := func(err protocol.ErrorCode) {
		c.reply(w, env, &protocol.InitProducerIdResponse{ErrorCode: err, ProducerId: protocol.NoProducerId, ProducerEpoch: protocol.NoProducerEpoch})
	}
	if m.TransactionalId == "" {
		c.reply(w, env, &protocol.InitProducerIdResponse{ProducerId: c.host.AllocateProducerId(), ProducerEpoch: 0})
		return
	}
	if m.TransactionTimeoutMs <= 0 || sim.Time(m.TransactionTimeoutMs) > c.cfg.TransactionMaxTimeoutMs {
		fail(protocol.INVALID_TRANSACTION_TIMEOUT)
		return
	}
	if (m.ProducerId == protocol.NoProducerId) != (m.ProducerEpoch == protocol.NoProducerEpoch) {
		fail(protocol.INVALID_REQUEST)
		return
	}
	entry, md, err := c.lookup(m.TransactionalId)
	if err != protocol.NONE {
		fail(err)
		return
	}
	if md == nil {
		md = newMetadata(m.TransactionalId, c.host.AllocateProducerId(), m.TransactionTimeoutMs, w.Now())
		entry.txns[m.TransactionalId] = md
	}
	hasExpected := m.ProducerId != protocol.NoProducerId
	if md.HasPendingState {
		fail(protocol.CONCURRENT_TRANSACTIONS)
		return
	}
	if hasExpected && !isValidProducerId(md, m.ProducerId, m.ProducerEpoch) {
		fail(protocol.PRODUCER_FENCED)
		return
	}
	var target transit
	switch md.State {
	case protocol.PrepareCommit, protocol.PrepareAbort:
		fail(protocol.CONCURRENT_TRANSACTIONS)
		return
	case protocol.Empty, protocol.CompleteCommit, protocol.CompleteAbort:
		if isEpochExhausted(md.ProducerEpoch) && (!hasExpected || m.ProducerEpoch == md.ProducerEpoch) {
			target = md.prepareProducerIdRotation(c.host.AllocateProducerId(), m.TransactionTimeoutMs, hasExpected, w.Now())
		} else if isEpochExhausted(md.ProducerEpoch) {
			// prepareIncrementProducerEpoch throws IllegalStateException
			// on an exhausted epoch; KafkaApis answers it as
			// UNKNOWN_SERVER_ERROR.
			fail(protocol.UNKNOWN_SERVER_ERROR)
			return
		} else {
			var ferr protocol.ErrorCode
			target, ferr = md.prepareIncrementProducerEpoch(m.TransactionTimeoutMs, m.ProducerEpoch, hasExpected, w.Now())
			if ferr != protocol.NONE {
				fail(ferr)
				return
			}
		}
	case protocol.Ongoing:
		if md.ProducerEpoch == MaxProducerEpoch {
			// prepareFenceProducerEpoch: "Cannot fence producer with
			// epoch equal to Short.MaxValue since this would overflow"
			// (IllegalStateException, UNKNOWN_SERVER_ERROR to the client).
			fail(protocol.UNKNOWN_SERVER_ERROR)
			return
		}
		md.prepareFenceProducerEpoch(w, c.host.BrokerNode())
		c.endTransaction(w, md.TransactionalId, md.ProducerId, md.ProducerEpoch, false, false, func(w *sim.World, err protocol.ErrorCode) {
			if err == protocol.NONE {
				err = protocol.CONCURRENT_TRANSACTIONS
			} else {
				md.HasFailedEpochFence = true
			}
			fail(err)
		})
		return
	default:
		fail(protocol.UNKNOWN_SERVER_ERROR) // Dead: IllegalStateException in Kafka
		return
	}
	c.appendTransactionToLog(w, md.TransactionalId, entry.coordinatorEpoch, md, target, func(w *sim.World, err protocol.ErrorCode) {
		if err != protocol.NONE {
			fail(err)
			return
		}
		c.reply(w, env, &protocol.InitProducerIdResponse{ProducerId: md.ProducerId, ProducerEpoch: md.ProducerEpoch})
	})
}

// isValidProducerId is KIP-360's check of the expected (pid, epoch).
func isValidProducerId(md *TransactionMetadata, pid int64, epoch int16) bool {
	return md.ProducerEpoch == protocol.NoProducerEpoch || pid == md.ProducerId ||
		(pid == md.PrevProducerId && isEpochExhausted(epoch))
}
