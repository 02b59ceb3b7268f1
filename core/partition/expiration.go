package partition

import "slices"

// RemoveExpiredProducers is ProducerStateManager.removeExpiredProducers
// (Kafka 3.5): the state of every producer with no transaction open on
// this partition whose last batch is at least expirationMs old is
// dropped (isProducerExpired). Its next batch then finds no state, and
// ProducerAppendInfo.checkSequence accepts it with any sequence number
// (KIP-360: a broker no longer answers UNKNOWN_PRODUCER_ID), so the
// duplicate check of a retried batch is lost. It returns the producer ids
// removed, sorted.
func (l *Log) RemoveExpiredProducers(now, expirationMs int64) []int64 {
	var out []int64
	for pid, e := range l.Producers {
		if e.CurrentTxnFirstOffset < 0 && now-e.LastTimestamp >= expirationMs {
			out = append(out, pid)
		}
	}
	slices.Sort(out)
	for _, pid := range out {
		delete(l.Producers, pid)
	}
	return out
}
