//go:build !wasm

// Package classroom runs live classes over NATS: an instructor's state
// (script, settings, seed, step) that every student's page follows, the
// questions the instructor opens, and the class's predictions. A class
// lives in one NATS key-value bucket, so any txnlab server sharing the NATS
// serves it and a late joiner reads its current state; each server keeps
// one watcher per class it has followers of and fans its changes out to
// them.
//
// By default the NATS server is embedded in-process, listening on no port;
// Config.NATSURL joins an existing NATS (a cluster several txnlab servers
// share). Browsers never speak NATS: app/server turns these calls into
// HTTP. The build tag keeps it out of web/app.wasm.
package classroom

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// Config is how the hub runs; the zero value of a field means its default.
type Config struct {
	// NATSURL is an external NATS to use ("nats://host:4222", several
	// comma-separated for a cluster). Default "": a NATS server embedded
	// in this process, listening on no port.
	NATSURL string
	// Store is a directory the embedded NATS keeps its JetStream files
	// in, so that classes outlive a restart of this process (students
	// and an instructor whose page stayed open carry on). Default "":
	// memory only, and nothing of a class outlives the process. Not
	// used with NATSURL, whose bucket is file-stored by that NATS.
	Store string
	// Bucket is the key-value bucket classes live in. Default
	// "txnlab-classes".
	Bucket string
	// ClassTTL is how long a class lives; its join code expires with it
	// and the bucket forgets everything of it. Default 8h.
	ClassTTL time.Duration
	// MaxClasses is the most classes this server holds open. Default 200.
	MaxClasses int
	// MaxClassesPerOwner is the most open classes one address may have
	// created here, so no one address takes every class. Default 20.
	MaxClassesPerOwner int
	// MaxStudents is the most students one class admits. Default 400.
	MaxStudents int
	// Rate and Burst bound each client's messages (an instructor, a
	// student, an address joining): Rate a second, Burst at once.
	// Defaults 10 and 30.
	Rate  float64
	Burst int
	// PresenceTTL is how long a student counts as in after the last
	// sign of their page (presence.go). Default 30s.
	PresenceTTL time.Duration
	// Log receives what the operator should know (NATS lost, back).
	Log func(format string, args ...any)
}

func (c Config) withDefaults() Config {
	if c.Bucket == "" {
		c.Bucket = "txnlab-classes"
	}
	if c.ClassTTL == 0 {
		c.ClassTTL = 8 * time.Hour
	}
	if c.MaxClasses == 0 {
		c.MaxClasses = 200
	}
	if c.MaxClassesPerOwner == 0 {
		c.MaxClassesPerOwner = 20
	}
	if c.MaxStudents == 0 {
		c.MaxStudents = 400
	}
	if c.Rate == 0 {
		c.Rate = 10
	}
	if c.Burst == 0 {
		c.Burst = 30
	}
	if c.PresenceTTL == 0 {
		c.PresenceTTL = 30 * time.Second
	}
	if c.Log == nil {
		c.Log = func(string, ...any) {}
	}
	return c
}

// opTimeout bounds one NATS operation: a request must not hang on a NATS
// that is away; it is refused with "try again" instead.
const opTimeout = 3 * time.Second

// Hub is this server's side of every class. Create it with Open.
type Hub struct {
	cfg   Config
	ns    *server.Server // the embedded NATS, or nil
	store string         // its storage directory, removed on Close
	nc    *nats.Conn
	kv    jetstream.KeyValue
	limit *limiter
	joins *limiter
	up    atomic.Bool
	// closing is set by Close: the connection it closes is not NATS
	// being lost, and saying so misled the operator at every shutdown.
	closing atomic.Bool
	mu      sync.Mutex
	rooms   map[string]*room
	classes map[string]owned // classes created here
}

// owned is a class created here: who created it (an address), its end.
type owned struct {
	owner   string
	expires time.Time
}

