//go:build !wasm

package classroom

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// Event is one message to a page following a class: its name (state,
// question, tally, students, nats, ended) and its JSON.
type Event struct {
	Name string
	Data []byte
}

// followerBuffer is how many events a follower may fall behind by. A page
// further behind is cut: its browser reconnects and is sent the class's
// current state, which is all it needs (every event is a whole state, not
// a change to one).
const followerBuffer = 32

// Follower is one page following a class: read Events until it closes,
// then Close.
type Follower struct {
	// Events carries the class's events; it is closed when the class
	// ends, the page falls too far behind, or the hub closes.
	Events  <-chan Event
	ch      chan Event
	Teacher bool
	r       *room
	closed  bool   // under r.mu
	student string // a student's token: present while the stream is open
}

// Close stops following.
func (f *Follower) Close() { f.r.leave(f) }

// Follow opens a stream of class id's events for the holder of token: the
// instructor's view token (with the tally and who is in) or a student's
// token. The first events are the class's current state.
func (h *Hub) Follow(id, token string) (*Follower, error) {
	ctx, cancel := h.ctx()
	defer cancel()
	m, e := h.classMeta(ctx, id)
	if e != nil {
		return nil, e
	}
	teacher := sameToken(token, m.View)
	if !teacher {
		if !idOK(token) {
			return nil, refuse(403, "class.err.student")
		}
		if _, err := h.kv.Get(ctx, studentKey(id, token)); errors.Is(err, jetstream.ErrKeyNotFound) {
			return nil, refuse(403, "class.err.student")
		} else if err != nil {
			return nil, h.natsErr(err)
		}
		// Opening the stream is being here; closing it, leaving
		// (presence.go).
		if _, err := h.kv.Put(ctx, presenceKey(id, token), []byte("1")); err != nil {
			return nil, h.natsErr(err)
		}
	}
	h.mu.Lock()
	r, ok := h.rooms[id]
	if !ok {
		r = &room{h: h, id: id, votes: map[int]map[string]Prediction{}, names: map[string]string{}, seen: map[string]time.Time{}, subs: map[*Follower]struct{}{}, done: make(chan struct{})}
		h.rooms[id] = r
		go r.tick()
	}
	f := &Follower{ch: make(chan Event, followerBuffer), Teacher: teacher, r: r}
	if !teacher {
		f.student = token
	}
	f.Events = f.ch
	r.mu.Lock()
	r.subs[f] = struct{}{}
	if r.ready {
		r.snapshot(f)
	}
	r.mu.Unlock()
	h.mu.Unlock()
	if !ok {
		w, err := r.watch()
		if err != nil {
			r.stop()
			return nil, h.natsErr(err)
		}
		go r.run(w)
	}
	return f, nil
}

func (r *room) watch() (jetstream.KeyWatcher, error) {
	return r.h.kv.WatchFiltered(context.Background(), []string{"c." + r.id + ".>"})
}

// rewatch replaces the room's watcher after NATS came back: the old one's
// consumer may be gone with the server, and would notice only after
// missing its heartbeats. The new one delivers every key again, then the
// followers are sent the class as it is.
func (r *room) rewatch() {
	for try := 0; ; try++ {
		r.mu.Lock()
		stopped := r.stopped
		r.mu.Unlock()
		if stopped || !r.h.Up() {
			return
		}
		w, err := r.watch()
		if err == nil {
			r.run(w)
			return
		}
		// JetStream may still be recovering its streams.
		time.Sleep(min(time.Duration(try+1)*100*time.Millisecond, 2*time.Second))
	}
}

// room is one class as this server sees it: the bucket's keys of the
// class, kept current by one watcher, fanned out to the pages following.
type room struct {
	h  *Hub
	id string

	mu      sync.Mutex
	watcher jetstream.KeyWatcher
	ready   bool // the watcher has delivered every key there was
	stopped bool
	state   []byte // the state event's data
	q       *Question
	votes   map[int]map[string]Prediction // round → student → vote
	names   map[string]string             // student → display name
	seen    map[string]time.Time          // student → last sign of presence (presence.go)
	dirty   bool                          // who is in changed since the last students event
	ended   bool                          // the class's record is gone
	subs    map[*Follower]struct{}
	done    chan struct{} // closed when the room stops
}

func (r *room) run(w jetstream.KeyWatcher) {
	r.mu.Lock()
	if r.stopped {
		r.mu.Unlock()
		w.Stop()
		return
	}
	old := r.watcher
	r.watcher = w
	r.ready = false
	r.mu.Unlock()
	if old != nil {
		old.Stop()
	}
	for e := range w.Updates() {
		r.mu.Lock()
		if r.watcher != w {
			r.mu.Unlock()
			return // replaced by rewatch
		}
		if e == nil {
			r.ready = true
			for f := range r.subs {
				r.snapshot(f)
			}
		} else {
			r.apply(e)
		}
		r.mu.Unlock()
	}
	// The watcher gave up (and was not replaced): cut the followers,
	// whose browsers reconnect to a new watcher.
	r.mu.Lock()
	replaced := r.watcher != w
	r.mu.Unlock()
	if !replaced {
		r.stop()
	}
}

