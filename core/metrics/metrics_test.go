package metrics

import (
	"encoding/csv"
	"slices"
	"strconv"
	"strings"
	"testing"

	"txnlab/core/scenario"
	"txnlab/scenarios"
)

// The operator's story of scenarios/find-and-abort-hanging, as its charts
// tell it: LastStableOffsetLag on orders/0 climbs while the hanging
// transaction holds the LSO and falls to 0 once the admin aborts it;
// PartitionsWithLateTransactionsCount on the leader turns 1 once the
// transaction is older than transaction.max.timeout.ms plus 5 minutes and
// back to 0 after the abort; the late Produce the client retried shows in
// record-retry-total.
func TestTheHangingTransactionOnTheCharts(t *testing.T) {
	sc, ok := scenarios.Get("find-and-abort-hanging")
	if !ok {
		t.Fatal("no scenario find-and-abort-hanging")
	}
	script, err := scenario.Parse("x", sc.Script)
	if err != nil {
		t.Fatal(err)
	}
	s := scenario.NewSession("x", script)
	var series Series
	for !s.Done() {
		s.Step()
		if s.Cluster != nil {
			series.Record(s.Cluster)
		}
	}
	if s.Err != nil || s.Failed() > 0 {
		t.Fatalf("run: %v, %d failed", s.Err, s.Failed())
	}
	values := func(m *Metric, subject string) []int64 {
		var out []int64
		for _, p := range series.Points {
			if p.Metric == m && p.Subject == subject {
				out = append(out, p.Value.Value)
			}
		}
		return out
	}
	lag := values(LastStableOffsetLag, "orders/0")
	if maxOf(lag) < 3 || lag[len(lag)-1] != 0 {
		t.Errorf("LastStableOffsetLag of orders/0 took %v: want it to climb to 3 and end at 0", lag)
	}
	late := values(PartitionsWithLateTransactions, "broker-0")
	if len(late) != 3 || late[1] != 1 || late[2] != 0 {
		t.Errorf("PartitionsWithLateTransactionsCount of broker-0 took %v: want 0, 1 (late), 0 (aborted)", late)
	}
	if r := values(RecordRetries, "app"); maxOf(r) == 0 {
		t.Errorf("record-retry-total of app took %v: the delayed Produce was retried", r)
	}
	if c := values(TxnAbortTime, "app"); maxOf(c) <= 0 {
		t.Errorf("txn-abort-time-ns-total of app took %v: the abort took time", c)
	}
	if got := MBeanOf(LastStableOffsetLag, "orders/0"); got != "kafka.cluster:type=Partition,name=LastStableOffsetLag,topic=orders,partition=0" {
		t.Errorf("MBean %q", got)
	}
}

func maxOf(vs []int64) int64 {
	m := int64(0)
	for _, v := range vs {
		m = max(m, v)
	}
	return m
}

// CSV quotes as encoding/csv does, so a spreadsheet or csv.Reader reads
// back each field as it was: the MBeans hold commas, a subject could hold
// a quote.
func TestCSVReadsBack(t *testing.T) {
	points := []Point{
		{At: 1200, Value: Value{LastStableOffsetLag, "orders/0", 3}},
		{At: 0, Value: Value{RecordRetries, `app "x", y`, -1}},
		{At: 5, Value: Value{HighWatermark, " lead", 0}},
		{At: 6, Value: Value{OngoingTransactions, `\.`, 2}},
	}
	var b strings.Builder
	w := csv.NewWriter(&b)
	w.Write([]string{"time_ms", "metric", "subject", "value", "mbean"})
	for _, p := range points {
		w.Write([]string{strconv.FormatInt(int64(p.At), 10), p.Metric.Name, p.Subject, strconv.FormatInt(p.Value.Value, 10), MBeanOf(p.Metric, p.Subject)})
	}
	w.Flush()
	if got := CSV(points); got != b.String() {
		t.Errorf("CSV:\n%s\nencoding/csv:\n%s", got, b.String())
	}
	rows, err := csv.NewReader(strings.NewReader(CSV(points))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != len(points)+1 || strings.Join(rows[0], ",")+"\n" != CSVHeader {
		t.Fatalf("rows: %q", rows)
	}
	for i, p := range points {
		want := []string{strconv.FormatInt(int64(p.At), 10), p.Metric.Name, p.Subject, strconv.FormatInt(p.Value.Value, 10), MBeanOf(p.Metric, p.Subject)}
		if !slices.Equal(rows[i+1], want) {
			t.Errorf("row %d: %q, want %q", i+1, rows[i+1], want)
		}
	}
}