// Open starts the embedded NATS (or connects to cfg.NATSURL) and opens the
// classes' bucket.
func Open(cfg Config) (*Hub, error) {
	cfg = cfg.withDefaults()
	h := &Hub{cfg: cfg, limit: newLimiter(cfg.Rate, cfg.Burst), joins: newLimiter(max(cfg.Rate, 20), max(cfg.Burst, cfg.MaxStudents)), rooms: map[string]*room{}, classes: map[string]owned{}}
	opts := []nats.Option{
		nats.Name("txnlab"),
		nats.MaxReconnects(-1),
		nats.ReconnectWait(250 * time.Millisecond),
		nats.DisconnectErrHandler(func(_ *nats.Conn, err error) { h.setUp(false, err) }),
		nats.ReconnectHandler(func(*nats.Conn) { h.setUp(true, nil) }),
	}
	storage := jetstream.FileStorage
	url := cfg.NATSURL
	if url == "" {
		dir, err := embeddedStore(cfg.Store)
		if err != nil {
			return nil, err
		}
		if cfg.Store == "" {
			h.store = dir // removed on Close
		}
		ns, err := server.NewServer(&server.Options{DontListen: true, JetStream: true, StoreDir: dir, NoSigs: true, NoLog: true, ServerName: "txnlab"})
		if err != nil {
			if cfg.Store == "" {
				os.RemoveAll(dir)
			}
			return nil, fmt.Errorf("embedded NATS: %w", err)
		}
		go ns.Start()
		if !ns.ReadyForConnections(10 * time.Second) {
			ns.Shutdown()
			if cfg.Store == "" {
				os.RemoveAll(dir)
			}
			return nil, errors.New("embedded NATS did not start")
		}
		h.ns = ns
		opts = append(opts, nats.InProcessServer(ns))
		if cfg.Store == "" {
			// Nothing of a class outlives the process that embeds it.
			storage = jetstream.MemoryStorage
		}
	}
	nc, err := nats.Connect(url, opts...)
	if err != nil {
		h.Close()
		return nil, fmt.Errorf("NATS at %q: %w", url, err)
	}
	h.nc = nc
	js, err := jetstream.New(nc)
	if err != nil {
		h.Close()
		return nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	h.kv, err = js.CreateOrUpdateKeyValue(ctx, jetstream.KeyValueConfig{
		Bucket:       cfg.Bucket,
		Description:  "txnlab classes: state, questions, predictions",
		TTL:          cfg.ClassTTL,
		MaxValueSize: MaxMessage + 4096,
		Storage:      storage,
		History:      1,
	})
	if err != nil {
		h.Close()
		return nil, fmt.Errorf("the classes' bucket %q: %w", cfg.Bucket, err)
	}
	h.up.Store(true)
	return h, nil
}

// Close stops every follower, the connection and the embedded NATS.
func (h *Hub) Close() error {
	h.closing.Store(true)
	h.mu.Lock()
	rooms := h.rooms
	h.rooms = map[string]*room{}
	h.mu.Unlock()
	for _, r := range rooms {
		r.stop()
	}
	if h.nc != nil {
		h.nc.Close()
	}
	if h.ns != nil {
		h.ns.Shutdown()
		h.ns.WaitForShutdown()
	}
	if h.store != "" {
		os.RemoveAll(h.store)
	}
	return nil
}

// Up reports whether NATS is reachable now.
func (h *Hub) Up() bool { return h.up.Load() }

// Embedded reports whether the NATS server runs in this process.
func (h *Hub) Embedded() bool { return h.ns != nil }

func (h *Hub) setUp(up bool, err error) {
	if h.closing.Load() || h.up.Swap(up) == up {
		return
	}
	if up {
		h.cfg.Log("NATS is back; classes resume")
	} else {
		h.cfg.Log("NATS lost (%v); classes wait for it", err)
	}
	h.mu.Lock()
	rooms := make([]*room, 0, len(h.rooms))
	for _, r := range h.rooms {
		rooms = append(rooms, r)
	}
	h.mu.Unlock()
	for _, r := range rooms {
		r.natsChanged(up)
	}
}

// Allow takes one of client's rate tokens: false means refuse the message
// (429).
func (h *Hub) Allow(client string) bool { return h.limit.allow(client, time.Now()) }

// AllowJoin takes one of an address's tokens for creating and joining
// classes: a class behind one NAT address joins at once, so an address
// has a whole class's worth (MaxStudents) at once, then 20 a second.
func (h *Hub) AllowJoin(addr string) bool { return h.joins.allow(addr, time.Now()) }

// Keys of the bucket. Every key of a class is under c.<id>., so one class's
// watcher sees nothing of another's.
func metaKey(id string) string  { return "c." + id + ".meta" }
func stateKey(id string) string { return "c." + id + ".state" }
func qKey(id string) string     { return "c." + id + ".q" }
func countKey(id string) string { return "c." + id + ".n" }
func studentKey(id, sid string) string {
	return "c." + id + ".s." + sid
}
func predictKey(id string, round int, sid string) string {
	return "c." + id + ".p." + strconv.Itoa(round) + "." + sid
}
func codeKey(code string) string { return "j." + code }
func roundKey(id string, round int) string {
	return "c." + id + ".r." + strconv.Itoa(round)
}

// meta is a class's record: its code, the hashes of its secrets, its end.
type meta struct {
	Code    string `json:"code"`
	Secret  string `json:"secret"` // sha256 of the instructor's secret
	View    string `json:"view"`   // sha256 of the instructor's view token
	Expires int64  `json:"expires"`
}

// Created is what the instructor gets on creating a class. Secret drives
// the class; View follows it with the tally (for the event stream's URL,
// which cannot carry a header); Code is what students type.
type Created struct {
	ID      string `json:"id"`
	Code    string `json:"code"`
	Secret  string `json:"secret"`
	View    string `json:"view"`
	Expires int64  `json:"expires"`
}

// Joined is what a student gets on joining: Student is their token.
type Joined struct {
	ID      string `json:"id"`
	Student string `json:"student"`
	Expires int64  `json:"expires"`
}

func (h *Hub) ctx() (context.Context, context.CancelFunc) {
	if !h.Up() {
		// Refuse at once rather than after opTimeout: the client
		// would buffer the request until NATS is back.
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		return ctx, cancel
	}
	return context.WithTimeout(context.Background(), opTimeout)
}

// natsErr turns a NATS failure into "NATS is away, try again" (503):
// nothing was changed that the caller was told about.
func (h *Hub) natsErr(err error) *Error {
	h.cfg.Log("class store: %v", err)
	return refuse(503, "class.err.nats")
}

func (h *Hub) getJSON(ctx context.Context, key string, v any) (uint64, error) {
	e, err := h.kv.Get(ctx, key)
	if err != nil {
		return 0, err
	}
	return e.Revision(), json.Unmarshal(e.Value(), v)
}

func (h *Hub) putJSON(ctx context.Context, key string, v any) error {
	b, _ := json.Marshal(v)
	_, err := h.kv.Put(ctx, key, b)
	return err
}

// Create opens a new class for owner (the address asking).
func (h *Hub) Create(owner string) (Created, error) {
	now := time.Now()
	h.mu.Lock()
	mine := 0
	for id, o := range h.classes {
		if now.After(o.expires) {
			delete(h.classes, id)
		} else if o.owner == owner {
			mine++
		}
	}
	full := len(h.classes) >= h.cfg.MaxClasses
	h.mu.Unlock()
	if full {
		return Created{}, refuse(503, "class.err.classes", h.cfg.MaxClasses)
	}
	if mine >= h.cfg.MaxClassesPerOwner {
		return Created{}, refuse(429, "class.err.yours", h.cfg.MaxClassesPerOwner)
	}
	ctx, cancel := h.ctx()
	defer cancel()
	c := Created{ID: newID(), Secret: newToken(), View: newToken(), Expires: now.Add(h.cfg.ClassTTL).Unix()}
	for range 5 {
		c.Code = newCode()
		if _, err := h.kv.Create(ctx, codeKey(c.Code), []byte(c.ID)); err == nil {
			break
		} else if !errors.Is(err, jetstream.ErrKeyExists) {
			return Created{}, h.natsErr(err)
		}
		c.Code = ""
	}
	if c.Code == "" {
		return Created{}, refuse(503, "class.err.nats")
	}
	m := meta{Code: c.Code, Secret: hashToken(c.Secret), View: hashToken(c.View), Expires: c.Expires}
	if err := h.putJSON(ctx, metaKey(c.ID), m); err != nil {
		return Created{}, h.natsErr(err)
	}
	h.mu.Lock()
	h.classes[c.ID] = owned{owner, time.Unix(c.Expires, 0)}
	h.mu.Unlock()
	return c, nil
}

// classMeta reads a live class's record: 404 for no such class, 410 for
// one that has ended.
func (h *Hub) classMeta(ctx context.Context, id string) (meta, *Error) {
	var m meta
	if !idOK(id) {
		return m, refuse(404, "class.err.noclass")
	}
	_, err := h.getJSON(ctx, metaKey(id), &m)
	switch {
	case errors.Is(err, jetstream.ErrKeyNotFound):
		return m, refuse(404, "class.err.noclass")
	case err != nil:
		return m, h.natsErr(err)
	case time.Now().Unix() >= m.Expires:
		return m, refuse(410, "class.err.expired")
	}
	return m, nil
}

// instructor checks the secret of class id.
func (h *Hub) instructor(ctx context.Context, id, secret string) *Error {
	m, e := h.classMeta(ctx, id)
	if e != nil {
		return e
	}
	if !sameToken(secret, m.Secret) {
		return refuse(403, "class.err.secret")
	}
	return nil
}

// Join admits a student by join code.
func (h *Hub) Join(in JoinIn) (Joined, error) {
	if e := in.check(); e != nil {
		return Joined{}, e
	}
	ctx, cancel := h.ctx()
	defer cancel()
	e, err := h.kv.Get(ctx, codeKey(in.Code))
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		return Joined{}, refuse(404, "class.err.nocode")
	} else if err != nil {
		return Joined{}, h.natsErr(err)
	}
	id := string(e.Value())
	m, rerr := h.classMeta(ctx, id)
	if rerr != nil {
		if rerr.Status == 404 {
			rerr = refuse(404, "class.err.nocode")
		}
		return Joined{}, rerr
	}
	// The count is taken with compare-and-set, so two servers admitting
	// at once cannot both take the last seat.
	for {
		var n int
		rev, err := h.getJSON(ctx, countKey(id), &n)
		if err != nil && !errors.Is(err, jetstream.ErrKeyNotFound) {
			return Joined{}, h.natsErr(err)
		}
		if n >= h.cfg.MaxStudents {
			return Joined{}, refuse(409, "class.err.full", h.cfg.MaxStudents)
		}
		b := []byte(strconv.Itoa(n + 1))
		if rev == 0 {
			_, err = h.kv.Create(ctx, countKey(id), b)
		} else {
			_, err = h.kv.Update(ctx, countKey(id), b, rev)
		}
		if err == nil {
			break
		}
		// Another server took a seat meanwhile: read the count again.
		// Anything else is NATS failing.
		if ctx.Err() != nil || !errors.Is(err, jetstream.ErrKeyExists) && !errors.Is(err, jetstream.ErrKeyRevisionMismatch) {
			return Joined{}, h.natsErr(err)
		}
	}
	j := Joined{ID: id, Student: newID(), Expires: m.Expires}
	if err := h.putJSON(ctx, studentKey(id, j.Student), student{Name: in.Name}); err != nil {
		return Joined{}, h.natsErr(err)
	}
	return j, nil
}

