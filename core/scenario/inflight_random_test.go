package scenario_test

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"txnlab/core/protocol"
	"txnlab/core/scenario"
)

// TestOverlappingSendsKeepInvariants runs random scripts of overlapping
// sends (several batches of a partition in flight) under delays, drops
// and broker crashes, idempotent and transactional, and checks that the
// invariants hold (no duplicate, no reordering of a producer's records
// beyond what the checker allows, nothing lost that was acknowledged)
// and that some of them really reordered (OUT_OF_ORDER_SEQUENCE_NUMBER).
func TestOverlappingSendsKeepInvariants(t *testing.T) {
	bad, ooo := 0, 0
	for seed := 1; seed <= 500; seed++ {
		r := rand.New(rand.NewSource(int64(seed)))
		var b strings.Builder
		fmt.Fprintf(&b, "cluster brokers=3 seed=%d\ntopic orders partitions=2\n", seed)
		txn := r.Intn(2) == 0
		mif := 1 + r.Intn(5)
		if txn {
			fmt.Fprintf(&b, "producer p transactional.id=t max.in.flight.requests.per.connection=%d request.timeout.ms=2s delivery.timeout.ms=%ds\np init\np begin\n", mif, 3+r.Intn(20))
		} else {
			fmt.Fprintf(&b, "producer p max.in.flight.requests.per.connection=%d request.timeout.ms=2s delivery.timeout.ms=%ds\n", mif, 3+r.Intn(20))
		}
		b.WriteString("consumer c isolation.level=read_committed\nc assign orders/0 orders/1\n")
		v := 0
		crashed := map[int]bool{}
		restartAll := func() {
			for i := 0; i < 3; i++ {
				if crashed[i] {
					fmt.Fprintf(&b, "restart broker-%d\n", i)
				}
			}
			crashed = map[int]bool{}
		}
		for i := 0; i < 3+r.Intn(10); i++ {
			switch r.Intn(10) {
			case 0:
				fmt.Fprintf(&b, "delay Produce by=%dms\n", r.Intn(3000))
			case 1:
				fmt.Fprintf(&b, "drop Produce%s count=1\n", []string{"", ".response"}[r.Intn(2)])
			case 2:
				b.WriteString("heal\n")
			case 8:
				if i := r.Intn(3); !crashed[i] && len(crashed) < 1 {
					crashed[i] = true
					fmt.Fprintf(&b, "crash broker-%d\n", i)
				}
			case 9:
				restartAll()
			case 3:
				fmt.Fprintf(&b, "run for=%dms\n", r.Intn(500))
			default:
				v++
				fmt.Fprintf(&b, "p send orders/%d k=v%d &\n", r.Intn(2), v)
			}
		}
		if v == 0 {
			continue
		}
		b.WriteString("heal\n")
		restartAll()
		b.WriteString("wait p\n")
		if txn {
			b.WriteString("p commit\n")
		}
		b.WriteString("run\nc poll\nexpect invariants\n")
		src := b.String()
		s, err := scenario.Parse("x", src)
		if err != nil {
			t.Fatalf("%v\n%s", err, src)
		}
		sess := scenario.NewSession("x", s)
		func() {
			defer func() {
				if e := recover(); e != nil {
					t.Errorf("panic %v\n%s", e, src)
					bad++
				}
			}()
			sess.Run()
		}()
		for _, e := range sess.Cluster.World.Trace.Events(0) {
			if e.Error == protocol.OUT_OF_ORDER_SEQUENCE_NUMBER {
				ooo++
				break
			}
		}
		if sess.Err == nil && sess.Failed() > 0 && onlyKafkasAnomalies(sess) {
			// Kafka's own (safety.Anomalies): the Java idempotent
			// producer re-sequences a batch whose answer was lost after
			// another batch's gap (seed 216), not txnlab's bug.
			continue
		}
		if sess.Err != nil || sess.Failed() > 0 {
			bad++
			if bad < 4 {
				msg := ""
				for _, r := range sess.Results {
					if !r.OK {
						msg += fmt.Sprintf("%+v\n", r)
					}
				}
				t.Errorf("seed %d: err=%v\n%s\n%s", seed, sess.Err, msg, src)
			}
		}
	}
	if ooo == 0 {
		t.Errorf("no script reordered a producer's batches: the test exercises nothing")
	}
}

// onlyKafkasAnomalies reports whether every violation the checker finds
// in the session is a named anomaly of Kafka itself.
func onlyKafkasAnomalies(sess *scenario.Session) bool {
	vs := sess.Cluster.Check(false)
	for _, v := range vs {
		if v.Anomaly == "" {
			return false
		}
	}
	return len(vs) > 0
}
