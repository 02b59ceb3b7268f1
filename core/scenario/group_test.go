package scenario

import (
	"errors"
	"strings"
	"testing"
)

// The membership statements parse to their canonical text, and each
// mistake a learner makes with them is an error at the offending column.
func TestGroupStatementsParse(t *testing.T) {
	for _, tc := range []struct{ line, want string }{
		{"c1 subscribe orders payments", "c1 subscribe orders payments"},
		{"c1 subscribe orders &", "c1 subscribe orders &"},
		{"p1 send-offsets consumer=c1 orders/0=3", "p1 send-offsets consumer=c1 orders/0=3"},
		{"expect group g1 state=Stable generation=3 members=c2,c1 leader=c1", "expect group g1 state=Stable generation=3 members=c1,c2 leader=c1"},
		{"expect group g1 members=none", "expect group g1 members=none"},
		{"consumer c3 group.id=g session.timeout.ms=10s heartbeat.interval.ms=1s max.poll.interval.ms=20s group.instance.id=i", "consumer c3 group.id=g session.timeout.ms=10s heartbeat.interval.ms=1s max.poll.interval.ms=20s group.instance.id=i"},
	} {
		st, err := parseAfterPrelude(t, tc.line)
		if err != nil {
			t.Errorf("%s: %v", tc.line, err)
			continue
		}
		if got := st.String(); got != tc.want {
			t.Errorf("%s: renders %q, want %q", tc.line, got, tc.want)
		}
	}
	for _, tc := range []struct{ line, want string }{
		{"c2 subscribe orders", `10:4: c2 has no group.id: subscribe needs one; declare the consumer with group.id=GROUP`},
		{"c1 subscribe", `10:14: subscribe needs at least one topic, e.g. c1 subscribe orders`},
		{"c1 subscribe ordrs", `10:14: unknown topic "ordrs": declare it with topic first; did you mean "orders"?`},
		{"c1 subscribe orders orders", `10:21: orders is given twice`},
		{"c1 subscribe __consumer_offsets", `10:14: cannot subscribe to the internal topic __consumer_offsets`},
		{"p1 send-offsets consumer=p2 orders/0=1", `10:17: p2 is a producer: consumer= names the consumer whose groupMetadata() is sent`},
		{"p1 send-offsets consumer=c2 orders/0=1", `10:17: c2 has no group.id: it has no group metadata to send`},
		{"expect group g1", `10:17: expect group needs at least one of state, generation, members, leader, protocol`},
		{"expect group g1 state=stable", `10:23: unknown group state "stable"; did you mean "Stable"? (states: Empty, PreparingRebalance, CompletingRebalance, Stable)`},
		{"expect group g1 members=c1,p1", `10:28: p1 is a producer: a group's members are consumers`},
		{"expect group g1 members=c1,c1", `10:28: c1 is given twice`},
		{"consumer c3 group.id=g heartbeat.interval.ms=50s", `10:24: heartbeat.interval.ms must be lower than session.timeout.ms, as in Kafka`},
	} {
		_, err := parseAfterPrelude(t, tc.line)
		var list ErrorList
		if !errors.As(err, &list) || len(list) != 1 {
			t.Errorf("%s: error %v, want one", tc.line, err)
			continue
		}
		if got := list[0].Pos.String() + ": " + list[0].Msg; got != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.line, got, tc.want)
		}
	}
}

// FuzzGroupStatements: the membership statements never panic the parser,
// and what they accept renders back to text that parses to the same.
func FuzzGroupStatements(f *testing.F) {
	for _, s := range []string{"c1 subscribe orders payments", "p1 send-offsets consumer=c1 orders/0=3",
		"expect group g1 state=Stable generation=3 members=c2,c1 leader=c1", "consumer c3 group.id=g session.timeout.ms=10s group.instance.id=i"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		if strings.ContainsAny(line, "\n\r") {
			return
		}
		s, err := Parse("", prelude())
		if err != nil {
			t.Fatal(err)
		}
		st, err := ParseLine(line, testLine, s.Decls.Clone())
		if err != nil || st == nil {
			return
		}
		again, err := ParseLine(st.String(), testLine, s.Decls.Clone())
		if err != nil {
			t.Fatalf("%q renders %q, which does not parse: %v", line, st.String(), err)
		}
		if again.String() != st.String() {
			t.Fatalf("%q renders %q, then %q", line, st.String(), again.String())
		}
	})
}