// student is a student's record: the display name, if any.
type student struct {
	Name string `json:"name,omitempty"`
}

// SetState makes in the state every student follows.
func (h *Hub) SetState(id, secret string, in StateIn) (State, error) {
	if e := in.check(); e != nil {
		return State{}, e
	}
	ctx, cancel := h.ctx()
	defer cancel()
	if e := h.instructor(ctx, id, secret); e != nil {
		return State{}, e
	}
	s := State{Script: in.Script, Settings: in.Settings, Seed: in.Seed, Step: in.Step, Lesson: in.Lesson, Block: in.Block, At: time.Now().UnixMicro()}
	b, _ := json.Marshal(s)
	rev, err := h.kv.Put(ctx, stateKey(id), b)
	if err != nil {
		return State{}, h.natsErr(err)
	}
	s.Rev = rev
	return s, nil
}

// Ask opens, reopens for a second round, or closes the class's question.
func (h *Hub) Ask(id, secret string, in QuestionIn) (Question, error) {
	if e := in.check(); e != nil {
		return Question{}, e
	}
	ctx, cancel := h.ctx()
	defer cancel()
	if e := h.instructor(ctx, id, secret); e != nil {
		return Question{}, e
	}
	var q Question
	_, err := h.getJSON(ctx, qKey(id), &q)
	if err != nil && !errors.Is(err, jetstream.ErrKeyNotFound) {
		return Question{}, h.natsErr(err)
	}
	switch in.Action {
	case "open":
		q = Question{Round: q.Round + 1, ID: in.ID, Text: in.Text, Choices: in.Choices, Open: true}
	case "again":
		if q.Round == 0 {
			return Question{}, refuse(409, "class.err.noquestion")
		}
		first := q.Round
		if q.Of != 0 {
			first = q.Of
		}
		q = Question{Round: q.Round + 1, Of: first, ID: q.ID, Text: q.Text, Choices: q.Choices, Open: true}
	case "close":
		if !q.Open {
			return Question{}, refuse(409, "class.err.closed")
		}
		q.Open = false
	}
	if err := h.putJSON(ctx, qKey(id), q); err != nil {
		return Question{}, h.natsErr(err)
	}
	if in.Action != "close" {
		// Each round's question, for the results.
		if err := h.putJSON(ctx, roundKey(id, q.Round), q); err != nil {
			return Question{}, h.natsErr(err)
		}
	}
	return q, nil
}

