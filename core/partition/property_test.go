package partition_test

import (
	"fmt"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"txnlab/core/partition"
	"txnlab/core/protocol"
	"txnlab/core/sim"
)

// The property tests below drive a log with random appends, markers and
// high-watermark moves drawn from a seeded sim.Rand, and after every step
// compare what the log computes incrementally (LSO, the aborted index,
// Read, AbortedTransactions) with a naive recomputation from its batch
// list alone. A failure prints the seed and the step, so it replays.

// naiveTxn is a transaction found by scanning the batches.
type naiveTxn struct {
	pid         int64
	first, last int64 // last: the marker's offset, -1 while open
	aborted     bool
	lso         int64 // the LSO right after its marker (for the index)
}

// scan recomputes every transaction from the batch list: a pid's first
// transactional data batch opens one, its next control batch closes it.
func scan(batches []protocol.RecordBatch) (done []naiveTxn, open []naiveTxn) {
	openAt := map[int64]int64{}
	for _, b := range batches {
		if b.ProducerId < 0 {
			continue
		}
		first, isOpen := openAt[b.ProducerId]
		switch {
		case b.IsControl && isOpen:
			delete(openAt, b.ProducerId)
			t := naiveTxn{pid: b.ProducerId, first: first, last: b.BaseOffset, aborted: b.ControlType == protocol.ControlAbort}
			t.lso = b.BaseOffset + 1
			for pid, f := range openAt {
				if pid != b.ProducerId && f < t.lso {
					t.lso = f
				}
			}
			done = append(done, t)
		case !b.IsControl && b.IsTransactional && !isOpen:
			openAt[b.ProducerId] = b.BaseOffset
		}
	}
	for _, b := range batches { // in log order, for a stable result
		if f, ok := openAt[b.ProducerId]; ok && f == b.BaseOffset {
			open = append(open, naiveTxn{pid: b.ProducerId, first: f, last: -1})
		}
	}
	return done, open
}

func naiveLSO(batches []protocol.RecordBatch, hw int64) int64 {
	done, open := scan(batches)
	lso := hw
	for _, t := range open {
		if t.first < lso {
			lso = t.first
		}
	}
	for _, t := range done {
		if t.last >= hw && t.first < lso { // decided, marker not yet below the HW
			lso = t.first
		}
	}
	return lso
}

func naiveAbortedIndex(batches []protocol.RecordBatch) []partition.AbortedTxn {
	done, _ := scan(batches)
	var out []partition.AbortedTxn
	for _, t := range done {
		if t.aborted {
			out = append(out, partition.AbortedTxn{ProducerId: t.pid, FirstOffset: t.first, LastOffset: t.last, LastStableOffset: t.lso})
		}
	}
	return out
}

func naiveAborted(batches []protocol.RecordBatch, from, upper int64) []protocol.AbortedTransaction {
	var out []protocol.AbortedTransaction
	for _, a := range naiveAbortedIndex(batches) {
		if a.LastOffset >= from && a.FirstOffset < upper {
			out = append(out, protocol.AbortedTransaction{ProducerId: a.ProducerId, FirstOffset: a.FirstOffset})
		}
	}
	return out
}

func naiveRead(batches []protocol.RecordBatch, from, limit int64) []protocol.RecordBatch {
	var out []protocol.RecordBatch
	for _, b := range batches {
		if b.LastOffset() >= from && b.LastOffset() < limit {
			out = append(out, b)
		}
	}
	return out
}

// naiveSequencesOK checks idempotence over the accepted batches: per
// producer id, within an epoch sequences are gap-free; a new epoch starts
// at 0; only the very first batch of an id may start anywhere.
func naiveSequencesOK(batches []protocol.RecordBatch) error {
	type st struct {
		epoch int16
		last  int32
	}
	seen := map[int64]*st{}
	for _, b := range batches {
		if b.ProducerId < 0 {
			continue
		}
		s := seen[b.ProducerId]
		if b.IsControl {
			if s != nil && b.ProducerEpoch > s.epoch {
				s.epoch, s.last = b.ProducerEpoch, -1
			} else if s == nil {
				seen[b.ProducerId] = &st{epoch: b.ProducerEpoch, last: -1}
			}
			continue
		}
		if b.BaseSequence < 0 {
			continue
		}
		switch {
		case s == nil || s.epoch < 0:
			// unknown producer: any sequence
		case b.ProducerEpoch > s.epoch && b.BaseSequence != 0:
			return fmt.Errorf("offset %d: pid %d new epoch %d starts at seq %d", b.BaseOffset, b.ProducerId, b.ProducerEpoch, b.BaseSequence)
		case b.ProducerEpoch == s.epoch && b.BaseSequence != s.last+1:
			return fmt.Errorf("offset %d: pid %d epoch %d seq %d after %d", b.BaseOffset, b.ProducerId, b.ProducerEpoch, b.BaseSequence, s.last)
		case b.ProducerEpoch < s.epoch:
			return fmt.Errorf("offset %d: pid %d older epoch %d accepted after %d", b.BaseOffset, b.ProducerId, b.ProducerEpoch, s.epoch)
		}
		seen[b.ProducerId] = &st{epoch: b.ProducerEpoch, last: b.LastSequence()}
	}
	return nil
}

