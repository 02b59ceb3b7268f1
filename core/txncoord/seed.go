package txncoord

// Seed is no Kafka API: it lets a script start a transactional id at a
// chosen producer id and epoch, so a lesson can reach epoch exhaustion
// (Short.MaxValue) without 32,766 InitProducerId round trips. It writes
// what a completed InitProducerId writes (an Empty record with that
// producer id and epoch) through the same replicated append, so the
// record is in __transaction_state, survives a coordinator move and is
// loaded back like any other.

import (
	"txnlab/core/protocol"
	"txnlab/core/sim"
)

// seedTimeoutMs is the transaction timeout the seeded metadata holds: the
// client's default transaction.timeout.ms; the next InitProducerId
// replaces it with the producer's own.
const seedTimeoutMs = 60_000

// Seed creates the metadata of a transactional id this coordinator does
// not know yet, Empty at (pid, epoch), and calls done once the record is
// replicated (NONE) or the write failed.
func (c *Coordinator) Seed(w *sim.World, id string, pid int64, epoch int16, done func(w *sim.World, err protocol.ErrorCode)) {
	entry, md, err := c.lookup(id)
	switch {
	case err != protocol.NONE:
		done(w, err)
		return
	case md != nil:
		done(w, protocol.INVALID_REQUEST)
		return
	}
	md = newMetadata(id, pid, seedTimeoutMs, w.Now())
	entry.txns[id] = md
	t := md.base()
	t.PrevProducerId = protocol.NoProducerId
	t.ProducerEpoch, t.LastProducerEpoch = epoch, protocol.NoProducerEpoch
	t.State, t.Partitions = protocol.Empty, nil
	t.TxnStartTimestamp, t.TxnLastUpdateTimestamp = -1, int64(w.Now())
	c.appendTransactionToLog(w, id, entry.coordinatorEpoch, md, md.prepareTransitionTo(t), func(w *sim.World, err protocol.ErrorCode) {
		if err != protocol.NONE && entry.txns[id] == md && md.ProducerEpoch == protocol.NoProducerEpoch {
			delete(entry.txns, id) // nothing was written: as if never seeded
		}
		done(w, err)
	})
}
