// Package sim is the deterministic discrete-event engine under the whole
// simulation: virtual time, one event queue, seeded randomness, the
// simulated network with its fault rules, node lifecycle (crash, restart,
// pause) and the trace. Nothing here reads a clock or starts a goroutine.
package sim

import "strconv"

// Time is virtual time in milliseconds since the scenario started. It is
// also used for durations.
type Time int64

// Common durations.
const (
	Millisecond Time = 1
	Second      Time = 1000
	Minute      Time = 60 * Second
	Hour        Time = 60 * Minute
	Day         Time = 24 * Hour
)

// String renders a time as milliseconds ("1234ms").
func (t Time) String() string { return strconv.FormatInt(int64(t), 10) + "ms" }

// NextTick is the first tick of a period that started at start and
// repeats every interval, strictly after now. Periodic tasks that sleep
// while they have nothing to do wake on their own cadence this way, so
// skipping idle ticks never shifts when a busy tick falls.
func NextTick(start, interval, now Time) Time {
	if interval <= 0 {
		return now
	}
	if now < start {
		return start
	}
	return start + ((now-start)/interval+1)*interval
}

// Human renders a duration the way a script writes it: "7d", "1h", "9s",
// "250ms".
func (t Time) Human() string {
	for _, u := range []struct {
		d    Time
		name string
	}{{Day, "d"}, {Hour, "h"}, {Minute, "m"}, {Second, "s"}} {
		if t != 0 && t%u.d == 0 {
			return strconv.FormatInt(int64(t/u.d), 10) + u.name
		}
	}
	return strconv.FormatInt(int64(t), 10) + "ms"
}