// gen drives one random history.
type gen struct {
	r      *sim.Rand
	l      *partition.Log
	checks bool // random checks switched off sometimes
	steps  []string
	sent   map[int64][]protocol.RecordBatch // accepted batches per pid, to retry
	ce     map[int64]int32
}

func (g *gen) pick(n int) int { return g.r.Intn(n) }

func (g *gen) producer() int64 { return int64(1 + g.pick(3)) }

func (g *gen) randomChecks() partition.Checks {
	if !g.checks || g.pick(10) != 0 {
		return partition.AllChecks
	}
	return partition.Checks{EpochFencing: g.pick(2) == 0, CoordinatorEpoch: g.pick(2) == 0, SequenceCheck: g.pick(2) == 0}
}

func (g *gen) step(now int64) {
	switch k := g.pick(100); {
	case k < 8: // a writer without a producer id
		n := 1 + g.pick(3)
		res := g.l.AppendAsLeader(plain(n), 0, now, g.randomChecks())
		g.steps = append(g.steps, fmt.Sprintf("plain n=%d -> %v@%d", n, res.Err, res.BaseOffset))
	case k < 55: // a producer's data batch
		pid := g.producer()
		e := g.l.Producers[pid]
		epoch, next, inTxn := int16(0), int32(0), false
		if e != nil {
			if e.ProducerEpoch >= 0 {
				epoch = e.ProducerEpoch
			}
			if n := len(e.Batches); n > 0 {
				next = e.Batches[n-1].LastSeq + 1
			}
			inTxn = e.CurrentTxnFirstOffset >= 0
		}
		txn := inTxn || g.pick(2) == 0
		if g.pick(15) == 0 {
			txn = !txn
		}
		n := 1 + g.pick(3)
		switch x := g.pick(100); {
		case x < 6:
			epoch, next = epoch+1, 0
		case x < 12 && epoch > 0:
			epoch--
		}
		b := batch(pid, epoch, next, n, txn)
		switch x := g.pick(100); {
		case x < 10 && len(g.sent[pid]) > 0: // a retry of an accepted batch
			old := g.sent[pid][g.pick(len(g.sent[pid]))]
			b = batch(pid, old.ProducerEpoch, old.BaseSequence, len(old.Records), old.IsTransactional)
		case x < 16:
			b.BaseSequence += int32(1 + g.pick(3)) // a gap
		case x < 20:
			b.BaseSequence = int32(g.pick(20))
		}
		res := g.l.AppendAsLeader(b, 0, now, g.randomChecks())
		if res.Err == protocol.NONE && !res.Duplicate {
			b.BaseOffset = res.BaseOffset
			g.sent[pid] = append(g.sent[pid], b)
		}
		g.steps = append(g.steps, fmt.Sprintf("data pid=%d epoch=%d seq=%d n=%d txn=%v -> %v@%d dup=%v",
			pid, b.ProducerEpoch, b.BaseSequence, n, txn, res.Err, res.BaseOffset, res.Duplicate))
	case k < 75: // a marker
		pid := g.producer()
		epoch := int16(0)
		if e := g.l.Producers[pid]; e != nil && e.ProducerEpoch >= 0 {
			epoch = e.ProducerEpoch
		}
		switch x := g.pick(10); {
		case x == 0:
			epoch++
		case x == 1 && epoch > 0:
			epoch--
		}
		ce := g.ce[pid]
		switch x := g.pick(10); {
		case x == 0:
			ce++
			g.ce[pid] = ce
		case x == 1:
			ce--
		}
		ct := protocol.ControlType(g.pick(2))
		res := g.l.AppendMarker(pid, epoch, ct, ce, 0, now, g.randomChecks())
		g.steps = append(g.steps, fmt.Sprintf("marker pid=%d epoch=%d %v ce=%d -> %v@%d", pid, epoch, ct, ce, res.Err, res.Offset))
	default: // the high watermark moves (sometimes back, which it refuses)
		leo, hw := g.l.LogEndOffset(), g.l.HighWatermark
		to := hw + int64(g.pick(int(leo-hw)+2))
		if g.pick(10) == 0 {
			to = hw - 1 - int64(g.pick(3))
		}
		g.l.SetHighWatermark(to)
		g.steps = append(g.steps, fmt.Sprintf("hw %d -> %d", hw, g.l.HighWatermark))
	}
}

