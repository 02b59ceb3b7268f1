//go:build !wasm

package classroom

import (
	"sync"
	"time"
)

// limiter is a token bucket per client (a student, an instructor, an
// address joining): rate tokens a second, up to burst. A client idle for
// long is forgotten, so the map stays bounded by who is active.
type limiter struct {
	rate  float64
	burst float64
	mu    sync.Mutex
	seen  map[string]*tokens
	swept time.Time
}

type tokens struct {
	n    float64
	last time.Time
}

// maxClients bounds the clients a limiter remembers (~100 bytes each).
const maxClients = 100_000

func newLimiter(rate float64, burst int) *limiter {
	return &limiter{rate: rate, burst: float64(burst), seen: map[string]*tokens{}}
}

// allow takes a token of client's, reporting false when none is left.
func (l *limiter) allow(client string, now time.Time) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if now.Sub(l.swept) > time.Minute {
		for k, t := range l.seen {
			if now.Sub(t.last) > time.Minute {
				delete(l.seen, k)
			}
		}
		l.swept = now
	}
	t, ok := l.seen[client]
	if !ok && len(l.seen) >= maxClients {
		// A flood of new clients (made-up tokens): forget everyone
		// rather than grow without bound; each starts again full.
		clear(l.seen)
	}
	if !ok {
		t = &tokens{n: l.burst, last: now}
		l.seen[client] = t
	}
	t.n = min(l.burst, t.n+now.Sub(t.last).Seconds()*l.rate)
	t.last = now
	if t.n < 1 {
		return false
	}
	t.n--
	return true
}
