package txncoord

// The two periodic scans of TransactionStateManager, Kafka 3.5.
//
// abortTimedOutTransactions (every
// transaction.abort.timed.out.transaction.cleanup.interval.ms, 10 s):
// only Ongoing transactions with no pending transition and
// start + timeout < now (strictly) are aborted, after fencing the
// producer with epoch+1. At epoch 32767 the fence would overflow: Kafka
// throws, which ends that run of the scan.
//
// removeExpiredTransactionalIds (hourly): Empty or Complete* ids not
// updated for transactional.id.expiration.ms (7 days) get a tombstone
// and leave the cache.

import (
	"slices"

	"txnlab/core/protocol"
	"txnlab/core/sim"
)

func (c *Coordinator) loadedPartitions() []int32 {
	ps := make([]int32, 0, len(c.cache))
	for p := range c.cache {
		ps = append(ps, p)
	}
	slices.Sort(ps)
	return ps
}

func (c *Coordinator) abortTimedOutTransactions(w *sim.World) {
	now := int64(w.Now())
	for _, p := range c.loadedPartitions() {
		entry := c.cache[p]
		for _, id := range sortedIds(entry.txns) {
			md := entry.txns[id]
			if md.State != protocol.Ongoing || md.HasPendingState || md.TxnStartTimestamp+int64(md.TxnTimeoutMs) >= now {
				continue
			}
			if md.ProducerEpoch == MaxProducerEpoch {
				// prepareFenceProducerEpoch throws at Short.MaxValue, and
				// the exception ends this run of the scan in Kafka.
				w.Note(c.host.BrokerNode(), "txn "+id, sim.NoteTimeoutAtMaxEpoch)
				return
			}
			w.Note(c.host.BrokerNode(), "txn "+id, sim.NoteTxnTimedOut, sim.Time(md.TxnTimeoutMs).Human())
			md.prepareFenceProducerEpoch(w, c.host.BrokerNode())
			c.endTransaction(w, id, md.ProducerId, md.ProducerEpoch, false, false, func(w *sim.World, err protocol.ErrorCode) {
				if err != protocol.NONE {
					md.HasFailedEpochFence = true
				}
			})
		}
	}
}

func (c *Coordinator) removeExpiredTransactionalIds(w *sim.World) {
	now := w.Now()
	for _, p := range c.loadedPartitions() {
		entry := c.cache[p]
		for _, id := range sortedIds(entry.txns) {
			md := entry.txns[id]
			expirable := md.State == protocol.Empty || md.State == protocol.CompleteCommit || md.State == protocol.CompleteAbort
			if !expirable || md.HasPendingState || sim.Time(md.TxnLastUpdateTimestamp) > now-c.cfg.TransactionalIdExpirationMs {
				continue
			}
			epoch := md.ProducerEpoch
			target := md.prepareDead()
			w.Note(c.host.BrokerNode(), "txn "+id, sim.NoteTxnIdExpired)
			c.appendTransactionToLog(w, id, entry.coordinatorEpoch, md, target, func(w *sim.World, err protocol.ErrorCode) {
				if err == protocol.NONE && c.cache[p] == entry && md.ProducerEpoch == epoch {
					delete(entry.txns, id)
				}
			})
		}
	}
}