// compare checks the log against the naive recomputation.
func compare(l *partition.Log, r *sim.Rand, prevLSO int64) error {
	leo, hw, lso := l.LogEndOffset(), l.HighWatermark, l.LSO()
	if !(0 <= lso && lso <= hw && hw <= leo) {
		return fmt.Errorf("not LSO %d <= HW %d <= LEO %d", lso, hw, leo)
	}
	if lso < prevLSO {
		return fmt.Errorf("LSO moved back from %d to %d", prevLSO, lso)
	}
	if want := naiveLSO(l.Batches, hw); lso != want {
		return fmt.Errorf("LSO %d, naive %d", lso, want)
	}
	if got, want := l.AbortedIndex, naiveAbortedIndex(l.Batches); !sameAborted(got, want) {
		return fmt.Errorf("aborted index %+v, naive %+v", got, want)
	}
	for i := 0; i < 2; i++ {
		from, upper := int64(0), lso // what a read_committed fetch from 0 asks for
		if i == 1 {
			from = int64(r.Intn(int(leo) + 2))
			upper = from + int64(r.Intn(int(leo)+2))
		}
		got, want := l.AbortedTransactions(from, upper), naiveAborted(l.Batches, from, upper)
		if len(got) != len(want) || (len(got) > 0 && !reflect.DeepEqual(got, want)) {
			return fmt.Errorf("AbortedTransactions(%d, %d) = %+v, naive %+v", from, upper, got, want)
		}
		if got, want := baseOffsets(l.Read(from, upper)), baseOffsets(naiveRead(l.Batches, from, upper)); got != want {
			return fmt.Errorf("Read(%d, %d) = batches at %s, naive %s", from, upper, got, want)
		}
	}
	return nil
}

func baseOffsets(bs []protocol.RecordBatch) string {
	var b strings.Builder
	for _, x := range bs {
		fmt.Fprintf(&b, "%d/%d ", x.BaseOffset, len(x.Records))
	}
	return b.String()
}

func sameAborted(a, b []partition.AbortedTxn) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// cases is how many random histories a property test runs: fewer with
// -short, and a quarter under WebAssembly, where the same work takes
// several times longer (the native run covers the full count; the wasm
// run is there to catch a divergence, which any case would show).
func cases(short, long int) int {
	n := long
	if testing.Short() {
		n = short
	}
	if runtime.GOARCH == "wasm" {
		n /= 4
	}
	return n
}

func TestLSOMatchesNaiveScan(t *testing.T) {
	// seen counts the situations the generator reached, so a generator
	// that stopped producing them cannot pass silently.
	seen := map[string]int{}
	defer func() {
		for _, k := range []string{"duplicate", "OUT_OF_ORDER_SEQUENCE_NUMBER", "INVALID_PRODUCER_EPOCH",
			"INVALID_TXN_STATE", "TRANSACTION_COORDINATOR_FENCED", "lso<hw", "unreplicated", "aborted", "open-at-end"} {
			if seen[k] < 10 {
				t.Errorf("the generator reached %q only %d times", k, seen[k])
			}
		}
		t.Logf("situations reached: %v", seen)
	}()
	for c := 0; c < cases(300, 2000); c++ {
		seed := uint64(c + 1)
		r := sim.NewRand(sim.DeriveSeed(seed, "partition-property"))
		g := &gen{r: r, l: partition.NewLog(tp0), checks: c%2 == 1, sent: map[int64][]protocol.RecordBatch{}, ce: map[int64]int32{}}
		nsteps := 10 + r.Intn(90)
		prev := int64(0)
		for i := 0; i < nsteps; i++ {
			g.step(int64(i))
			if err := compare(g.l, r, prev); err != nil {
				t.Fatalf("case %d (seed %d), step %d: %v\nsteps:\n  %s", c, seed, i, err, strings.Join(g.steps, "\n  "))
			}
			if err := g.l.CheckOffsets(); err != nil {
				t.Fatalf("case %d (seed %d), step %d: %v\nsteps:\n  %s", c, seed, i, err, strings.Join(g.steps, "\n  "))
			}
			prev = g.l.LSO()
			last := g.steps[len(g.steps)-1]
			for _, k := range []string{"OUT_OF_ORDER_SEQUENCE_NUMBER", "INVALID_PRODUCER_EPOCH", "INVALID_TXN_STATE", "TRANSACTION_COORDINATOR_FENCED"} {
				if strings.Contains(last, k) {
					seen[k]++
				}
			}
			if strings.HasSuffix(last, "dup=true") {
				seen["duplicate"]++
			}
			if g.l.LSO() < g.l.HighWatermark {
				seen["lso<hw"]++
			}
			if len(g.l.Unreplicated) > 0 {
				seen["unreplicated"]++
			}
		}
		if len(g.l.AbortedIndex) > 0 {
			seen["aborted"]++
		}
		if len(g.l.Ongoing) > 0 {
			seen["open-at-end"]++
		}
		if !g.checks {
			if err := naiveSequencesOK(g.l.Batches); err != nil {
				t.Fatalf("case %d (seed %d): idempotence broken with every check on: %v\nsteps:\n  %s", c, seed, err, strings.Join(g.steps, "\n  "))
			}
		}
	}
}

