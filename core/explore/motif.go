package explore

import (
	"txnlab/core/client"
	"txnlab/core/cluster"
	"txnlab/core/safety"
	"txnlab/core/sim"
)

// A motif is a short, purposeful sequence of statements that sets up the
// situation one safety mechanism guards. With the mechanism intact the
// motif must end well (the checker finds nothing); with it broken the
// anomaly shows. The generator weaves motifs between random actions, so
// faults and other clients interfere with them.
//
// A mechanism's entry names its motif (safety.Provocation.Motif); a name
// this table lacks provokes nothing, so the run is an unbiased one, and
// TestEveryMechanismIsProvoked names the mechanism.
func (g *gen) motif(m *safety.Mechanism) {
	if f := motifs[m.Provoke.Motif]; f != nil {
		f(g)
	}
}

// motifs are the explorer's motifs by the names core/safety's mechanism
// entries use; several mechanisms may share one.
var motifs = map[string]func(g *gen){
	"zombie":       (*gen).motifZombie,
	"late-marker":  (*gen).motifLateMarker,
	"txn":          func(g *gen) { g.motifTxn(false, g.chance(70)) },
	"txn-offsets":  func(g *gen) { g.motifTxn(true, true) },
	"read-open":    (*gen).motifReadOpen,
	"read-aborted": (*gen).motifReadAborted,
	"duplicate":    (*gen).motifDuplicate,
	"late-end-txn": (*gen).motifLateEndTxn,
	"lost-markers": (*gen).motifLostMarkers,
}

// motifLostMarkers: a transaction ends, the markers its coordinator sends
// are lost, and the coordinator crashes before it can send them again.
// The transaction is decided (PrepareCommit or PrepareAbort is in
// __transaction_state), and only the successor that loads it finishes
// it. With marker recovery the successor sends the markers; without, the
// records stay open for ever, which the liveness checks see once the
// cluster is healed.
func (g *gen) motifLostMarkers() {
	p := g.sentInTxn()
	if p == nil {
		return
	}
	leader, _ := g.c().CoordinatorOf(p.txnID)
	if leader < 0 {
		return
	}
	g.emit("drop WriteTxnMarkers from=broker-%d", leader)
	if g.chance(50) {
		g.emit("%s commit", p.name)
	} else {
		g.emit("%s abort", p.name)
	}
	if !g.ok() || !g.crashCoordinatorOf(p.txnID) {
		return
	}
	g.emit("run for=%s", []string{"10s", "20s"}[g.pick(2)])
	g.emit("heal")
}

// motifLateEndTxn: a commit's EndTxn crawls past request.timeout.ms, its
// retry commits, the producer begins its next transaction and writes, and
// then the first EndTxn lands (Jepsen's delayed commit, KIP-890). With the
// epoch bumped at every end the late request is fenced; without, it
// commits the open transaction, which a read_committed consumer then
// reads before its commit was sent.
func (g *gen) motifLateEndTxn() {
	p := g.sentInTxn()
	if p == nil {
		return
	}
	g.emit("delay EndTxn by=45s from=%s", p.name)
	g.emit("%s commit &", p.name)
	g.emit("advance 20s")
	g.emit("heal")
	g.emit("wait %s", p.name)
	if !g.can(p) || g.producer(p.name).State != client.Ready {
		return
	}
	g.emit("%s begin", p.name)
	g.emit("%s send %s %s", p.name, g.randomTP(), g.records())
	g.emit("advance 30s")
	for _, c := range g.liveConsumers(func(c *consInfo) bool { return c.rc }) {
		g.emit("%s poll", c.name)
	}
}

// inTxn returns a usable transactional producer inside a transaction,
// initialising and beginning one as needed; nil when none can be had.
func (g *gen) inTxn() *prodInfo {
	ps := g.liveProducers(func(p *prodInfo, cp *client.Producer) bool {
		return p.txnID != "" && (cp.State == client.Uninitialized || cp.State == client.Ready || cp.State == client.InTransaction)
	})
	if len(ps) == 0 {
		return nil
	}
	p := ps[g.pick(len(ps))]
	if g.producer(p.name).State == client.Uninitialized {
		if !g.emit("%s init", p.name) || g.producer(p.name).State != client.Ready {
			return nil
		}
	}
	if g.producer(p.name).State == client.Ready {
		g.emit("%s begin", p.name)
	}
	if !g.ok() || g.producer(p.name).State != client.InTransaction {
		return nil
	}
	return p
}

// can reports whether p can still act.
// sentInTxn is a producer in a transaction that has just sent a record
// to a random partition, still in its transaction (nil when none could).
func (g *gen) sentInTxn() *prodInfo {
	p := g.inTxn()
	if p == nil {
		return nil
	}
	g.emit("%s send %s %s", p.name, g.randomTP(), g.records())
	if !g.can(p) || g.producer(p.name).State != client.InTransaction {
		return nil
	}
	return p
}

