// Package scenario is the scenario language: a line-oriented script that
// sets up a simulated Kafka cluster, drives producers and consumers,
// injects faults and states expectations (docs/scenario-language.md).
//
// Each statement, or small family of statements, lives in one file that
// holds its type, its parsing, its canonical text and its application to
// a session: setup.go (cluster, config, topic, producer, consumer),
// actions.go (the clients' calls and wait), faults.go, timing.go (run,
// advance), expect*.go, request.go and seed.go (txn). This file holds
// what they share: the Stmt interface and the one table of verbs the
// parser dispatches on. Each statement is validated when it is parsed
// (names declared, numbers in range, enums known), so applying it needs
// no syntax check again. Every statement renders back to canonical text
// with String(), and parsing that text yields the same statement: the UI
// appends statements to a script as text.
package scenario

import "strings"

// Stmt is one parsed statement. The concrete types are the *XxxStmt
// structs of the family files.
type Stmt interface {
	// Position is where the statement's first token is.
	Position() Pos
	// Source is the line as written: trimmed, without its comment.
	Source() string
	// String is the canonical text of the statement; parsing it gives the
	// same statement back.
	String() string
	// apply starts the statement on the session; a statement that cannot
	// apply returns an error and changes nothing.
	apply(s *Session) *Error
	base() *Base
}

// Base is embedded in every statement: where it was written and its text.
// Statements built in code (not parsed) may leave it zero.
type Base struct {
	Pos  Pos    // line and column of the first token
	Text string // the original line, trimmed, without its comment
}

// Position returns where the statement starts.
func (b Base) Position() Pos { return b.Pos }

// Source returns the statement's original text.
func (b Base) Source() string { return b.Text }

func (b *Base) base() *Base { return b }

// Script is a parsed scenario.
type Script struct {
	File       string
	Statements []Stmt
	// Decls is the symbol table after the last line: the cluster, the
	// topics and the clients, in declaration order.
	Decls *Decls
}

// String renders the script canonically, one statement per line.
func (s *Script) String() string {
	var b strings.Builder
	for _, st := range s.Statements {
		b.WriteString(st.String())
		b.WriteByte('\n')
	}
	return b.String()
}

// OptionSet lists the option keys a statement gave explicitly, in the
// statement's canonical option order. Options not in it hold their
// defaults (or, in expectations, are not checked). String() renders
// exactly the options listed, so a statement built in code must list the
// options it sets.
type OptionSet []string

// Has reports whether the option was written.
func (o OptionSet) Has(key string) bool {
	for _, k := range o {
		if k == key {
			return true
		}
	}
	return false
}

// verb is a statement's first word and the function that parses the rest
// of its line (kw is the verb's token).
type verb struct {
	name  string
	parse func(lp *lineParser, kw token) Stmt
	// example is a line of the statement in canonical form, valid after
	// a few declarations (a cluster, topic orders, producer p1, consumer
	// c1 in group g1, external client kgo; cluster's stands alone): the
	// tests parse, render and re-parse it, count the statement type it
	// yields as exercised, and find it in docs/scenario-language.md's
	// "Statements at a glance", so a new statement needs no line in a
	// test.
	example string
}

// verbs is the one table of statements the parser knows, in the order
// the suggestions of "unknown statement" weigh them. A statement that
// starts with a client's name (p1 send …) is found by the name instead.
// It is filled in init: the parse functions read reserved, which is made
// from this table.
var verbs []verb

// statementVerbs are the verbs' names, in table order.
var statementVerbs []string

// reserved holds the words a client may not be named: every keyword that
// can start a statement or follow expect, the action verbs and the node
// functions.
var reserved map[string]bool

func init() {
	verbs = []verb{
		{"cluster", parseCluster, "cluster brokers=3 rf=3"},
		{"config", parseConfig, "config transaction.max.timeout.ms=15m"},
		{"topic", parseTopic, "topic payments partitions=3"},
		{"producer", parseProducer, "producer p2 transactional.id=order-txn-1"},
		{"consumer", parseConsumer, "consumer c2 isolation.level=read_uncommitted"},
		{"wait", parseWait, "wait p1"},
		{"crash", parseCrash, "crash coordinator(order-txn-1)"},
		{"restart", parseRestart, "restart broker-1"},
		{"pause", parsePause, "pause p1"},
		{"resume", parseResume, "resume p1"},
		{"isolate", parseIsolate, "isolate leader(orders/0)"},
		{"partition", parsePartition, "partition broker-0,broker-1 | broker-2,p1"},
		{"heal", parseHeal, "heal"},
		{"drop", parseDrop, "drop WriteTxnMarkers count=1"},
		{"delay", parseDelay, "delay EndTxn by=45s from=p1"},
		{"run", parseRun, "run for=20s"},
		{"advance", parseAdvance, "advance 10s"},
		{"break", parseBreak, "break lso-bound"},
		{"restore", parseRestore, "restore lso-bound"},
		{"expect", parseExpect, "expect invariants"},
		{"request", parseRequest, "request EndTxn from=p1 Committed=false"},
		{"txn", parseTxnSeed, "txn seeded-txn pid=42 epoch=5"},
		{"admin", parseAdmin, "admin list-transactions state=Ongoing"},
		{"client", parseClientDecl, `client franz software="franz-go 1.22.3"`},
		{"refused", parseRefused, "refused Produce from=kgo to=broker-0 error=CORRUPT_MESSAGE"},
	}
	for _, v := range verbs {
		statementVerbs = append(statementVerbs, v.name)
	}
	reserved = map[string]bool{"absent": true, "until": true, "leader": true, "group-coordinator": true}
	for _, l := range [][]string{statementVerbs, expectSubjectNames(), clientWords, producerOpNames[1:], consumerOpNames[1:]} {
		for _, w := range l {
			reserved[w] = true
		}
	}
}

// statement parses one line's tokens by the verb table.
func (lp *lineParser) statement() Stmt {
	kw := lp.next("")
	if !kw.quoted {
		for _, v := range verbs {
			if v.name == kw.raw {
				return v.parse(lp, kw)
			}
		}
		if c, ok := lp.d.Client(kw.raw); ok {
			if c.Kind == KindProducer {
				return lp.producerAction(c)
			}
			if c.Kind == KindExternal {
				lp.failf(kw.col, "%s is an external client: it acts only through request API from=%s …", c.Name, c.Name)
			}
			return lp.consumerAction(c)
		}
		if isAction(kw.raw) {
			lp.failf(kw.col, "%q needs a client first: write \"NAME %s ...\" with a declared producer or consumer", kw.raw, kw.raw)
		}
		if validClientName(kw.raw) && len(lp.toks) > 1 && isAction(lp.toks[1].raw) {
			lp.unknownClient(kw)
		}
	}
	cands := append([]string(nil), statementVerbs...)
	cands = append(cands, producerOpNames[1:]...)
	cands = append(cands, consumerOpNames[1:]...)
	for _, c := range lp.d.clients {
		cands = append(cands, c.Name)
	}
	lp.failf(kw.col, "unknown statement %q%s", kw.raw, didYouMean(kw.text, cands))
	return nil
}

// isAction reports whether w is a producer's or a consumer's action.
func isAction(w string) bool {
	for _, n := range producerOpNames[1:] {
		if n == w {
			return true
		}
	}
	for _, n := range consumerOpNames[1:] {
		if n == w {
			return true
		}
	}
	return false
}

// setBase stores the position and text in a parsed statement.
func setBase(st Stmt, b Base) { *st.base() = b }
