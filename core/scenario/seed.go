package scenario

// The txn statement: a transactional id that starts at a chosen producer
// id and epoch, as if that many InitProducerId calls had happened, so a
// lesson can show what Kafka does when the epoch runs out (32767) without
// the 32,766 inits it takes a real producer. Its type, parsing, canonical
// text and application live here.

import (
	"math"
	"strconv"

	"txnlab/core/cluster"
	"txnlab/core/sim"
)

// TxnSeedStmt gives a transactional id the coordinator's metadata of an
// Empty transaction at Epoch and ProducerID (a fresh producer id when not
// written), persisted in __transaction_state.
type TxnSeedStmt struct {
	Base
	TransactionalID string
	ProducerID      int64 // pid=N, -1 when not written
	Epoch           int16 // epoch=N, required
}

// String renders the statement canonically.
func (s *TxnSeedStmt) String() string {
	b := words("txn", quote(s.TransactionalID))
	if s.ProducerID >= 0 {
		b.opt("pid", strconv.FormatInt(s.ProducerID, 10))
	}
	b.opt("epoch", strconv.Itoa(int(s.Epoch)))
	return b.String()
}

func (lp *lineParser) txnSeed() Stmt {
	t := lp.next("txn needs a transactional id, e.g. txn order-txn-1 epoch=32765")
	st := &TxnSeedStmt{TransactionalID: lp.nonEmpty("the transactional id", t.raw, t.col), ProducerID: -1}
	opts := lp.options("txn", []string{"pid", "epoch"})
	o, ok := opts.get("epoch")
	if !ok {
		lp.failf(lp.endCol(), "txn needs epoch=N (0 to 32767): the epoch the transactional id starts at")
	}
	st.Epoch = int16(lp.integer(o.key, o.raw, o.col, 0, math.MaxInt16))
	if o, ok := opts.get("pid"); ok {
		st.ProducerID = lp.integer(o.key, o.raw, o.col, 0, cluster.MaxSeedProducerId)
	}
	return st
}

func (s *Session) txnSeed(st *TxnSeedStmt) *Error {
	done, failed, err := s.Cluster.SeedTransactionalId(st.TransactionalID, st.ProducerID, st.Epoch)
	if err != nil {
		return s.errorf(st, "%v", err)
	}
	s.waitFor(st, func() bool {
		if !done() {
			return false
		}
		if e := failed(); e != nil && s.Err == nil {
			s.Err = s.errorf(st, "%v", e) // the run stops here
		}
		return true
	}, 30*sim.Second, "txn "+st.TransactionalID+": the coordinator did not write the metadata within 30s")
	return nil
}
