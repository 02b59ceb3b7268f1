package broker

// Producer-state expiration (producer.id.expiration.ms): every
// producer.id.expiration.check.interval.ms each broker drops, on every
// replica it holds, the state of producers idle that long with no
// transaction open there (UnifiedLog's PeriodicProducerExpirationCheck,
// ProducerStateManager.removeExpiredProducers, Kafka 3.5). Kafka
// schedules one check per log from its creation; one per broker from its
// start is the same check at another phase.
//
// A check that could remove nothing is skipped: the timer goes straight
// to the first check at which some producer may have expired (no
// producer state can expire before now + producer.id.expiration.ms,
// since any later write, markers included, stamps a later time), so
// idle time costs a few events a day rather than one per broker every
// ten minutes, and the states are removed at exactly the checks Kafka's
// would remove them.

import (
	"strconv"
	"strings"

	"txnlab/core/sim"
)

const timerProducerExpiration = "producer-expiration-check"

// scheduleProducerExpiration arms the next check that can remove
// something, on the grid of checks started at the broker's start.
func (b *Broker) scheduleProducerExpiration(w *sim.World) {
	interval, expiration := b.Cfg.ProducerIdExpirationCheckIntervalMs, b.Cfg.ProducerIdExpirationMs
	if interval <= 0 {
		return
	}
	now := w.Now()
	earliest := now + expiration
	for _, log := range b.Disk.Logs {
		for _, e := range log.Producers {
			if e.CurrentTxnFirstOffset < 0 {
				earliest = min(earliest, sim.Time(e.LastTimestamp)+expiration)
			}
		}
	}
	next := now + interval
	if earliest > next {
		// the first check of the grid b.started + k*interval at or after earliest
		k := (earliest - b.started + interval - 1) / interval
		next = b.started + k*interval
	}
	b.expirationSeq++
	w.AfterBackground(b.Node, next-now, timerProducerExpiration, b.expirationSeq)
}

// RescheduleProducerExpiration re-arms the check after the settings
// changed (a config statement); the previous timer becomes void.
func (b *Broker) RescheduleProducerExpiration(w *sim.World) { b.scheduleProducerExpiration(w) }

func (b *Broker) removeExpiredProducers(w *sim.World, seq int) {
	if seq != b.expirationSeq {
		return
	}
	now := int64(w.Now())
	for _, tp := range sortedTPs(b.Disk.Logs) {
		gone := b.Disk.Logs[tp].RemoveExpiredProducers(now, int64(b.Cfg.ProducerIdExpirationMs))
		if len(gone) == 0 {
			continue
		}
		ids := make([]string, len(gone))
		for i, pid := range gone {
			ids[i] = strconv.FormatInt(pid, 10)
		}
		w.Note(b.Node, tp.String(), sim.NoteProducerStateExpired, strings.Join(ids, ", "))
	}
	b.scheduleProducerExpiration(w)
}
