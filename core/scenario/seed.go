package scenario

// The txn statement: a transactional id that starts at a chosen producer
// id and epoch, as if that many InitProducerId calls had happened, so a
// lesson can show what Kafka does when the epoch runs out (32767) without
// the 32,766 inits it takes a real producer. Its type, parsing, canonical
// text and application live here.

import (
	"math"

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

var txnSeedOptions = func() optTable[TxnSeedStmt] {
	pid := intOpt("pid", -1, 0, cluster.MaxSeedProducerId, func(st *TxnSeedStmt) *int64 { return &st.ProducerID })
	pid.present = func(st *TxnSeedStmt) bool { return st.ProducerID >= 0 }
	epoch := intOpt("epoch", 0, 0, math.MaxInt16, func(st *TxnSeedStmt) *int16 { return &st.Epoch })
	epoch.present = func(*TxnSeedStmt) bool { return true }
	return optTable[TxnSeedStmt]{pid, epoch}
}()

// String renders the statement canonically.
func (s *TxnSeedStmt) String() string {
	b := words("txn", quote(s.TransactionalID))
	txnSeedOptions.render(b, s, nil)
	return b.String()
}

func parseTxnSeed(lp *lineParser, kw token) Stmt {
	t := lp.next("txn needs a transactional id, e.g. txn order-txn-1 epoch=32765")
	st := &TxnSeedStmt{TransactionalID: lp.nonEmpty("the transactional id", t.raw, t.col)}
	txnSeedOptions.defaults(st)
	opts := txnSeedOptions.scan(lp, "txn")
	if !opts.has("epoch") {
		lp.failf(lp.endCol(), "txn needs epoch=N (0 to 32767): the epoch the transactional id starts at")
	}
	txnSeedOptions.read(lp, st, opts, "epoch", "pid")
	return st
}

func (st *TxnSeedStmt) apply(s *Session) *Error {
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
	}, 30*sim.Second, sim.NewNote(sim.NoteSeedNoMetadata, st.TransactionalID))
	return nil
}
