package doc

import (
	"hash/fnv"
	"sort"
	"strings"
)

// A learner's own variant of a lesson (docs/lessons.md, "Variants" and
// "Choice order"): a scenario block may vary some of its values, and
// every question on it is drawn from the same values, so that no two
// learners need have the same answer; and the choices of a question are
// shown in an order of the learner's own. Both are pure functions of
// a seed the learner's progress keeps, so the browser, the tests and a
// reload all draw the same.

// Variants is how many variants vars describe: the product of their
// value counts (1 when nothing varies).
func Variants(vars []Var) int {
	n := 1
	for _, v := range vars {
		if len(v.Values) > 0 {
			n *= len(v.Values)
		}
	}
	return n
}

// Draw returns the values of variant n (taken modulo Variants), by name.
// Variant 0 is every variable's first value.
func Draw(vars []Var, n int) map[string]string {
	if len(vars) == 0 {
		return nil
	}
	if total := Variants(vars); n < 0 || n >= total {
		n = ((n % total) + total) % total
	}
	out := make(map[string]string, len(vars))
	for _, v := range vars {
		if len(v.Values) == 0 {
			continue
		}
		out[v.Name] = v.Values[n%len(v.Values)]
		n /= len(v.Values)
	}
	return out
}

// Fill replaces every {{NAME}} in s whose NAME vals has; other text,
// unknown names included, is left as it is.
func Fill(s string, vals map[string]string) string {
	if len(vals) == 0 || !strings.Contains(s, "{{") {
		return s
	}
	var b strings.Builder
	for {
		i := strings.Index(s, "{{")
		if i < 0 {
			break
		}
		j := strings.Index(s[i+2:], "}}")
		if j < 0 {
			break
		}
		name := s[i+2 : i+2+j]
		v, ok := vals[strings.TrimSpace(name)]
		b.WriteString(s[:i])
		if ok {
			b.WriteString(v)
		} else {
			b.WriteString(s[i : i+4+j])
		}
		s = s[i+4+j:]
	}
	b.WriteString(s)
	return b.String()
}

// Names lists the {{NAME}}s used in s, in order of first use.
func Names(s string) []string {
	var out []string
	for {
		i := strings.Index(s, "{{")
		if i < 0 {
			return out
		}
		j := strings.Index(s[i+2:], "}}")
		if j < 0 {
			return out
		}
		name := strings.TrimSpace(s[i+2 : i+2+j])
		found := false
		for _, n := range out {
			found = found || n == name
		}
		if !found {
			out = append(out, name)
		}
		s = s[i+4+j:]
	}
}

// Filled returns the scenario with vals put into its script, title,
// facts and actions.
func (s Scenario) Filled(vals map[string]string) Scenario {
	s.Script = Fill(s.Script, vals)
	s.Title = Fill(s.Title, vals)
	s.Facts = fillAll(s.Facts, vals)
	s.Actions = fillAll(s.Actions, vals)
	return s
}

// Filled returns a copy of the question with vals put into every text,
// expectation, query and answer it holds.
func (q Question) Filled(vals map[string]string) Question {
	if len(vals) == 0 {
		return q
	}
	q.PromptHTML = Fill(q.PromptHTML, vals)
	q.Answer = Fill(q.Answer, vals)
	q.ExplainHTML = Fill(q.ExplainHTML, vals)
	q.HintsHTML = fillAll(q.HintsHTML, vals)
	choices := make([]Choice, len(q.Choices))
	for i, c := range q.Choices {
		c.HTML = Fill(c.HTML, vals)
		c.When = fillAll(c.When, vals)
		choices[i] = c
	}
	q.Choices = choices
	ev := make([]EvidencePart, len(q.Evidence))
	for i, p := range q.Evidence {
		ev[i] = EvidencePart{Text: Fill(p.Text, vals), Code: Fill(p.Code, vals), Query: Fill(p.Query, vals)}
	}
	q.Evidence = ev
	return q
}

func fillAll(ss []string, vals map[string]string) []string {
	if ss == nil {
		return nil
	}
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = Fill(s, vals)
	}
	return out
}

// Order is the order in which a learner whose seed is seed sees the n
// choices of question id: a permutation of 0..n-1, the same on every
// visit. Seed 0 is the order a page without a learner shows (the
// server's HTML, print), which is also not the source's order, so that
// nothing a learner is graded on depends on where a choice is written.
func Order(seed uint32, id string, n int) []int {
	type keyed struct {
		i   int
		key uint64
	}
	base := hash(seed, id)
	ks := make([]keyed, n)
	for i := range ks {
		ks[i] = keyed{i, mix(base + uint64(i)*0x9e3779b97f4a7c15)}
	}
	sort.Slice(ks, func(a, b int) bool { return ks[a].key < ks[b].key })
	out := make([]int, n)
	for i, k := range ks {
		out[i] = k.i
	}
	return out
}

// hash is FNV-1a over a seed and a name.
func hash(seed uint32, name string) uint64 {
	h := fnv.New64a()
	h.Write([]byte{byte(seed), byte(seed >> 8), byte(seed >> 16), byte(seed >> 24)})
	h.Write([]byte(name))
	return h.Sum64()
}

// mix is SplitMix64's finaliser: nearby inputs give unrelated outputs,
// which FNV alone does not for inputs that differ in one byte.
func mix(z uint64) uint64 {
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// VariantOf is the variant a learner whose seed is seed draws for a
// scenario, the tries'th time they ask for another: a pure function, so
// a reload shows the same one.
func VariantOf(seed uint32, scenario string, tries int) int {
	return int(mix(hash(seed, scenario))>>34) + tries
}
