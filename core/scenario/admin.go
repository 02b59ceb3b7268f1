package scenario

// The admin statement and its expectation: what an operator runs with
// kafka-transactions.sh (KIP-664), so a lesson can find a hanging
// transaction and abort it as an on-call engineer would. The admin is a
// node of its own, named admin. Types, parsing, canonical text and
// application live here; the client is core/client/admin.go.
//
//	admin list-transactions [state=S,…] [pid=N,…]
//	admin describe-transactions ID
//	admin describe-producers TOPIC/PART [broker=N]
//	admin find-hanging topic=T | broker=N [max-transaction-timeout=15m]
//	admin abort TOPIC/PART [start-offset=N]
//	expect admin ok | error NAME | found = WORD … | found none

import (
	"strconv"
	"strings"

	"txnlab/core/cluster"
	"txnlab/core/protocol"
	"txnlab/core/sim"
)

// adminCommands are the admin statement's subcommands: kafka-transactions.sh's.
var adminCommands = []string{"list-transactions", "describe-transactions", "describe-producers", "find-hanging", "abort"}

// AdminStmt runs one kafka-transactions.sh subcommand and waits for it.
type AdminStmt struct {
	Base
	Command string
	// list-transactions
	States []string
	Pids   []int64
	// describe-transactions
	TransactionalId string
	// describe-producers, abort
	TP protocol.TopicPartition
	// describe-producers, find-hanging: a broker (-1: the leader, for
	// find-hanging: a topic instead)
	Broker int32
	// find-hanging
	Topic      string
	MaxTimeout sim.Time
	// abort: the open transaction's first offset (-1: the only one open)
	StartOffset int64
}

// String renders the statement canonically.
func (s *AdminStmt) String() string {
	b := words("admin", s.Command)
	switch s.Command {
	case "list-transactions":
		if len(s.States) > 0 {
			b.opt("state", strings.Join(s.States, ","))
		}
		if len(s.Pids) > 0 {
			ids := make([]string, len(s.Pids))
			for i, p := range s.Pids {
				ids[i] = strconv.FormatInt(p, 10)
			}
			b.opt("pid", strings.Join(ids, ","))
		}
	case "describe-transactions":
		b.add(quote(s.TransactionalId))
	case "describe-producers":
		b.add(s.TP.String())
		if s.Broker >= 0 {
			b.opt("broker", strconv.Itoa(int(s.Broker)))
		}
	case "find-hanging":
		if s.Topic != "" {
			b.opt("topic", s.Topic)
		} else {
			b.opt("broker", strconv.Itoa(int(s.Broker)))
		}
		if s.MaxTimeout != cluster.MaxTransactionTimeout {
			b.opt("max-transaction-timeout", FormatDuration(s.MaxTimeout))
		}
	case "abort":
		b.add(s.TP.String())
		if s.StartOffset >= 0 {
			b.opt("start-offset", strconv.FormatInt(s.StartOffset, 10))
		}
	}
	return b.String()
}

func parseAdmin(lp *lineParser, kw token) Stmt {
	t := lp.next("admin needs a command: " + strings.Join(adminCommands, ", "))
	st := &AdminStmt{Command: t.raw, Broker: -1, StartOffset: -1, MaxTimeout: cluster.MaxTransactionTimeout}
	switch t.raw {
	case "list-transactions":
		opts := lp.options("admin list-transactions", []string{"state", "pid"})
		if o, ok := opts.get("state"); ok {
			lp.eachItem(o, func(part string, col int) {
				if _, known := protocol.TransactionStateByName(part); !known {
					// Kafka answers an unknown state in UnknownStateFilters:
					// a script would only be mistaken.
					lp.failf(col, "unknown transaction state %q (Empty, Ongoing, PrepareCommit, PrepareAbort, CompleteCommit, CompleteAbort, PrepareEpochFence)", part)
				}
				st.States = append(st.States, part)
			})
		}
		if o, ok := opts.get("pid"); ok {
			lp.eachItem(o, func(part string, col int) {
				st.Pids = append(st.Pids, lp.integer("pid", part, col, 0, 1<<62))
			})
		}
	case "describe-transactions":
		id := lp.next("admin describe-transactions needs a transactional id")
		st.TransactionalId = lp.nonEmpty("the transactional id", id.raw, id.col)
		lp.done("admin describe-transactions takes one transactional id")
	case "describe-producers", "abort":
		tpT := lp.next("admin " + t.raw + " needs a partition, e.g. orders/0")
		st.TP = lp.topicPartition(tpT.raw, tpT.col)
		allowed := []string{"broker"}
		if t.raw == "abort" {
			allowed = []string{"start-offset"}
		}
		opts := lp.options("admin "+t.raw, allowed)
		if o, ok := opts.get("broker"); ok {
			st.Broker = lp.brokerID(o)
		}
		if o, ok := opts.get("start-offset"); ok {
			st.StartOffset = lp.integer("start-offset", o.raw, o.vcol, 0, 1<<62)
		}
	case "find-hanging":
		opts := lp.options("admin find-hanging", []string{"topic", "broker", "max-transaction-timeout"})
		o, hasTopic := opts.get("topic")
		if hasTopic {
			st.Topic = lp.nonEmpty("topic", o.raw, o.vcol)
		}
		if o, ok := opts.get("broker"); ok {
			if hasTopic {
				lp.failf(o.col, "admin find-hanging takes topic= or broker=, not both")
			}
			st.Broker = lp.brokerID(o)
		} else if !hasTopic {
			lp.failf(t.col, "admin find-hanging needs topic=T or broker=N to limit the search, as kafka-transactions.sh does")
		}
		if o, ok := opts.get("max-transaction-timeout"); ok {
			st.MaxTimeout = lp.duration("max-transaction-timeout", o.raw, o.vcol, MaxDuration)
		}
	default:
		lp.failf(t.col, "unknown admin command %q%s (commands: %s)", t.raw, didYouMean(t.raw, adminCommands), strings.Join(adminCommands, ", "))
	}
	return st
}