// apply takes one change of the class's keys; under r.mu.
func (r *room) apply(e jetstream.KeyValueEntry) {
	rest := strings.TrimPrefix(e.Key(), "c."+r.id+".")
	deleted := e.Operation() != jetstream.KeyValuePut
	kind, arg, _ := strings.Cut(rest, ".")
	switch kind {
	case "meta":
		if deleted {
			r.ended = true
			r.broadcast(Event{"ended", []byte("{}")}, false)
			for f := range r.subs {
				r.drop(f)
			}
		}
	case "state":
		var s State
		if deleted || json.Unmarshal(e.Value(), &s) != nil {
			return
		}
		s.Rev = e.Revision()
		r.state, _ = json.Marshal(s)
		if r.ready {
			r.broadcast(Event{"state", r.state}, false)
		}
	case "q":
		var q Question
		if deleted || json.Unmarshal(e.Value(), &q) != nil {
			return
		}
		r.q = &q
		if r.ready {
			r.broadcast(r.questionEvent(), false)
			r.broadcast(r.tallyEvent(), true)
		}
	case "s":
		if deleted {
			delete(r.names, arg)
		} else {
			var s student
			json.Unmarshal(e.Value(), &s)
			r.names[arg] = s.Name
		}
		r.dirty = true
	case "a":
		r.present(arg, deleted, e.Created())
	case "p":
		round, sid, _ := strings.Cut(arg, ".")
		n, _ := strconv.Atoi(round)
		var p Prediction
		if deleted || json.Unmarshal(e.Value(), &p) != nil {
			delete(r.votes[n], sid)
		} else {
			if r.votes[n] == nil {
				r.votes[n] = map[string]Prediction{}
			}
			r.votes[n][sid] = p
		}
		if r.ready && r.q != nil && (n == r.q.Round || n == r.q.Round-1) {
			r.broadcast(r.tallyEvent(), true)
		}
	}
}

// snapshot sends f the class as it is; under r.mu.
func (r *room) snapshot(f *Follower) {
	if r.state != nil {
		r.send(f, Event{"state", r.state})
	}
	if r.q != nil {
		r.send(f, r.questionEvent())
	}
	if f.Teacher {
		r.send(f, r.studentsEvent())
		r.send(f, r.tallyEvent())
		r.send(f, natsEvent(r.h.Up()))
	}
}

func natsEvent(up bool) Event {
	if up {
		return Event{"nats", []byte(`{"up":true}`)}
	}
	return Event{"nats", []byte(`{"up":false}`)}
}

func (r *room) questionEvent() Event {
	b, _ := json.Marshal(r.q)
	return Event{"question", b}
}

// studentsEvent is who is in, for the instructor: a count and the names
// given (the students who gave none are only counted).
func (r *room) studentsEvent() Event {
	var names []string
	for sid := range r.seen {
		if n := r.names[sid]; n != "" {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	b, _ := json.Marshal(struct {
		Count int      `json:"count"`
		Names []string `json:"names"`
	}{len(r.seen), names})
	return Event{"students", b}
}

// tallyEvent is the open (or last) round's distribution, and the round
// before it when this one is a second vote.
func (r *room) tallyEvent() Event {
	if r.q == nil {
		return Event{"tally", []byte(`{"round":0,"counts":[],"sure":[],"total":0}`)}
	}
	t := r.tally(r.q.Round)
	if r.q.Of != 0 {
		t.Prev = r.tally(r.q.Round - 1)
	}
	b, _ := json.Marshal(t)
	return Event{"tally", b}
}

func (r *room) tally(round int) *Tally {
	n := len(r.q.Choices)
	t := &Tally{Round: round, Counts: make([]int, n), Sure: make([][3]int, n)}
	for _, p := range r.votes[round] {
		if p.Choice < n && p.Sure >= 0 && p.Sure < 3 {
			t.Counts[p.Choice]++
			t.Sure[p.Choice][p.Sure]++
			t.Total++
		}
	}
	return t
}

// broadcast sends e to every follower (teachers only: only to the
// instructor's pages); under r.mu.
func (r *room) broadcast(e Event, teachers bool) {
	for f := range r.subs {
		if !teachers || f.Teacher {
			r.send(f, e)
		}
	}
}

// send queues e for f, cutting f if it is too far behind; under r.mu.
func (r *room) send(f *Follower, e Event) {
	select {
	case f.ch <- e:
	default:
		r.drop(f)
	}
}

// drop closes f's stream; under r.mu.
func (r *room) drop(f *Follower) {
	if !f.closed {
		f.closed = true
		close(f.ch)
	}
}

func (r *room) natsChanged(up bool) {
	r.mu.Lock()
	r.broadcast(natsEvent(up), true)
	r.mu.Unlock()
	if up {
		go r.rewatch()
	}
}

// leave removes f; the last follower to leave stops the room's watcher.
func (r *room) leave(f *Follower) {
	r.h.mu.Lock()
	r.mu.Lock()
	delete(r.subs, f)
	r.drop(f)
	ended := r.ended
	last := len(r.subs) == 0
	if last && r.h.rooms[r.id] == r {
		delete(r.h.rooms, r.id)
	}
	r.mu.Unlock()
	r.h.mu.Unlock()
	if last {
		r.stop()
	}
	if f.student != "" && !ended {
		r.h.left(r.id, f.student)
	}
}

// stop ends the watcher and every follower's stream.
func (r *room) stop() {
	r.mu.Lock()
	if !r.stopped {
		close(r.done)
	}
	r.stopped = true
	w := r.watcher
	for f := range r.subs {
		r.drop(f)
	}
	r.mu.Unlock()
	if w != nil {
		w.Stop()
	}
	r.h.mu.Lock()
	if r.h.rooms[r.id] == r {
		delete(r.h.rooms, r.id)
	}
	r.h.mu.Unlock()
}