func (g *gen) can(p *prodInfo) bool { return g.ok() && g.usable(p.name) }

// motifTxn: a whole transaction, optionally with offsets, committed or
// aborted, then the markers.
func (g *gen) motifTxn(offsets, commit bool) {
	p := g.inTxn()
	if p == nil {
		return
	}
	g.emit("%s send %s %s", p.name, g.randomTP(), g.records())
	if offsets && g.can(p) {
		g.emit("%s send-offsets %s %s=%d", p.name, g.groups[g.pick(len(g.groups))], g.randomTP(), g.between(1, 9))
	}
	if !g.can(p) {
		return
	}
	if commit {
		g.emit("%s commit", p.name)
	} else {
		g.emit("%s abort", p.name)
	}
	g.emit("run for=20s")
}

// motifZombie: a producer stalls mid-transaction, a successor with the
// same transactional.id takes over, and the stalled one wakes and goes on
// writing and committing with its old epoch.
func (g *gen) motifZombie() {
	if len(g.c().ClientOrder) >= cluster.MaxClients-2 {
		return // no room for the successor: a 33rd client is an error
	}
	p := g.inTxn()
	if p == nil {
		return
	}
	g.emit("%s send %s %s", p.name, g.randomTP(), g.records())
	if !g.can(p) {
		return
	}
	g.emit("pause %s", p.name)
	q := g.newProducer(p.txnID)
	if !g.ok() {
		return
	}
	g.emit("%s init", q.name)
	if g.chance(40) && g.usable(q.name) {
		g.emit("%s begin", q.name)
		g.emit("%s send %s %s", q.name, g.randomTP(), g.records())
		if g.usable(q.name) {
			g.emit("%s commit", q.name)
		}
	}
	if g.status(p.name) != sim.Paused {
		return
	}
	g.emit("resume %s", p.name)
	if g.can(p) {
		g.emit("%s send %s %s", p.name, g.randomTP(), g.records())
	}
	if g.can(p) {
		g.emit("%s commit", p.name)
	}
	g.emit("run for=20s")
}

// motifLateMarker: a commit's markers are held up on the wire, the
// coordinator that sent them crashes, its successor completes the
// commit, the producer starts its next transaction on the same
// partition, and then the old markers arrive.
func (g *gen) motifLateMarker() {
	p := g.inTxn()
	if p == nil {
		return
	}
	leader, _ := g.c().CoordinatorOf(p.txnID)
	// A partition led by another broker than the coordinator, so the
	// late marker has somewhere to land.
	var tps []string
	for _, tp := range g.allTPs() {
		if l, ok := g.leaderOf(tp); ok && l != leader {
			tps = append(tps, tp)
		}
	}
	if len(tps) == 0 {
		tps = g.allTPs()
	}
	tp := tps[g.pick(len(tps))]
	g.emit("%s send %s %s", p.name, tp, g.records())
	if !g.can(p) {
		return
	}
	g.emit("delay WriteTxnMarkers by=%s", []string{"20s", "30s", "40s"}[g.pick(3)])
	g.emit("%s commit", p.name)
	if !g.ok() || !g.crashCoordinatorOf(p.txnID) {
		return
	}
	// heal lifts the delay rule (the late markers keep their delay): the
	// new coordinator's markers get through.
	g.emit("heal")
	if !g.can(p) || g.producer(p.name).State != client.Ready {
		return
	}
	g.emit("%s begin", p.name)
	g.emit("%s send %s %s", p.name, tp, g.records())
	for _, c := range g.liveConsumers(func(c *consInfo) bool { return c.rc }) {
		if g.chance(50) {
			g.emit("run for=%s", []string{"10s", "20s", "40s"}[g.pick(3)])
			g.emit("%s poll", c.name)
		}
	}
	g.emit("run for=45s")
	if g.can(p) {
		if g.chance(70) {
			g.emit("%s abort", p.name)
		} else {
			g.emit("%s commit", p.name)
		}
	}
	g.emit("run for=20s")
}

func (g *gen) leaderOf(tp string) (int32, bool) {
	for _, p := range g.c().Meta.SortedPartitions() {
		if p.TP.String() == tp {
			return p.Leader, p.Leader >= 0
		}
	}
	return -1, false
}

// motifReadOpen: a read_committed consumer polls while a transaction that
// wrote to its partitions is still open.
func (g *gen) motifReadOpen() {
	p := g.inTxn()
	if p == nil {
		return
	}
	g.emit("%s send %s %s", p.name, g.randomTP(), g.records())
	for _, c := range g.liveConsumers(func(c *consInfo) bool { return c.rc }) {
		g.emit("%s poll", c.name)
	}
}

