//go:build !wasm

package kafkalistener

import (
	"context"
	"encoding/binary"
	"io"
	"net"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kmsg"

	"txnlab/core/scenario"
)

// session is a listener on free loopback ports over a setup script,
// running until the test ends; stop returns its recording and the live
// trace's digest.
type session struct {
	t      testing.TB
	l      *Listener
	cancel context.CancelFunc
	done   chan error
}

func startSession(t testing.TB, src string) *session {
	t.Helper()
	return startSessionWith(t, src, func(*Config) {})
}

// startSessionWith is startSession with a configuration of its own.
func startSessionWith(t testing.TB, src string, set func(*Config)) *session {
	t.Helper()
	var log strings.Builder
	cfg := Config{Host: "127.0.0.1", Log: &log}
	if testing.Verbose() {
		cfg.Log = os.Stderr
	}
	set(&cfg)
	l, err := FromScript(cfg, "setup", src)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	s := &session{t: t, l: l, cancel: cancel, done: make(chan error, 1)}
	go func() { s.done <- l.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		<-s.done
		if t.Failed() {
			t.Logf("listener log:\n%s", log.String())
		}
	})
	return s
}

// stop ends the session and checks that its recording replays to the
// live trace's digest: what saving a session promises.
func (s *session) stop() string {
	s.t.Helper()
	s.cancel()
	if err := <-s.done; err != nil {
		s.t.Fatal(err)
	}
	s.done <- nil
	rec := s.l.Recording()
	live := s.l.c.World.Trace.Digest()
	script, err := scenario.Parse("recording", rec)
	if err != nil {
		s.t.Fatalf("the recording does not parse: %v\n%s", err, rec)
	}
	replay := scenario.NewSession("recording", script)
	replay.Run()
	if replay.Err != nil {
		s.t.Fatalf("the recording does not run: %v\n%s", replay.Err, rec)
	}
	if got := replay.Cluster.World.Trace.Digest(); got != live {
		s.t.Fatalf("replay digest %s, live %s; recording:\n%s", got, live, rec)
	}
	return rec
}

// kclient is a client written with kmsg alone: one connection per
// broker, one request at a time.
type kclient struct {
	t     testing.TB
	id    string
	addrs []string
	conns map[int32]net.Conn
	corr  int32
}

func newClient(t testing.TB, s *session, id string) *kclient {
	c := &kclient{t: t, id: id, addrs: s.l.Addrs(), conns: map[int32]net.Conn{}}
	t.Cleanup(func() {
		for _, nc := range c.conns {
			nc.Close()
		}
	})
	return c
}

// request sends req to a broker and reads its response.
func (c *kclient) request(broker int32, req kmsg.Request) kmsg.Response {
	c.t.Helper()
	nc := c.conns[broker]
	if nc == nil {
		var err error
		if nc, err = net.Dial("tcp", c.addrs[broker]); err != nil {
			c.t.Fatal(err)
		}
		c.conns[broker] = nc
	}
	c.corr++
	f := kmsg.NewRequestFormatter(kmsg.FormatterClientID(c.id))
	if _, err := nc.Write(f.AppendRequest(nil, req, c.corr)); err != nil {
		c.t.Fatal(err)
	}
	nc.SetReadDeadline(time.Now().Add(60 * time.Second))
	var size [4]byte
	if _, err := io.ReadFull(nc, size[:]); err != nil {
		c.t.Fatalf("%s: %v", apiName(req.Key()), err)
	}
	buf := make([]byte, binary.BigEndian.Uint32(size[:]))
	if _, err := io.ReadFull(nc, buf); err != nil {
		c.t.Fatal(err)
	}
	if got := int32(binary.BigEndian.Uint32(buf)); got != c.corr {
		c.t.Fatalf("correlation id %d, sent %d", got, c.corr)
	}
	buf = buf[4:]
	resp := req.ResponseKind()
	if resp.IsFlexible() && req.Key() != 18 {
		buf = buf[1:]
	}
	if err := resp.ReadFrom(buf); err != nil {
		c.t.Fatalf("%s response: %v", apiName(req.Key()), err)
	}
	return resp
}
