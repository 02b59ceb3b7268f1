package metrics

import (
	"strconv"
	"strings"
)

// CSVHeader is the first row of CSV: the columns of every row after it.
const CSVHeader = "time_ms,metric,subject,value,mbean\n"

// CSV writes points as `txnlab metrics` prints them and the playground's
// Metrics panel downloads them: a header, then one row a point (time in
// virtual milliseconds, Kafka's name, the subject, the value, the MBean
// with its tags filled in), quoted as encoding/csv quotes. It is here,
// not in the CLI, so that the two cannot drift apart; it builds a string
// rather than taking encoding/csv into the browser's wasm.
func CSV(points []Point) string {
	var b strings.Builder
	b.WriteString(CSVHeader)
	for _, p := range points {
		b.WriteString(strconv.FormatInt(int64(p.At), 10))
		for _, f := range []string{p.Metric.Name, p.Subject, strconv.FormatInt(p.Value.Value, 10), MBeanOf(p.Metric, p.Subject)} {
			b.WriteByte(',')
			writeField(&b, f)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// writeField writes one field, in double quotes (each inner one doubled)
// when encoding/csv would quote it: it holds a comma, a quote or a line
// break, starts with a space or a tab, or is `\.`.
func writeField(b *strings.Builder, f string) {
	if f != `\.` && !strings.ContainsAny(f, ",\"\r\n") && (f == "" || f[0] != ' ' && f[0] != '\t') {
		b.WriteString(f)
		return
	}
	b.WriteByte('"')
	b.WriteString(strings.ReplaceAll(f, `"`, `""`))
	b.WriteByte('"')
}