// brokerID reads broker=N or broker=broker-N.
func (lp *lineParser) brokerID(o option) int32 {
	raw := strings.TrimPrefix(o.raw, "broker-")
	n := lp.integer("broker", raw, o.vcol, 0, MaxBrokers-1)
	if lp.d.Cluster != nil && int(n) >= lp.d.Cluster.Brokers {
		lp.failf(o.vcol, "broker-%d does not exist: the cluster has %d broker(s)", n, lp.d.Cluster.Brokers)
	}
	return int32(n)
}

func (st *AdminStmt) apply(s *Session) *Error {
	c := s.Cluster
	var call *cluster.Call
	var err error
	switch st.Command {
	case "list-transactions":
		call, err = c.AdminListTransactions(st.States, st.Pids)
	case "describe-transactions":
		call, err = c.AdminDescribeTransactions(st.TransactionalId)
	case "describe-producers":
		if e := s.checkTP(st, st.TP); e != nil {
			return e
		}
		call, err = c.AdminDescribeProducers(st.TP, st.Broker)
	case "find-hanging":
		call, err = c.AdminFindHanging(st.Topic, st.Broker, st.MaxTimeout)
	case "abort":
		if e := s.checkTP(st, st.TP); e != nil {
			return e
		}
		call, err = c.AdminAbort(st.TP, st.StartOffset)
	}
	return s.awaitCall(st, "admin", st.Command, false, call, err)
}

// ExpectAdminStmt checks the admin's last call: how it ended, or what it
// found (client.Admin.Found's words, in order).
type ExpectAdminStmt struct {
	Base
	// Outcome is OutcomeOK or OutcomeError (with Error or Exception), or 0
	// when Found is checked.
	Outcome   Outcome
	Error     protocol.ErrorCode
	Exception protocol.Exception
	Found     []string
}

// String renders the statement canonically.
func (s *ExpectAdminStmt) String() string {
	b := words("expect", "admin")
	switch {
	case s.Outcome == OutcomeOK:
		b.add("ok")
	case s.Outcome == OutcomeError:
		b.add("error", cluster.CallResult{Code: s.Error, Exception: s.Exception}.String())
	case len(s.Found) == 0:
		b.add("found", "none")
	default:
		b.add("found", "=")
		b.add(s.Found...)
	}
	return b.String()
}

func parseExpectAdmin(lp *lineParser) Stmt {
	t := lp.next("expect admin needs ok, error NAME, found = WORD … or found none")
	st := &ExpectAdminStmt{}
	switch t.raw {
	case "ok":
		st.Outcome = OutcomeOK
	case "error":
		e := lp.next("expect admin error needs a Kafka error name or a client exception")
		if x, ok := protocol.ExceptionByName(e.raw); ok {
			st.Outcome, st.Exception = OutcomeError, x
		} else {
			st.Outcome, st.Error = OutcomeError, lp.clientErrorName(e.raw, e.col)
		}
	case "found":
		w := lp.next("expect admin found needs = WORD … or none")
		switch w.raw {
		case "none":
		case "=":
			if !lp.more() {
				lp.failf(lp.endCol(), "expect admin found = needs at least one word (or write found none)")
			}
			for lp.more() {
				st.Found = append(st.Found, lp.next("").raw)
			}
		default:
			lp.failf(w.col, "expected = or none after expect admin found, got %q", w.raw)
		}
	default:
		lp.failf(t.col, "expected ok, error, or found after expect admin, got %q", t.raw)
	}
	lp.done("expect admin takes nothing more")
	return st
}

func (st *ExpectAdminStmt) apply(s *Session) *Error { return s.expect(st) }

func (st *ExpectAdminStmt) evaluate(s *Session) (string, string, bool, *Error) {
	if !s.Cluster.HasAdmin() {
		return st.String()[len("expect admin "):], "no admin command has run", false, nil
	}
	a := s.Cluster.Admin()
	last := a.LastCompleted()
	if last == nil {
		return st.String()[len("expect admin "):], "no admin command has returned", false, nil
	}
	switch st.Outcome {
	case OutcomeOK:
		return "ok", last.Result.String(), last.Result.OK(), nil
	case OutcomeError:
		want := cluster.CallResult{Code: st.Error, Exception: st.Exception}
		return "error " + want.String(), last.Result.String(), last.Result == want, nil
	}
	want, got := adminWords(st.Found), adminWords(a.Found)
	if !last.Result.OK() {
		got = "(" + string(last.Kind) + " failed: " + last.Result.String() + ")"
	}
	return "found " + want, got, last.Result.OK() && want == got, nil
}

func adminWords(ws []string) string {
	if len(ws) == 0 {
		return "none"
	}
	return strings.Join(ws, " ")
}

// adminValue answers the queries admin found (the last completed call's
// findings, as expect admin found reads them) and admin result (how it
// ended: NONE or the error).
func (s *Session) adminValue(q *Query) string {
	if !s.Cluster.HasAdmin() {
		return noValue
	}
	a := s.Cluster.Admin()
	last := a.LastCompleted()
	if last == nil {
		return noValue
	}
	if q.field == "result" {
		return last.Result.String()
	}
	if len(a.Found) == 0 {
		return noValue
	}
	return strings.Join(a.Found, " ")
}