// Predict records a student's vote. A nil error means the vote is in
// NATS (acknowledged by JetStream): it survives this server and a NATS
// restart with file storage.
func (h *Hub) Predict(id, sid string, in PredictIn) error {
	if e := in.check(); e != nil {
		return e
	}
	ctx, cancel := h.ctx()
	defer cancel()
	if _, e := h.classMeta(ctx, id); e != nil {
		return e
	}
	if !idOK(sid) {
		return refuse(403, "class.err.student")
	}
	if _, err := h.kv.Get(ctx, studentKey(id, sid)); errors.Is(err, jetstream.ErrKeyNotFound) {
		return refuse(403, "class.err.student")
	} else if err != nil {
		return h.natsErr(err)
	}
	var q Question
	if _, err := h.getJSON(ctx, qKey(id), &q); err != nil && !errors.Is(err, jetstream.ErrKeyNotFound) {
		return h.natsErr(err)
	}
	switch {
	case !q.Open || q.Round != in.Round:
		return refuse(409, "class.err.closed")
	case in.Choice >= len(q.Choices):
		return refuse(400, "class.err.choice")
	}
	if err := h.putJSON(ctx, predictKey(id, in.Round, sid), Prediction(in)); err != nil {
		return h.natsErr(err)
	}
	return nil
}

