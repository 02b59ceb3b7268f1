package uitext

import (
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

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

// Piece is a part of a text a page shows: prose, or code (a value, an
// identifier, a statement), which is the same in every language.
type Piece struct {
	Text string
	Code bool
}

func prose(s string) Piece { return Piece{Text: s} }
func code(s string) Piece  { return Piece{Text: s, Code: true} }

// expectPhrases are the core's whole phrases (core/scenario's expect
// statements), in Chinese. A test asserts that failing expectations
// produce each of them, so that none is stale.
var expectPhrases = map[string][]Piece{
	"no violation":                       {prose("没有发现违反")},
	"every invariant holds":              {prose("每个不变量都成立")},
	"a violation of any invariant":       {prose("任一不变量被违反")},
	"no call made":                       {prose("还没有发出调用")},
	"no call has returned":               {prose("还没有调用返回")},
	"no admin command has run":           {prose("还没有运行过管理命令")},
	"no admin command has returned":      {prose("还没有管理命令返回")},
	"work still outstanding (run first)": {prose("仍有未完成的工作（先 "), code("run"), prose("）")},
	"the coordinator's metadata":         {prose("协调者的元数据")},
	"a healed, quiet cluster where every invariant holds and every decided transaction completed": {
		prose("已恢复且安静的集群上，每个不变量都成立，每个已作出决定的事务都已完成")},
	"the network has a cut, drop or delay rule (heal)": {
		prose("网络上还有 "), code("cut"), prose("、"), code("drop"), prose(" 或 "), code("delay"), prose(" 规则（先 "), code("heal"), prose("）")},
}

// expectForms are the core's phrases around values: en is the English
// with %s where each value goes, zh the Chinese pieces, with an empty
// code piece where each value goes, in the same order.
var expectForms = []struct {
	en string
	zh []Piece
}{
	{"a violation of %s", []Piece{code(""), prose(" 被违反")}},
	{"at least one %s", []Piece{prose("至少一个 "), code("")}},
	{"no live coordinator for %s", []Piece{code(""), prose(" 没有存活的协调者")}},
	{"no live group coordinator for %s", []Piece{code(""), prose(" 没有存活的组协调者")}},
	{"%s is crashed", []Piece{code(""), prose(" 已崩溃")}},
	{"%s is paused", []Piece{code(""), prose(" 已暂停")}},
	{"%s returned %s", []Piece{code(""), prose(" 返回了 "), code("")}},
	{"(%s failed: %s)", []Piece{prose("（"), code(""), prose(" 失败："), code(""), prose("）")}},
	{"no fetch answer for %s sent to %s", []Piece{prose("发给 "), code(""), prose(" 的拉取应答里没有 "), code("")}},
	{"found %s", []Piece{prose("找到 "), code("")}},
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
	if zh, ok := expectPhrases[v]; ok {
		return zh
	}
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
	for _, f := range expectForms {
		if vals, ok := fill(f.en, v); ok {
			out := make([]Piece, len(f.zh))
			copy(out, f.zh)
			for i, j := range out {
				if j.Code && j.Text == "" {
					out[i].Text, vals = vals[0], vals[1:]
				}
			}
			return out
		}
	}
	if out, ok := violationPieces(v); ok {
		return out
	}
	return []Piece{code(v)}
}

// fill matches v against a form whose values are %s, each a value as a
// script writes it (valueLike): the values, in order.
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
// what it is and the identifiers and values its English message names.
// It reports false when v is not findings.
func violationPieces(v string) ([]Piece, bool) {
	var out []Piece
	for i, part := range strings.Split(v, "; ") {
		head, msg, ok := strings.Cut(part, ": ")
		inv, anomaly, _ := strings.Cut(head, " (Kafka's own anomaly ")
		if _, known := safety.InvariantByName(inv); !ok || !known {
			if i == 0 {
				return nil, false
			}
			msg = part // a finding's own "; ", inside its message
		} else {
			if i > 0 {
				out = append(out, prose(" "))
			}
			out = append(out, code(inv))
			if a, ok := strings.CutSuffix(anomaly, ")"); ok {
				out = append(out, prose("（Kafka 自身的异常 "), code(a), prose("）"))
			}
			out = append(out, prose("："+Tr(doc.Chinese, "err.violation")))
		}
		for j, id := range ErrorIdentifiers(msg) {
			if j == 0 {
				out = append(out, prose(Tr(doc.Chinese, "err.names.lead")))
			} else {
				out = append(out, prose("、"))
			}
			out = append(out, code(id))
		}
		if out[len(out)-1].Code {
			out = append(out, prose("。"))
		}
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

// PiecesUI is pieces as go-app elements: code as <code>.
func PiecesUI(ps []Piece) []app.UI {
	out := make([]app.UI, 0, len(ps))
	for _, p := range ps {
		if p.Code {
			out = append(out, app.Code().Text(p.Text))
		} else if p.Text != "" {
			out = append(out, app.Text(p.Text))
		}
	}
	return out
}
