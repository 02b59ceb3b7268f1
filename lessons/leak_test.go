package lessons

import (
	"html"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"txnlab/lessons/doc"
)

// A lesson asks before it tells (docs/lessons.md, "The leak check"): the
// text a learner reads between the previous question and this one must
// not state this question's answer. What counts as stating it is
// mechanical: the right choices' distinctive content (code spans, error
// names and state names that no wrong choice has) appearing in that
// text. After blocks, scenario scripts and exercises are not read: an
// after block is folded until the question is answered, and a
// question's playground keeps its script folded until then.

var (
	codeSpanRe  = regexp.MustCompile(`<code>(.*?)</code>`)
	errorNameRe = regexp.MustCompile(`\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b`)
	stateNameRe = regexp.MustCompile(`\b(?:Prepare(?:Commit|Abort|EpochFence)|Complete(?:Commit|Abort)|Ongoing|PreparingRebalance|CompletingRebalance)\b`)
	tagRe       = regexp.MustCompile(`<[^>]*>`)
)

// leakExceptions are questions whose answer the text above them names on
// purpose, with the reason. A stale entry (no leak any more) fails the
// test, so the list only shrinks with the leaks.
var leakExceptions = map[string]string{}

// distinctive is what only the right choices of q say.
func distinctive(q *doc.Question) []string {
	tokens := func(h string) map[string]bool {
		out := map[string]bool{}
		for _, m := range codeSpanRe.FindAllStringSubmatch(h, -1) {
			if c := strings.TrimSpace(html.UnescapeString(tagRe.ReplaceAllString(m[1], ""))); len(c) > 1 {
				out[c] = true
			}
		}
		text := html.UnescapeString(tagRe.ReplaceAllString(h, " "))
		for _, re := range []*regexp.Regexp{errorNameRe, stateNameRe} {
			for _, m := range re.FindAllString(text, -1) {
				out[m] = true
			}
		}
		return out
	}
	right, wrong := map[string]bool{}, map[string]bool{}
	for _, c := range q.Choices {
		into := wrong
		if c.Right {
			into = right
		}
		for k := range tokens(c.HTML) {
			into[k] = true
		}
	}
	var out []string
	for k := range right {
		if !wrong[k] && !mentionedIn(k, q.PromptHTML) {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

// mentionedIn reports whether token stands in the HTML h's text as a
// whole word (or, for a token with spaces or symbols, as a substring).
func mentionedIn(token, h string) bool {
	text := html.UnescapeString(tagRe.ReplaceAllString(h, " "))
	for i := 0; ; {
		j := strings.Index(text[i:], token)
		if j < 0 {
			return false
		}
		at := i + j
		before, after := byte(' '), byte(' ')
		if at > 0 {
			before = text[at-1]
		}
		if end := at + len(token); end < len(text) {
			after = text[end]
		}
		if !isWordByte(before) && !isWordByte(after) {
			return true
		}
		i = at + 1
	}
}

func isWordByte(b byte) bool {
	return b == '_' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z'
}

// leaks lists, for each question of a lesson, the distinctive tokens of
// its answer that the text since the previous question states.
func leaks(l *doc.Lesson) map[string][]string {
	out := map[string][]string{}
	var prose []string
	for _, seg := range l.Segments {
		switch {
		case seg.Question != "":
			q, _ := l.QuestionByID(seg.Question)
			text := strings.Join(prose, "\n")
			for _, tok := range distinctive(q) {
				if mentionedIn(tok, text) {
					out[q.ID] = append(out[q.ID], tok)
				}
			}
			prose = nil
		case seg.After != "", seg.Scenario != "", seg.Exercise != "":
		default:
			prose = append(prose, seg.HTML)
		}
	}
	return out
}

func TestNoQuestionIsAnsweredAboveIt(t *testing.T) {
	c := embedded(t)
	found := map[string]bool{}
	asked := map[string]bool{}
	for _, lang := range doc.Langs {
		for _, m := range c.Catalogue(lang) {
			l, _ := c.Lesson(lang, m.Slug)
			for _, q := range l.Questions {
				asked[q.ID] = true
				toks, leaked := leaks(l)[q.ID]
				if !leaked {
					continue
				}
				found[q.ID] = true
				if _, ok := leakExceptions[q.ID]; ok {
					continue
				}
				t.Errorf("%s (%s, line %d): the text since the previous question already says %s, which only the right answer has: ask first, and move what answers it into an after block",
					q.ID, lang, q.Line, strings.Join(toks, ", "))
			}
		}
	}
	for id := range leakExceptions {
		if !found[id] {
			t.Errorf("leakExceptions lists %s, whose answer is no longer stated above it: remove the entry", id)
		}
	}
	ids := make([]string, 0, len(found))
	for id := range found {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	t.Logf("%d of %d questions have their answer's distinctive content above them: %v", len(found), len(asked), ids)
}

// The check itself: a question whose right choice's error name stands in
// the paragraph above it is caught; the same text in an after block, or
// a name every choice shares, is not.
func TestTheLeakCheckCatchesAStatedAnswer(t *testing.T) {
	q := doc.Question{ID: "q-x", PromptHTML: "What does <code>commit</code> return?", Choices: []doc.Choice{
		{Key: "a", HTML: "It throws <code>PRODUCER_FENCED</code> in <code>commit</code>.", Right: true},
		{Key: "b", HTML: "It throws <code>INVALID_TXN_STATE</code> in <code>commit</code>."},
		{Key: "c", HTML: "It returns."},
	}}
	lesson := func(segs ...doc.Segment) *doc.Lesson {
		return &doc.Lesson{Questions: []doc.Question{q}, Segments: append(segs, doc.Segment{Question: "q-x"})}
	}
	if got := distinctive(&q); !slices.Equal(got, []string{"PRODUCER_FENCED"}) {
		t.Errorf("distinctive = %v, want [PRODUCER_FENCED]", got)
	}
	if got := leaks(lesson(doc.Segment{HTML: "<p>The zombie gets PRODUCER_FENCED.</p>"})); len(got["q-x"]) == 0 {
		t.Error("an answer stated in the text above was not caught")
	}
	if got := leaks(lesson(doc.Segment{After: "q-y", HTML: "<p>PRODUCER_FENCED</p>"}, doc.Segment{HTML: "<p>commit and INVALID_TXN_STATE and PRODUCER_FENCEDX</p>"})); len(got) != 0 {
		t.Errorf("caught %v in an after block, a wrong choice's name or a longer word", got)
	}
}