// End closes a class now: every key of it is purged, its code freed.
func (h *Hub) End(id, secret string) error {
	ctx, cancel := h.ctx()
	defer cancel()
	m, e := h.classMeta(ctx, id)
	if e != nil {
		return e
	}
	if !sameToken(secret, m.Secret) {
		return refuse(403, "class.err.secret")
	}
	keys, err := h.classKeys(ctx, id)
	if err != nil {
		return h.natsErr(err)
	}
	for _, k := range keys {
		if k != metaKey(id) {
			h.kv.Purge(ctx, k)
		}
	}
	h.kv.Purge(ctx, codeKey(m.Code))
	// The record last: its purge is what followers read as "ended".
	if err := h.kv.Purge(ctx, metaKey(id)); err != nil {
		return h.natsErr(err)
	}
	h.mu.Lock()
	delete(h.classes, id)
	h.mu.Unlock()
	return nil
}

func (h *Hub) classKeys(ctx context.Context, id string) ([]string, error) {
	l, err := h.kv.ListKeysFiltered(ctx, "c."+id+".>")
	if err != nil {
		return nil, err
	}
	var keys []string
	for k := range l.Keys() {
		keys = append(keys, k)
	}
	return keys, nil
}

// Row is one vote of a class's results.
type Row struct {
	Round    int
	Of       int // the round this one is a second vote of, or 0
	Question string
	Student  int // a number per student, the same across rounds; no names
	Choice   int
	Answer   string
	Sure     int
}

// Results reads every vote of a class, for the instructor's CSV.
func (h *Hub) Results(id, secret string) ([]Row, error) {
	ctx, cancel := h.ctx()
	defer cancel()
	if e := h.instructor(ctx, id, secret); e != nil {
		return nil, e
	}
	keys, err := h.classKeys(ctx, id)
	if err != nil {
		return nil, h.natsErr(err)
	}
	var rows []Row
	number := map[string]int{}
	rounds := map[int]*Question{}
	prefix := "c." + id + ".p."
	for _, k := range keys {
		rest, ok := strings.CutPrefix(k, prefix)
		if !ok {
			continue
		}
		_, sid, _ := strings.Cut(rest, ".")
		var p Prediction
		if _, err := h.getJSON(ctx, k, &p); err != nil {
			continue // purged meanwhile
		}
		if number[sid] == 0 {
			number[sid] = len(number) + 1
		}
		q, ok := rounds[p.Round]
		if !ok {
			q = &Question{}
			if _, err := h.getJSON(ctx, roundKey(id, p.Round), q); err != nil {
				q = nil
			}
			rounds[p.Round] = q
		}
		r := Row{Round: p.Round, Student: number[sid], Choice: p.Choice, Sure: p.Sure}
		if q != nil {
			r.Of, r.Question = q.Of, q.Text
			if p.Choice < len(q.Choices) {
				r.Answer = q.Choices[p.Choice]
			}
		}
		rows = append(rows, r)
	}
	slices.SortFunc(rows, func(a, b Row) int {
		if a.Round != b.Round {
			return a.Round - b.Round
		}
		return a.Student - b.Student
	})
	return rows, nil
}

// embeddedStore is the embedded NATS's directory: store, made if need
// be, or a new temporary one.
func embeddedStore(store string) (string, error) {
	if store == "" {
		return os.MkdirTemp("", "txnlab-nats-")
	}
	if err := os.MkdirAll(store, 0o700); err != nil {
		return "", fmt.Errorf("the NATS store: %w", err)
	}
	return store, nil
}
