package cluster

// What a script may do that no Java client does: send a request written
// by hand (the request statement), and start a transactional id at a
// chosen producer id and epoch (the txn statement), so a lesson can show
// epoch exhaustion without 32,766 inits.

import (
	"fmt"
	"strconv"

	"txnlab/core/broker"
	"txnlab/core/protocol"
	"txnlab/core/sim"
)

// SendRaw sends msg from a client's node to a broker, as if that client's
// connection carried it. The client's code never sent it, so it ignores
// the answer (it matches responses to the requests it made); the answer
// is in the trace like any other.
func (c *Cluster) SendRaw(from, to sim.NodeID, msg protocol.Message) (int64, error) {
	if c.Producers[c.World.Name(from)] == nil && c.Consumers[c.World.Name(from)] == nil {
		return 0, fmt.Errorf("unknown client %s", c.World.Name(from))
	}
	if c.World.StatusOf(from) != sim.Up {
		return 0, fmt.Errorf("%s is %s", c.World.Name(from), c.World.StatusOf(from))
	}
	if _, ok := broker.IDOf(to); !ok {
		return 0, fmt.Errorf("%s is not a broker: requests go to brokers", c.World.Name(to))
	}
	c.World.Note(from, "", sim.NoteRawRequest, msg.APIKey().String())
	return c.World.Send(from, to, msg, 0), nil
}

// AnswerWatch returns a test that turns true once the request id sent has
// been answered (its response delivered) or lost (the request or its
// response dropped). It reads only the events recorded since its last
// call, so waiting on it costs O(1) per event.
func (c *Cluster) AnswerWatch(id int64) func() bool {
	next, done := c.World.Trace.Len(), false
	return func() bool {
		t := &c.World.Trace
		for ; !done && next < t.Len(); next++ {
			e := t.At(next)
			switch {
			case e.Kind == sim.KindDeliver && e.ReplyTo == id:
				done = true
			case e.Kind == sim.KindDrop && (e.MsgID == id || e.ReplyTo == id):
				done = true
			}
		}
		return done
	}
}

// FirstLiveBroker is the lowest-numbered broker the controller holds
// alive, where a request any broker answers goes.
func (c *Cluster) FirstLiveBroker() (sim.NodeID, bool) {
	for i, ok := range c.Meta.Alive {
		if ok && c.Brokers[i] != nil {
			return broker.NodeID(int32(i)), true
		}
	}
	return sim.NoNode, false
}

// MaxSeedProducerId bounds the producer id a script may choose: the ids
// below it are set aside block by block (broker.ProducerIdBlockSize), so
// a script cannot make the cluster walk far.
const MaxSeedProducerId = 999_999_999

// SeedTransactionalId gives a transactional id the coordinator's metadata
// of an Empty transaction at producer id pid (a fresh one when pid < 0)
// and epoch, written to __transaction_state as InitProducerId writes it,
// as if that many inits had happened. The producer id's block is taken
// away from the brokers' allocation, so no producer is ever given it. The
// returned test turns true once the record is replicated; err reports
// why the metadata could not be written, once it is known.
func (c *Cluster) SeedTransactionalId(id string, pid int64, epoch int16) (done func() bool, err func() error, _ error) {
	leader, p := c.CoordinatorOf(id)
	b := c.Broker(leader)
	if b == nil || c.World.StatusOf(b.Node) != sim.Up {
		return nil, nil, fmt.Errorf("no live broker leads __transaction_state/%d (the partition of %q) now", p, id)
	}
	if _, _, known := b.Txn.Lookup(id); known {
		return nil, nil, fmt.Errorf("transactional id %q already has metadata: write txn before any producer uses it", id)
	}
	if pid < 0 {
		pid = b.AllocateProducerId()
	} else {
		if pid > MaxSeedProducerId {
			return nil, nil, fmt.Errorf("pid must be at most %d", MaxSeedProducerId)
		}
		start := c.Meta.AllocateProducerIdBlock()
		if start > pid {
			return nil, nil, fmt.Errorf("producer id %d may already be in use: choose one at or above %d", pid, start+broker.ProducerIdBlockSize)
		}
		for start+broker.ProducerIdBlockSize <= pid {
			start = c.Meta.AllocateProducerIdBlock()
		}
	}
	finished := false
	var failure error
	c.World.Note(b.Node, "txn "+id, sim.NoteTxnSeeded, strconv.FormatInt(pid, 10), strconv.Itoa(int(epoch)))
	b.Txn.Seed(c.World, id, pid, epoch, func(w *sim.World, code protocol.ErrorCode) {
		finished = true
		if code != protocol.NONE {
			failure = fmt.Errorf("the coordinator could not write the metadata of %q: %s", id, code)
		}
	})
	return func() bool { return finished }, func() error { return failure }, nil
}
