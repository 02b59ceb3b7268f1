package uitext

import (
	"strings"

	"txnlab/core/safety"
	"txnlab/lessons/doc"
)

// An expectation that does not hold says what it wanted and what the run
// has (scenario.Result's Expected and Actual). Most of those are values
// written as the script writes them (CompleteCommit, p1:v1 COMMIT(p1),
// broker-2, 3), the same in every language; some are the core's English
// phrases ("no violation", "Produce returned PRODUCER_FENCED", a
// checker's message). A Chinese page shows the values as code and says
// the phrases in Chinese, so that code never carries an English sentence.

// expectTexts are the core's phrases (core/scenario's expect
// statements) and their Chinese. In en, %s is a value as a script
// writes it; in zh, each %s takes the next value and `…` marks code, so
// that the table is data, not code to build it (a table of pieces cost
// the wasm 30 kB). A test asserts that failing expectations produce
// each of them, so that none is stale.
var expectTexts = []struct{ en, zh string }{
	{"no violation", "没有发现违反"},
	{"every invariant holds", "每个不变量都成立"},
	{"a violation of any invariant", "任一不变量被违反"},
	{"no call made", "还没有发出调用"},
	{"no call has returned", "还没有调用返回"},
	{"no admin command has run", "还没有运行过管理命令"},
	{"no admin command has returned", "还没有管理命令返回"},
	{"work still outstanding (run first)", "仍有未完成的工作（先 `run`）"},
	{"the coordinator's metadata", "协调器的元数据"},
	{"a healed, quiet cluster where every invariant holds and every decided transaction completed",
		"已恢复且安静的集群上，每个不变量都成立，每个已作出决定的事务都已完成"},
	{"the network has a cut, drop or delay rule (heal)", "网络上还有 `cut`、`drop` 或 `delay` 规则（先 `heal`）"},
	{"a violation of %s", "%s 被违反"},
	{"at least one %s", "至少一个 %s"},
	{"no live coordinator for %s", "%s 没有存活的协调器"},
	{"no live group coordinator for %s", "%s 没有存活的组协调器"},
	{"%s is crashed", "%s 已崩溃"},
	{"%s is paused", "%s 已暂停"},
	{"%s returned %s", "%s 返回了 %s"},
	{"(%s failed: %s)", "（%s 失败：%s）"},
	{"no fetch answer for %s sent to %s", "发给 %[2]s 的拉取应答里没有 %[1]s"},
	{"found %s", "找到 %s"},
}

// expectLeads are the core's phrases before a further phrase; sep
// separates several (not healed: broker-1 is crashed; …).
var expectLeads = []struct{ en, zh, sep string }{
	{"on a healed, quiet cluster, ", "在已恢复且安静的集群上，", ""},
	{"not healed: ", "集群尚未恢复：", "; "},
}

// ExpectationValue is an expectation's wanted or found value (Expected,
// Actual) for a page in lang: code in English; in Chinese, its values as
// code and the core's phrases in Chinese. A checker's findings are said
// as the inspector says them (ViolationText): the invariant, what it
// is, and the identifiers its English message names.
func ExpectationValue(lang, v string) []Piece {
	if doc.Lang(lang) != doc.Chinese {
		return []Piece{code(v)}
	}
	return expectationZh(v)
}

func expectationZh(v string) []Piece {
	for _, l := range expectLeads {
		rest, ok := strings.CutPrefix(v, l.en)
		if !ok {
			continue
		}
		out := []Piece{prose(l.zh)}
		parts := []string{rest}
		if l.sep != "" {
			parts = strings.Split(rest, l.sep)
		}
		for i, p := range parts {
			if i > 0 {
				out = append(out, prose("；"))
			}
			out = append(out, expectationZh(p)...)
		}
		return out
	}
	for _, t := range expectTexts {
		if vals, ok := fill(t.en, v); ok {
			return zhPieces(t.zh, vals)
		}
	}
	if out, ok := violationPieces(v); ok {
		return out
	}
	return []Piece{code(v)}
}

// fill matches v against a form whose values are %s, each a value as a
// script writes it (valueLike): the values, in order (none for a whole
// phrase).
func fill(form, v string) ([]string, bool) {
	lits := strings.Split(form, "%s")
	rest, ok := strings.CutPrefix(v, lits[0])
	if !ok {
		return nil, false
	}
	var vals []string
	for _, lit := range lits[1:] {
		var val string
		if lit == "" {
			val, rest = rest, ""
		} else if val, rest, ok = strings.Cut(rest, lit); !ok {
			return nil, false
		}
		if !valueLike(val) {
			return nil, false
		}
		vals = append(vals, val)
	}
	return vals, rest == ""
}

// violationPieces is a checker's findings ("fencing: …; atomicity (Kafka's
// own anomaly …): …") said in Chinese: each finding's invariant, then
// its message as the inspector says it (ViolationPieces). It reports
// false when v is not findings.
func violationPieces(v string) ([]Piece, bool) {
	type finding struct{ inv, anomaly, msg string }
	var fs []finding
	for i, part := range strings.Split(v, "; ") {
		head, msg, ok := strings.Cut(part, ": ")
		inv, anomaly, _ := strings.Cut(head, " (Kafka's own anomaly ")
		if _, known := safety.InvariantByName(inv); !ok || !known {
			if i == 0 {
				return nil, false
			}
			fs[len(fs)-1].msg += "; " + part // a finding's own "; ", inside its message
			continue
		}
		a, _ := strings.CutSuffix(anomaly, ")")
		fs = append(fs, finding{inv, a, msg})
	}
	var out []Piece
	for i, f := range fs {
		if i > 0 {
			out = append(out, prose(" "))
		}
		out = append(out, code(f.inv))
		if f.anomaly != "" {
			out = append(out, prose("（"+Tr(doc.Chinese, "violation.anomaly")+" "), code(f.anomaly), prose("）"))
		}
		out = append(out, prose("："))
		out = append(out, ViolationPieces(string(doc.Chinese), f.msg)...)
	}
	return out, true
}

// valueLike reports whether a text is values only, as a script writes
// them (no two plain words in a row): an identifier, a number, a field
// (epoch=0, state=Ongoing), a log (p1:v1 COMMIT(p1)), a word of the
// language (none, absent, ok), a statement's kind with its figures.
func valueLike(s string) bool {
	if s == "" {
		return false
	}
	plain := 0
	for _, w := range strings.Fields(s) {
		bare := strings.Trim(w, ",:;()[]")
		if bare != "" && !IsIdentifier(bare) && allLetters(bare) {
			plain++
			if plain == 2 {
				return false
			}
			continue
		}
		plain = 0
	}
	return true
}

func allLetters(w string) bool {
	for i := 0; i < len(w); i++ {
		if !isLetter(w[i]) && w[i] != '\'' {
			return false
		}
	}
	return true
}
