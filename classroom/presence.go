//go:build !wasm

package classroom

import (
	"context"
	"errors"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// Who is in a class: a student is present while a sign of them is newer
// than Config.PresenceTTL. The signs are the key c.<id>.a.<student>, put
// when the student's event stream opens and each time their page answers
// the stream's beat (Here), and deleted when the stream closes. So a tab
// closed leaves the count at once (its server sees the connection end),
// and a page cut off without a word (a phone out of reach, a server that
// died with its streams) leaves it once its sign is older than the TTL,
// whichever server it was on: every server's watcher sees the same keys
// and expires them by its own clock.
//
// The page answers a beat the server sends on the stream, rather than a
// timer of its own: browsers throttle a hidden tab's timers to once a
// minute, but deliver its network events.

func presenceKey(id, sid string) string { return "c." + id + ".a." + sid }

// studentsEvery bounds how often the instructor's pages are sent who is
// in: a class of 300 joining at once is a few events, not 300.
const studentsEvery = 250 * time.Millisecond

// Beat is how often a student's stream asks its page for a sign of
// presence: three to a PresenceTTL, so one missed beat (a phone's radio
// gap) does not count a student out, and two do.
func (h *Hub) Beat() time.Duration { return max(h.cfg.PresenceTTL/3, minTick) }

// minTick keeps a ticker's period positive whatever the TTL.
const minTick = 10 * time.Millisecond

// Here is student sid's page answering a beat of class id's stream.
func (h *Hub) Here(id, sid string) error {
	ctx, cancel := h.ctx()
	defer cancel()
	if !idOK(id) {
		return refuse(404, "class.err.noclass")
	}
	if !idOK(sid) {
		return refuse(403, "class.err.student")
	}
	// The student's record is purged with the class, so it also says
	// the class is there.
	if _, err := h.kv.Get(ctx, studentKey(id, sid)); errors.Is(err, jetstream.ErrKeyNotFound) {
		return refuse(403, "class.err.student")
	} else if err != nil {
		return h.natsErr(err)
	}
	if _, err := h.kv.Put(ctx, presenceKey(id, sid), []byte("1")); err != nil {
		return h.natsErr(err)
	}
	return nil
}

// left is a student's stream closing: they leave the count now rather
// than when their sign expires. (A page that reconnects puts it again.)
func (h *Hub) left(id, sid string) {
	if !h.Up() {
		return // the sign expires instead
	}
	ctx, cancel := context.WithTimeout(context.Background(), opTimeout)
	defer cancel()
	h.kv.Delete(ctx, presenceKey(id, sid))
}

// present takes a sign of student sid (or its deletion); under r.mu. A
// sign delivered as the watcher replays the bucket counts from when NATS
// took it, so a student gone before this server looked is not counted
// for a whole TTL more.
func (r *room) present(sid string, deleted bool, at time.Time) {
	if deleted {
		if _, ok := r.seen[sid]; ok {
			delete(r.seen, sid)
			r.dirty = true
		}
		return
	}
	now := time.Now()
	if r.ready || at.IsZero() || at.After(now) {
		at = now
	}
	if _, ok := r.seen[sid]; !ok {
		r.dirty = true
	}
	r.seen[sid] = at
}

// tick expires the room's old signs and sends the instructor's pages who
// is in when it changed, until the room stops.
func (r *room) tick() {
	t := time.NewTicker(max(min(studentsEvery, r.h.cfg.PresenceTTL/4), minTick))
	defer t.Stop()
	for {
		select {
		case <-r.done:
			return
		case now := <-t.C:
			r.mu.Lock()
			for sid, at := range r.seen {
				if now.Sub(at) > r.h.cfg.PresenceTTL {
					delete(r.seen, sid)
					r.dirty = true
				}
			}
			if r.dirty && r.ready {
				r.dirty = false
				r.broadcast(r.studentsEvent(), true)
			}
			r.mu.Unlock()
		}
	}
}

// CheckCode reads a join code as typed and says whether a class has it:
// 400 for what no code looks like, 404 for a code no class has (the QR
// code of a join link is drawn only for a real one).
func (h *Hub) CheckCode(code string) (string, error) {
	in := JoinIn{Code: code}
	if e := in.check(); e != nil {
		return "", e
	}
	ctx, cancel := h.ctx()
	defer cancel()
	if _, err := h.kv.Get(ctx, codeKey(in.Code)); errors.Is(err, jetstream.ErrKeyNotFound) {
		return "", refuse(404, "class.err.nocode")
	} else if err != nil {
		return "", h.natsErr(err)
	}
	return in.Code, nil
}
