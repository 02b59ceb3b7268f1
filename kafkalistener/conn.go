//go:build !wasm

package kafkalistener

// One client's TCP connection: a goroutine frames and decodes its
// requests and hands them to the driver; another writes the responses
// the driver queues. Neither touches the simulation.

import (
	"encoding/binary"
	"fmt"
	"io"
	"net"
	"sync"

	"github.com/twmb/franz-go/pkg/kmsg"
)

// request is one decoded request, or the reason its connection must
// close.
type request struct {
	c        *conn
	key      int16
	version  int16
	corr     int32
	clientID string
	req      kmsg.Request // nil when closeWhy is set
	closeWhy string
	// batches are a Produce's decoded partitions (produce.go).
	batches *decodedProduce
	// released: the breakpoint held it and the learner let it go.
	released bool
	// refused is the error a request of a known API refused at the wire
	// is noted with on its client's lifeline (refuse), with closeWhy.
	refused string
}

// conn is one accepted TCP connection to one broker's port.
type conn struct {
	id     int // the listener's number for it
	broker int
	nc     net.Conn
	out    chan []byte
	once   sync.Once
	closed chan struct{}

	// Owned by the driver:
	client  string // the simulated node, once its first request entered the simulation
	simConn int    // its number among its client's connections (conn=)
	queue   []*request
	busy    bool // a request of it is in the simulation or parked
	// software is what ApiVersions v3+ named: the client library and
	// its version.
	software string
}

func (c *conn) close() {
	c.once.Do(func() {
		close(c.closed)
		c.nc.Close()
	})
}

// send queues a response frame; a client that does not read loses its
// connection rather than stalling the driver.
func (c *conn) send(frame []byte) {
	select {
	case c.out <- frame:
	case <-c.closed:
	default:
		c.close()
	}
}

func (c *conn) writeLoop() {
	for {
		select {
		case f := <-c.out:
			if _, err := c.nc.Write(f); err != nil {
				c.close()
				return
			}
		case <-c.closed:
			return
		}
	}
}

// readLoop frames requests and decodes them, then hands them over.
func (c *conn) readLoop(maxBytes int, v versions, in chan<- *request) {
	defer func() {
		select {
		case in <- &request{c: c, closeWhy: "closed by the client"}:
		case <-c.closed:
		}
	}()
	var size [4]byte
	for {
		if _, err := io.ReadFull(c.nc, size[:]); err != nil {
			return
		}
		n := int32(binary.BigEndian.Uint32(size[:]))
		if n < 8 || int(n) > maxBytes {
			select {
			case in <- &request{c: c, closeWhy: fmt.Sprintf("a request of %d bytes (the listener takes 8 to %d)", n, maxBytes)}:
			case <-c.closed:
			}
			return
		}
		buf := make([]byte, n)
		if _, err := io.ReadFull(c.nc, buf); err != nil {
			return
		}
		r := parseRequest(buf, v)
		r.c = c
		select {
		case in <- r:
		case <-c.closed:
			return
		}
		if r.closeWhy != "" {
			return
		}
	}
}

// parseRequest reads a request's header (key, version, correlation id,
// client id and, for flexible versions, tags) and its body.
func parseRequest(b []byte, v versions) *request {
	r := &request{key: int16(binary.BigEndian.Uint16(b)), version: int16(binary.BigEndian.Uint16(b[2:])),
		corr: int32(binary.BigEndian.Uint32(b[4:]))}
	b = b[8:]
	if len(b) < 2 {
		r.closeWhy = "a request header without its client id"
		return r
	}
	l := int16(binary.BigEndian.Uint16(b))
	b = b[2:]
	if l > 0 {
		if int(l) > len(b) {
			r.closeWhy = "a client id past the end of the request"
			return r
		}
		r.clientID = string(b[:l])
		b = b[l:]
	}
	req := requestForKey(r.key)
	if req == nil {
		r.closeWhy = fmt.Sprintf("API key %d, which the listener does not serve", r.key)
		return r
	}
	lo, hi, ok := v.rangeOf(r.key)
	if !ok || r.version < lo || r.version > hi {
		if r.key == 18 { // ApiVersions: answered with the versions served
			req.SetVersion(r.version)
			r.req = req
			return r
		}
		r.closeWhy = fmt.Sprintf("%s v%d, outside the versions served (%d to %d)", apiName(r.key), r.version, lo, hi)
		r.refused = "UNSUPPORTED_VERSION"
		return r
	}
	req.SetVersion(r.version)
	if req.IsFlexible() {
		// The header's tag section: a count, then (tag, size, bytes).
		var rest []byte
		var ok bool
		if rest, ok = skipTags(b); !ok {
			r.closeWhy = "malformed header tags"
			return r
		}
		b = rest
	}
	if err := req.ReadFrom(b); err != nil {
		r.closeWhy = fmt.Sprintf("a malformed %s v%d: %v", apiName(r.key), r.version, err)
		return r
	}
	r.req = req
	if p, ok := req.(*kmsg.ProduceRequest); ok {
		r.batches = decodeProduce(p)
	}
	return r
}

func skipTags(b []byte) ([]byte, bool) {
	n, k := binary.Uvarint(b)
	if k <= 0 || n > 64 {
		return nil, false
	}
	b = b[k:]
	for ; n > 0; n-- {
		if _, k = binary.Uvarint(b); k <= 0 {
			return nil, false
		}
		b = b[k:]
		size, k := binary.Uvarint(b)
		if k <= 0 || size > uint64(len(b)-k) {
			return nil, false
		}
		b = b[k+int(size):]
	}
	return b, true
}

// frame encodes a response: size, correlation id, the response header's
// tags when flexible (never for ApiVersions), the body.
func frame(corr int32, resp kmsg.Response) []byte {
	out := make([]byte, 8, 64)
	binary.BigEndian.PutUint32(out[4:], uint32(corr))
	if resp.IsFlexible() && resp.Key() != 18 {
		out = append(out, 0)
	}
	out = resp.AppendTo(out)
	binary.BigEndian.PutUint32(out, uint32(len(out)-4))
	return out
}