// motifReadAborted: a transaction aborts after writing, and a
// read_committed consumer reads past its ABORT marker.
func (g *gen) motifReadAborted() {
	p := g.inTxn()
	if p == nil {
		return
	}
	g.emit("%s send %s %s", p.name, g.randomTP(), g.records())
	if !g.can(p) {
		return
	}
	g.emit("%s abort", p.name)
	g.emit("run for=20s")
	for _, c := range g.liveConsumers(func(c *consInfo) bool { return c.rc }) {
		g.emit("%s poll", c.name)
	}
}

// motifDuplicate: a produce response is lost, so the producer sends the
// same batch again after request.timeout.ms.
func (g *gen) motifDuplicate() {
	ps := g.liveProducers(func(p *prodInfo, cp *client.Producer) bool {
		return p.txnID == "" || cp.State == client.InTransaction
	})
	if len(ps) == 0 {
		g.inTxn()
		return
	}
	p := ps[g.pick(len(ps))]
	g.emit("drop Produce.response count=1")
	g.emit("%s send %s %s", p.name, g.randomTP(), g.records())
}

// motifInterleave stops a transaction at a precise moment of its
// protocol (just before a message is delivered) and strikes there: a
// crash of the coordinator or of a leader, a lost message, a pause.
func (g *gen) motifInterleave() {
	p := g.inTxn()
	if p == nil {
		return
	}
	g.emit("%s send %s %s", p.name, g.randomTP(), g.records())
	if g.chance(40) && g.can(p) {
		g.emit("%s send-offsets %s %s=%d", p.name, g.groups[g.pick(len(g.groups))], g.randomTP(), g.between(0, 9))
	}
	if !g.can(p) {
		return
	}
	if g.chance(75) {
		g.emit("%s commit &", p.name)
	} else {
		g.emit("%s abort &", p.name)
	}
	api := []string{"EndTxn", "EndTxn.response", "WriteTxnMarkers", "WriteTxnMarkers.response"}[g.pick(4)]
	g.emit("run until %s for=5s", api)
	switch g.pick(5) {
	case 0:
		g.crashCoordinatorOf(p.txnID)
	case 1:
		g.crashRole()
	case 2:
		g.emit("drop %s count=1", api)
	case 3:
		if g.status(p.name) == sim.Up {
			g.emit("pause %s", p.name)
		}
	default:
		if up := g.upBrokers(); len(up) > 1 && g.mayCrash() {
			g.emit("crash broker-%d", up[g.pick(len(up))])
		}
	}
	g.emit("run for=%s", []string{"1s", "10s", "30s"}[g.pick(3)])
}

// motifPipeline: several batches of one partition in flight at once
// (max.in.flight.requests.per.connection is 5), with a fault on the wire
// while they are: one held back so that the next overtakes it, a request
// or an answer lost, or the partition's leader crashed. The first send
// waits for its answer so that the partition is in the transaction and
// the producer knows its leader; each later one leaves a few
// milliseconds after the previous, so it is a request of its own rather
// than records added to the same batch.
func (g *gen) motifPipeline() {
	var p *prodInfo
	if g.chance(50) {
		p = g.inTxn()
	} else if ps := g.liveProducers(func(p *prodInfo, _ *client.Producer) bool { return p.txnID == "" }); len(ps) > 0 {
		p = ps[g.pick(len(ps))]
	}
	if p == nil || !g.can(p) {
		return
	}
	if cp := g.producer(p.name); p.txnID != "" && cp.State == client.Ready {
		g.emit("%s begin", p.name)
	}
	tp := g.randomTP()
	p.lastTP = tp
	g.emit("%s send %s %s", p.name, tp, g.records())
	if !g.can(p) {
		return
	}
	fault := g.pick(4)
	switch fault {
	case 0:
		g.emit("delay Produce by=%dms", g.between(20, 400))
	case 1:
		g.emit("drop Produce count=1")
	case 2:
		g.emit("drop Produce.response count=1")
	}
	for i, n := 0, g.between(2, 6); i < n && g.ok() && g.status(p.name) == sim.Up; i++ {
		g.emit("%s send %s %s &", p.name, tp, g.records())
		if i == 0 && fault == 0 {
			g.emit("heal") // only the first batch is held back
		}
		g.emit("run for=%dms", g.between(1, 3))
	}
	if g.chance(25) && g.mayCrash() {
		g.crashRole()
	}
	if g.ok() && g.status(p.name) == sim.Up {
		g.emit("wait %s", p.name)
	}
}