// normalized renders a log's whole state for comparison, ignoring what a
// replay cannot know (write timestamps) and nil-versus-empty slices.
func normalized(l *partition.Log) string {
	var b strings.Builder
	fmt.Fprintf(&b, "hw=%d leo=%d\n", l.HighWatermark, l.LogEndOffset())
	for _, x := range l.Batches {
		fmt.Fprintf(&b, "batch %+v\n", x)
	}
	for _, id := range l.ProducerIds() {
		e := *l.Producers[id]
		e.LastTimestamp = 0
		fmt.Fprintf(&b, "producer %d epoch=%d ce=%d txn=%d batches=%v\n", e.ProducerId, e.ProducerEpoch, e.CoordinatorEpoch, e.CurrentTxnFirstOffset, e.Batches)
	}
	fmt.Fprintf(&b, "ongoing %v\nunreplicated %v\naborted %v\nlso=%d\n", l.Ongoing, l.Unreplicated, l.AbortedIndex, l.LSO())
	return b.String()
}

// TestTruncateAndRebuildEqualReplay: truncating a log to an earlier
// length gives exactly the state the log had at that length (with the
// high watermark it would have now), and a follower that replicates the
// batches ends in the leader's state.
func TestTruncateAndRebuildEqualReplay(t *testing.T) {
	for c := 0; c < cases(200, 1000); c++ {
		seed := uint64(c + 1)
		r := sim.NewRand(sim.DeriveSeed(seed, "partition-truncate"))
		g := &gen{r: r, l: partition.NewLog(tp0), checks: c%3 == 2, sent: map[int64][]protocol.RecordBatch{}, ce: map[int64]int32{}}
		type snap struct {
			leo int64
			l   *partition.Log
		}
		var snaps []snap
		nsteps := 5 + r.Intn(80)
		for i := 0; i < nsteps; i++ {
			g.step(int64(i + 1))
			if len(snaps) == 0 || snaps[len(snaps)-1].leo != g.l.LogEndOffset() {
				snaps = append(snaps, snap{g.l.LogEndOffset(), g.l.Clone()})
			}
		}
		final := g.l
		fail := func(what string, got, want *partition.Log) {
			t.Fatalf("case %d (seed %d): %s\n--- got\n%s--- want\n%s\nsteps:\n  %s", c, seed, what,
				normalized(got), normalized(want), strings.Join(g.steps, "\n  "))
		}
		// A follower replicating everything holds the leader's state.
		follower := partition.NewLog(tp0)
		follower.AppendReplica(final.Batches, 0)
		follower.AppendReplica(final.Batches, 0) // a repeated fetch response is harmless
		follower.SetHighWatermark(final.HighWatermark)
		if normalized(follower) != normalized(final) {
			fail("follower differs from leader", follower, final)
		}
		// Rebuild after a restart changes nothing.
		restarted := final.Clone()
		restarted.Rebuild()
		if normalized(restarted) != normalized(final) {
			fail("Rebuild changed the state", restarted, final)
		}
		for k := 0; k < 4 && len(snaps) > 0; k++ {
			s := snaps[r.Intn(len(snaps))]
			tr := final.Clone()
			tr.TruncateTo(s.leo)
			want := s.l.Clone()
			hw := final.HighWatermark
			if hw > s.leo {
				hw = s.leo
			}
			want.SetHighWatermark(hw)
			if normalized(tr) != normalized(want) {
				fail(fmt.Sprintf("TruncateTo(%d)", s.leo), tr, want)
			}
		}
	}
}

func TestCloneIsDeep(t *testing.T) {
	l := partition.NewLog(tp0)
	l.AppendAsLeader(batch(1, 0, 0, 1, true), 0, 0, partition.AllChecks)
	c := l.Clone()
	l.AppendAsLeader(batch(1, 0, 1, 1, true), 0, 0, partition.AllChecks)
	l.AppendMarker(1, 0, protocol.ControlAbort, 0, 0, 0, partition.AllChecks)
	l.SetHighWatermark(3)
	if c.LogEndOffset() != 1 || len(c.Producers[1].Batches) != 1 || len(c.Ongoing) != 1 || len(c.AbortedIndex) != 0 || c.HighWatermark != 0 {
		t.Fatalf("the clone shares state with the original: %s", normalized(c))
	}
}
