package lessons

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"testing/fstest"

	"txnlab/lessons/doc"
)

const (
	en = "02-one-transaction.md"
	zh = "02-one-transaction.zh.md"
)

// courseFS is testdata/course, a small valid course, as a file system the
// cases can edit.
func courseFS(t testing.TB) fstest.MapFS {
	t.Helper()
	fsys := fstest.MapFS{}
	names, err := filepath.Glob("testdata/course/*.md")
	if err != nil || len(names) == 0 {
		t.Fatalf("testdata/course: %v", err)
	}
	for _, name := range names {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		fsys[filepath.Base(name)] = &fstest.MapFile{Data: data}
	}
	return fsys
}

// replace edits one file of fsys, failing the test if old is not in it.
func replace(t *testing.T, fsys fstest.MapFS, file, old, new string) {
	t.Helper()
	f, ok := fsys[file]
	if !ok || !strings.Contains(string(f.Data), old) {
		t.Fatalf("%s has no %q", file, old)
	}
	f.Data = []byte(strings.Replace(string(f.Data), old, new, 1))
}

// both edits the same text in both twins.
func both(t *testing.T, fsys fstest.MapFS, old, new string) {
	t.Helper()
	replace(t, fsys, en, old, new)
	replace(t, fsys, zh, old, new)
}

// loadErrors loads fsys and returns its errors as lines.
func loadErrors(t *testing.T, fsys fstest.MapFS) []string {
	t.Helper()
	c, err := Load(fsys)
	if err == nil {
		if c == nil {
			t.Fatal("Load returned neither a course nor an error")
		}
		return nil
	}
	if c != nil {
		t.Error("Load returned a course and an error")
	}
	var list ErrorList
	if !errors.As(err, &list) {
		t.Fatalf("Load: %v is not an ErrorList", err)
	}
	return strings.Split(err.Error(), "\n")
}

func TestLoadCourse(t *testing.T) {
	c, err := Load(courseFS(t))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := c.Slugs(), []string{"01-why", "02-one-transaction"}; !reflect.DeepEqual(got, want) {
		t.Errorf("Slugs() = %v, want %v", got, want)
	}
	cat := c.Catalogue(doc.Chinese)
	if len(cat) != 2 || cat[0].Title != "为什么需要事务" || cat[1].Order != 2 || cat[1].Lang != doc.Chinese {
		t.Errorf("Lessons(zh) = %+v", cat)
	}
	l, ok := c.Lesson(doc.English, "02-one-transaction")
	if !ok {
		t.Fatal("no lesson 02-one-transaction")
	}
	if _, ok := c.Lesson(doc.English, "03-none"); ok {
		t.Error("Lesson found a lesson that does not exist")
	}
	wantSegs := []doc.Segment{
		{HTML: "<h1 id=\"one-transaction\">One transaction</h1>\n<p>Text with <!-- raw HTML omitted -->raw<!-- raw HTML omitted --> HTML.</p>\n"},
		{Scenario: "commit"},
		{Question: "q-commit"},
		{HTML: "<p>After.</p>\n"},
	}
	if !reflect.DeepEqual(l.Segments, wantSegs) {
		t.Errorf("Segments = %#v\nwant %#v", l.Segments, wantSegs)
	}
	s, ok := l.ScenarioByID("commit")
	if !ok || s.Title != "A commit" || s.Line != 11 || !reflect.DeepEqual(s.Facts, []string{"txn tx state", "partition orders/0 lso"}) ||
		!strings.HasPrefix(s.Script, "cluster brokers=1\ntopic orders") || !strings.HasSuffix(s.Script, "expect p ok\n") {
		t.Errorf("scenario = %+v", s)
	}
	q, ok := l.QuestionByID("q-commit")
	if !ok {
		t.Fatal("no question q-commit")
	}
	wantQ := doc.Question{
		ID: "q-commit", Scenario: "commit", Stop: 8,
		PromptHTML: "What does <code>commit</code> return?",
		Choices: []doc.Choice{
			{Key: "a", HTML: "It returns.", Right: true, When: []string{"expect p ok"}},
			{Key: "b", HTML: "It throws.", When: []string{"expect p error PRODUCER_FENCED"}},
		},
		HintsHTML:   []string{"Nothing fails here."},
		ExplainHTML: "Nothing <em>fails</em>.",
		Evidence: []doc.EvidencePart{
			{Text: "The call returned "}, {Query: "producer p result"},
			{Text: "; the transaction is "}, {Query: "txn tx state"}, {Text: "."},
		},
		Line: 23,
	}
	if !reflect.DeepEqual(*q, wantQ) {
		t.Errorf("question = %#v\nwant %#v", *q, wantQ)
	}
	zhl, _ := c.Lesson(doc.Chinese, "02-one-transaction")
	wantEv := []doc.EvidencePart{
		{Text: "调用返回了 "}, {Query: "producer p result"}, {Text: "；事务处于"},
		{Query: "txn tx state"}, {Text: " 状态，"}, {Code: "commit"}, {Text: " 已完成。"},
	}
	if got := zhl.Questions[0].Evidence; !reflect.DeepEqual(got, wantEv) {
		t.Errorf("zh evidence = %#v\nwant %#v", got, wantEv)
	}
	if got := zhl.Questions[0].PromptHTML; got != "<code>commit</code> 返回什么？" {
		t.Errorf("zh prompt = %q: a Chinese line break is no space", got)
	}
	html := c.HTML(doc.English, "02-one-transaction")
	for _, want := range []string{
		`<figure class="lesson-scenario" data-scenario="commit"><figcaption>A commit</figcaption><pre><code>cluster brokers=1`,
		`<div class="question" data-question="q-commit" data-state="unanswered">`,
		`<input type="radio" name="q-commit" value="b" disabled> It throws.`,
		"<p>After.</p>\n",
	} {
		if !strings.Contains(html, want) {
			t.Errorf("HTML has no %q:\n%s", want, html)
		}
	}
	if c.HTML(doc.Chinese, "nope") != "" {
		t.Error("HTML of a lesson that does not exist is not empty")
	}
}

func TestLoadErrors(t *testing.T) {
	tests := []struct {
		name string
		edit func(t *testing.T, fsys fstest.MapFS)
		want []string
	}{
		{"an empty fact", func(t *testing.T, fsys fstest.MapFS) {
			replace(t, fsys, en, `facts="txn tx state; partition orders/0 lso"`, `facts="txn tx state;; partition orders/0 lso"`)
		}, []string{en + `:11: scenario facts: an empty query (facts are queries separated by ;)`}},
		{"actions", func(t *testing.T, fsys fstest.MapFS) {
			replace(t, fsys, en, `facts="txn tx state; partition orders/0 lso"`, `facts="txn tx state; partition orders/0 lso" actions="crash broker-0; expect invariants; crsh broker-1; "`)
		}, []string{
			en + `:11: scenario actions: an empty statement (actions are statements separated by ;)`,
			en + `:11: scenario actions: "expect invariants": an action is one statement that does something (crash broker-1, pause app, …), not an expectation`,
			en + `:11: scenario actions: "crsh broker-1": unknown statement "crsh"; did you mean "crash"? (column 1)`,
		}},
		{"step links", func(t *testing.T, fsys fstest.MapFS) {
			replace(t, fsys, en, "Text with <b>raw</b> HTML.", "Text with <b>raw</b> HTML.\n\nSee [the init](#step:comit:3), [this](#step:commit:x),\n[a blank](#step:commit:99) and [the commit](#step:commit:1).")
		}, []string{
			en + `:11: step link #step:comit:3: no scenario block "comit" in this lesson; did you mean "commit"?`,
			en + ":11: step link #step:commit:x: expected #step:SCENARIO:LINE with LINE a line of that block's script",
			en + ":11: step link #step:commit:99: line 99 is past the end of scenario commit (its script has 9 lines)",
		}},
		{"no front matter", func(t *testing.T, fsys fstest.MapFS) {
			replace(t, fsys, "01-why.md", "---\ntitle: Why transactions\nsummary: Duplicates and partial writes.\norder: 1\n---\n", "")
		}, []string{"01-why.md:1: a lesson starts with front matter: a --- line, then title:, summary: and order: lines, then ---"}},
		{"unclosed front matter", func(t *testing.T, fsys fstest.MapFS) {
			replace(t, fsys, "01-why.md", "order: 1\n---\n", "order: 1\n")
		}, []string{"01-why.md:1: front matter: no closing --- line"}},
		{"unknown front matter key", func(t *testing.T, fsys fstest.MapFS) {
			replace(t, fsys, "01-why.md", "summary:", "sumary:")
		}, []string{
			`01-why.md:3: front matter: unknown key "sumary"; did you mean "summary"? (keys: title, summary, order)`,
			"01-why.md:5: front matter: missing summary:",
		}},
		{"front matter line without a colon", func(t *testing.T, fsys fstest.MapFS) {
			replace(t, fsys, "01-why.md", "order: 1\n", "order: 1\nauthor\n")
		}, []string{`01-why.md:5: front matter: "author" is not a key: value line`}},
		{"missing front matter key", func(t *testing.T, fsys fstest.MapFS) {
			replace(t, fsys, "01-why.zh.md", "title: 为什么需要事务\n", "")
		}, []string{"01-why.zh.md:4: front matter: missing title:"}},
		{"duplicate front matter key", func(t *testing.T, fsys fstest.MapFS) {
			replace(t, fsys, "01-why.md", "order: 1\n", "order: 1\norder: 1\n")
		}, []string{"01-why.md:5: front matter: order given twice (first at line 4)"}},
		{"bad order", func(t *testing.T, fsys fstest.MapFS) {
			replace(t, fsys, "01-why.md", "order: 1", "order: one")
		}, []string{`01-why.md:4: front matter: order "one" must be a whole number from 0 to 99`}},
		{"twins with different orders", func(t *testing.T, fsys fstest.MapFS) {
			replace(t, fsys, zh, "order: 2", "order: 3")
		}, []string{zh + ":4: order 3 differs from the English twin's order 2 (" + en + ":4)"}},
		{"a lesson without its Chinese twin", func(t *testing.T, fsys fstest.MapFS) {
			delete(fsys, "01-why.zh.md")
		}, []string{"01-why.md:1: no Chinese twin: 01-why.zh.md is missing"}},
		{"a lesson without its English twin", func(t *testing.T, fsys fstest.MapFS) {
			delete(fsys, "01-why.md")
		}, []string{"01-why.zh.md:1: no English twin: 01-why.md is missing"}},
		{"a file that is not UTF-8", func(t *testing.T, fsys fstest.MapFS) {
			replace(t, fsys, "01-why.md", "Just text.", "Just \x82\ntext.")
		}, []string{"01-why.md:7: the file is not valid UTF-8"}},
		{"a file name that is not NN-slug.md", func(t *testing.T, fsys fstest.MapFS) {
			fsys["README.md"] = &fstest.MapFile{Data: []byte("# readme\n")}
		}, []string{"README.md:1: a lesson file is named NN-slug.md or NN-slug.zh.md (slug: lowercase letters, digits and -)"}},
		{"unknown block attribute", func(t *testing.T, fsys fstest.MapFS) {
			replace(t, fsys, en, `title="A commit"`, `titel="A commit"`)
		}, []string{
			en + `:11: unknown scenario attribute "titel"; did you mean "title"? (known: id, title, facts, actions, vary)`,
			en + ":11: scenario block needs a title= attribute",
		}},
		{"an after block before its question, and one for no question", func(t *testing.T, fsys fstest.MapFS) {
			replace(t, fsys, en, "```question id=q-commit", "```after question=q-commit\nWhy.\n```\n\n```after question=q-comit\nWhy.\n```\n\n```question id=q-commit")
		}, []string{
			en + ":23: after question=q-commit: the after block comes before its question (it holds the answer: ask first)",
			en + ":27: after question=q-comit: no such question in this lesson",
		}},
		{"a live block inside an after block", func(t *testing.T, fsys fstest.MapFS) {
			replace(t, fsys, en, "After.", "````after question=q-commit\nWhy:\n```scenario id=x title=x\ncluster brokers=1\n```\n````")
		}, []string{en + ":38: a scenario block cannot be inside an after block"}},
		{"vary", func(t *testing.T, fsys fstest.MapFS) {
			replace(t, fsys, en, `facts="txn tx state; partition orders/0 lso"`, `vary="id=tx|ty; Bad=1|2; one=x; id=a|b; n=a b|c" facts="txn tx state; partition orders/0 lso"`)
		}, []string{
			en + `:11: scenario vary: "Bad=1|2" is not NAME=V1|V2`,
			en + ":11: scenario vary: one needs at least two values",
			en + ":11: scenario vary: id is given twice",
			en + `:11: scenario vary: n: the value "a b" must be a word`,
			en + ":11: scenario vary: n needs at least two values",
		}},
		{"a name no vary= gives", func(t *testing.T, fsys fstest.MapFS) {
			replace(t, fsys, en, "transactional.id=tx", "transactional.id={{id}}")
			replace(t, fsys, en, "What does `commit` return?", "What does `commit` of {{who}} return?")
		}, []string{
			en + ":11: scenario commit: {{id}} is not one of its vary= names",
			en + ":23: question q-commit: {{who}} is not one of scenario commit's vary= names",
		}},
		{"a variant that does not parse", func(t *testing.T, fsys fstest.MapFS) {
			replace(t, fsys, en, `facts="txn tx state; partition orders/0 lso"`, `vary="n=1|x" facts="txn tx state; partition orders/0 lso"`)
			replace(t, fsys, en, "cluster brokers=1", "cluster brokers={{n}}")
		}, []string{en + ":11: scenario commit: variant n=x: "}},
		{"a varied question checked in variant 0", func(t *testing.T, fsys fstest.MapFS) {
			replace(t, fsys, en, `facts="txn tx state; partition orders/0 lso"`, `vary="who=p|q" facts="txn tx state; partition orders/0 lso"`)
			replace(t, fsys, en, "  when: expect p ok", "  when: expect {{who}} ok")
		}, []string{}},
		{"a variant's value in the server's page", func(t *testing.T, fsys fstest.MapFS) {
			both(t, fsys, `facts="txn tx state; partition orders/0 lso"`, `vary="id=tx|ty" facts="txn tx state; partition orders/0 lso"`)
			both(t, fsys, "transactional.id=tx", "transactional.id={{id}}")
			replace(t, fsys, en, "What does `commit` return?", "What does `commit` of `{{id}}` return?")
			c, err := Load(fsys)
			if err != nil {
				t.Fatal(err)
			}
			h := c.HTML(doc.English, "02-one-transaction")
			if strings.Contains(h, "{{") || !strings.Contains(h, "transactional.id=tx") || !strings.Contains(h, "<code>tx</code>") {
				t.Errorf("the page does not show variant 0:\n%s", h)
			}
			l, _ := c.Lesson(doc.English, "02-one-transaction")
			if !strings.Contains(l.Scenarios[0].Script, "{{id}}") {
				t.Error("the browser's data lost the {{id}} it fills in")
			}
		}, nil},
		{"{{ in the lesson's text", func(t *testing.T, fsys fstest.MapFS) {
			replace(t, fsys, en, "Text with <b>raw</b> HTML.", "Text with {{id}}.")
		}, []string{en + ":9: {{…}} is for a varied scenario's blocks"}},
		{"a number question", func(t *testing.T, fsys fstest.MapFS) {
			replace(t, fsys, en, "- [x] It returns.\n  when: expect p ok\n- [ ] It throws.\n  when: expect p error PRODUCER_FENCED\n", "answer: producer x pid\nanswer: clock\n")
		}, []string{
			en + ":26: answer: query {producer x pid}: ",
			en + ":27: question: a second answer:",
		}},
		{"an answer and choices", func(t *testing.T, fsys fstest.MapFS) {
			replace(t, fsys, en, "hint: Nothing fails here.", "answer: clock\nhint: Nothing fails here.")
		}, []string{en + ":31: question: answer: is for a question answered by typing a value; this one has choices"}},
		{"exercises", func(t *testing.T, fsys fstest.MapFS) {
			replace(t, fsys, zh, "之后。", "```exercise id=x-one kind=attack break=epoch-fencing\n做。\nstart:\n  cluster brokers=1\nexplain: e\nsolution:\n  cluster brokers=1\nwrong:\n  cluster brokers=1\n```\n\n```exercise id=x-one kind=goal\n做。\nstart:\n  cluster brokers=1\ngoal: expect invariants\nexplain: e\nsolution:\n  cluster brokers=1\nwrong:\n  cluster brokers=1\n```")
			replace(t, fsys, en, "After.", "```exercise id=x-one kind=attack break=epoch-fencng catches=atomcity\nDo it.\nstart:\n  cluster brokers=1\ngoal: expect p ok\nexplain: e\nsolution:\n  cluster brokers=1\n  crsh broker-0\n```\n\n```exercise id=x-one kind=goal\nstart:\n  cluster brokers=1\nexplain: e\nsolution:\ncluster brokers=1\nwrong:\n  cluster brokers=1\n```")
		}, []string{
			en + `:36: exercise break="epoch-fencng" is not a mechanism`,
			en + `:36: exercise catches: "atomcity" is not an invariant`,
			en + ":36: exercise has no wrong: script",
			en + `:40: goal: unknown client "p"`,
			en + `:44: exercise x-one solution: unknown statement "crsh"`,
			en + ":47: exercise has no prompt",
			en + ":47: a goal exercise needs at least one goal: line",
			en + ":47: duplicate exercise id \"x-one\" (first at " + en + ":36)",
			en + ":52: exercise: the lines of solution: are indented",
			zh + ":50: duplicate exercise id \"x-one\"",
		}},
		{"exercises out of step between the twins", func(t *testing.T, fsys fstest.MapFS) {
			replace(t, fsys, en, "After.", "```exercise id=x-one kind=goal\nDo it.\nstart:\n  cluster brokers=1\ngoal: expect invariants\nexplain: e\nsolution:\n  cluster brokers=1\nwrong:\n  cluster brokers=1\n```")
		}, []string{en + `:36: exercise "x-one" has no counterpart in the Chinese twin`}},
		{"unknown question attribute", func(t *testing.T, fsys fstest.MapFS) {
			replace(t, fsys, en, "stop=8", "stop=8 multple=true")
		}, []string{en + `:23: unknown question attribute "multple"; did you mean "multiple"? (known: id, scenario, stop, multiple)`}},
		{"attribute not key=value", func(t *testing.T, fsys fstest.MapFS) {
			replace(t, fsys, en, "stop=8", "stop=8 multiple")
		}, []string{en + `:23: question block: attribute "multiple" is not key=value`}},
		{"unclosed quote", func(t *testing.T, fsys fstest.MapFS) {
			replace(t, fsys, en, `title="A commit" facts="txn tx state; partition orders/0 lso"`, `title="A commit`)
		}, []string{
			en + `:11: scenario block: the quoted value of "title" has no closing "`,
			en + ":11: scenario block needs a title= attribute",
		}},
		{"missing required attribute", func(t *testing.T, fsys fstest.MapFS) {
			both(t, fsys, " scenario=commit", "")
		}, []string{
			en + ":23: question block needs a scenario= attribute",
			zh + ":23: question block needs a scenario= attribute",
		}},
		{"bad ids", func(t *testing.T, fsys fstest.MapFS) {
			both(t, fsys, "id=q-commit", "id=commit-q")
		}, []string{
			en + `:23: question id "commit-q" must be q- then lowercase letters, digits and -`,
			zh + `:23: question id "commit-q" must be q- then lowercase letters, digits and -`,
		}},
		{"duplicate scenario ids", func(t *testing.T, fsys fstest.MapFS) {
			replace(t, fsys, en, "\nAfter.\n", "\n```scenario id=commit title=again\ncluster brokers=1\n```\n")
			replace(t, fsys, zh, "\n之后。\n", "\n```scenario id=commit title=again\ncluster brokers=1\n```\n")
		}, []string{
			en + `:36: duplicate scenario id "commit" (first at line 11)`,
			zh + `:39: duplicate scenario id "commit" (first at line 11)`,
		}},
		{"a prompt and a title said twice", func(t *testing.T, fsys fstest.MapFS) {
			again := func(title, prompt string) string {
				return "\n```scenario id=again title=\"" + title + "\"\ncluster brokers=1\n```\n" +
					"\n```question id=q-again scenario=again\n" + prompt + "\n- [x] a\n  when: expect invariants\n- [ ] b\n  when: expect invariants\nexplain: e\nevidence: {clock}\n```\n"
			}
			replace(t, fsys, en, "\nAfter.\n", "\nAfter.\n"+again("A commit", "What does `commit` return?"))
			replace(t, fsys, zh, "\n之后。\n", "\n之后。\n"+again("另一次提交", "另一个问题？"))
		}, []string{
			en + ":38: scenario again: its title is the one at line 11; each playground on a page needs a title of its own",
			en + ":42: question q-again: its prompt is the one at line 23; each question on a page needs a prompt of its own",
		}},
		{"duplicate question ids across lessons", func(t *testing.T, fsys fstest.MapFS) {
			q := "\n```question id=q-commit scenario=w\nWhy?\n- [x] a\n  when: expect invariants\n- [ ] b\n  when: expect invariants\nexplain: e\nevidence: {clock}\n```\n" +
				"\n```scenario id=w title=w\ncluster brokers=1\n```\n"
			replace(t, fsys, "01-why.md", "Just text.\n", "Just text.\n"+q)
			replace(t, fsys, "01-why.zh.md", "只有文字。\n", "只有文字。\n"+q)
		}, []string{
			en + `:23: duplicate question id "q-commit" (first at 01-why.md:9)`,
			zh + `:23: duplicate question id "q-commit" (first at 01-why.zh.md:9)`,
		}},
		{"a script that does not parse", func(t *testing.T, fsys fstest.MapFS) {
			replace(t, fsys, en, "p send orders/0 k=v1", "p sned orders/0 k=v1")
		}, []string{en + `:18: scenario commit: unknown producer action "sned"; did you mean "send"? (a producer can init, begin, send, send-offsets, commit, abort, close) (column 3)`}},
		{"an empty scenario", func(t *testing.T, fsys fstest.MapFS) {
			replace(t, fsys, en, "```\n\n```question", "```\n\n```scenario id=empty title=e\n```\n\n```question")
		}, []string{
			en + ":23: scenario block has no script",
			en + `:23: scenario "empty" has no counterpart in the Chinese twin ` + zh + " (both languages have the same scenario blocks, in the same order)",
		}},
		{"a question naming a scenario not in the lesson", func(t *testing.T, fsys fstest.MapFS) {
			replace(t, fsys, en, "scenario=commit", "scenario=comit")
		}, []string{en + `:23: question q-commit: no scenario block "comit" in this lesson; did you mean "commit"?`}},
		{"stop on a blank line", func(t *testing.T, fsys fstest.MapFS) {
			replace(t, fsys, en, "stop=8", "stop=4")
		}, []string{en + ":23: question q-commit: stop=4 is not a statement of scenario commit (line 4 of its script, file line 15, is blank or a comment)"}},
		{"stop past the end", func(t *testing.T, fsys fstest.MapFS) {
			replace(t, fsys, en, "stop=8", "stop=99")
		}, []string{en + ":23: question q-commit: stop=99 is past the end of scenario commit (its script has 9 lines)"}},
		{"stop not a number", func(t *testing.T, fsys fstest.MapFS) {
			replace(t, fsys, en, "stop=8", "stop=eight")
		}, []string{en + `:23: question stop="eight" must be a line number of the scenario's script (1 or more)`}},
		{"a choice without when", func(t *testing.T, fsys fstest.MapFS) {
			replace(t, fsys, en, "  when: expect p error PRODUCER_FENCED\n", "")
		}, []string{en + ":28: question: a choice needs at least one when: line (an expect statement that holds when the choice is what happened)"}},
		{"when before any choice", func(t *testing.T, fsys fstest.MapFS) {
			replace(t, fsys, en, "What does `commit` return?\n", "What does `commit` return?\nwhen: expect p ok\n")
		}, []string{en + ":25: question: when: belongs under a choice (- [ ] or - [x])"}},
		{"a when that is not an expect statement", func(t *testing.T, fsys fstest.MapFS) {
			replace(t, fsys, en, "when: expect p ok", "when: p commit")
		}, []string{en + `:27: when: "p commit" is not an expect statement (when: expect …)`}},
		{"a when that does not parse", func(t *testing.T, fsys fstest.MapFS) {
			replace(t, fsys, en, "when: expect p ok", "when: expect p okay")
		}, []string{en + `:27: when: expected ok, error, pending, state, records, position or aborted after expect p, got "okay" (column 10 of the statement)`}},
		{"single choice with two [x]", func(t *testing.T, fsys fstest.MapFS) {
			replace(t, fsys, en, "- [ ] It throws.", "- [x] It throws.")
		}, []string{en + ":23: question has 2 choices marked [x]: a single-choice question needs exactly one (or say multiple=true)"}},
		{"single choice with no [x]", func(t *testing.T, fsys fstest.MapFS) {
			replace(t, fsys, en, "- [x] It returns.", "- [ ] It returns.")
		}, []string{en + ":23: question has 0 choices marked [x]: a single-choice question needs exactly one (or say multiple=true)"}},
		{"multiple choice with two [x]", func(t *testing.T, fsys fstest.MapFS) {
			both(t, fsys, "stop=8", "stop=8 multiple=true")
			replace(t, fsys, en, "- [ ] It throws.", "- [x] It throws.")
		}, nil},
		{"one choice", func(t *testing.T, fsys fstest.MapFS) {
			replace(t, fsys, en, "- [ ] It throws.\n  when: expect p error PRODUCER_FENCED\n", "")
		}, []string{en + ":23: question needs at least two choices (- [ ] or - [x] lines)"}},
		{"no prompt", func(t *testing.T, fsys fstest.MapFS) {
			replace(t, fsys, en, "What does `commit` return?\n", "\n")
		}, []string{en + ":23: question has no prompt (the lines before its first choice)"}},
		{"a choice after explain", func(t *testing.T, fsys fstest.MapFS) {
			replace(t, fsys, en, "explain: Nothing *fails*.\n", "explain: Nothing *fails*.\n- [ ] late\n  when: expect p ok\n")
		}, []string{en + ":33: question: the choices come before hint:, explain: and evidence:"}},
		{"text after when", func(t *testing.T, fsys fstest.MapFS) {
			replace(t, fsys, en, "  when: expect p ok\n", "  when: expect p ok\n  and more\n")
		}, []string{en + ":28: question: text after a choice's when: lines (continue the choice's text before them)"}},
		{"missing explain", func(t *testing.T, fsys fstest.MapFS) {
			replace(t, fsys, en, "explain: Nothing *fails*.\n", "")
		}, []string{en + ":23: question has no explain: line"}},
		{"two explains", func(t *testing.T, fsys fstest.MapFS) {
			replace(t, fsys, en, "explain: Nothing *fails*.\n", "explain: Nothing *fails*.\nexplain: again\n")
		}, []string{en + ":33: question: a second explain: (the first is at line 32)"}},
		{"missing evidence", func(t *testing.T, fsys fstest.MapFS) {
			replace(t, fsys, en, "evidence: The call returned {producer p result}; the transaction is {txn tx state}.\n", "")
		}, []string{en + ":23: question has no evidence: line"}},
		{"evidence without a slot", func(t *testing.T, fsys fstest.MapFS) {
			replace(t, fsys, en, "{producer p result}; the transaction is {txn tx state}", "something")
		}, []string{en + ":33: question: the evidence has no {query} slot (it must show a value from the run)"}},
		{"evidence with an unclosed slot or code span", func(t *testing.T, fsys fstest.MapFS) {
			replace(t, fsys, en, "{txn tx state}.", "{txn tx state.\n`code")
		}, []string{
			en + ":33: evidence: a { slot is not closed on its line",
			en + ":34: evidence: a code span opened with ` is not closed on its line",
		}},
		{"evidence with an empty slot", func(t *testing.T, fsys fstest.MapFS) {
			replace(t, fsys, en, "{txn tx state}", "{ }")
		}, []string{en + ":33: evidence: an empty {} slot"}},
		{"a scenario block inside a list", func(t *testing.T, fsys fstest.MapFS) {
			replace(t, fsys, "01-why.md", "Just text.\n", "- item\n\n  ```scenario id=s title=t\n  cluster brokers=1\n  ```\n")
		}, []string{"01-why.md:9: a scenario block must be at the top level of the lesson, not inside a list or a quote"}},
		{"twins with different scenario ids", func(t *testing.T, fsys fstest.MapFS) {
			replace(t, fsys, zh, "id=commit", "id=commit2")
			replace(t, fsys, zh, "scenario=commit", "scenario=commit2")
		}, []string{zh + `:11: scenario "commit2" is "commit" in the English twin (` + en + ":11): both languages have the same scenario blocks, in the same order"}},
		{"twins with different question ids", func(t *testing.T, fsys fstest.MapFS) {
			replace(t, fsys, zh, "id=q-commit", "id=q-commit-zh")
		}, []string{zh + `:23: question "q-commit-zh" is "q-commit" in the English twin (` + en + ":23): both languages have the same question blocks, in the same order"}},
		{"a question missing from the Chinese twin", func(t *testing.T, fsys fstest.MapFS) {
			replace(t, fsys, zh, "```question", "```text")
		}, []string{en + `:23: question "q-commit" has no counterpart in the Chinese twin ` + zh + " (both languages have the same question blocks, in the same order)"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fsys := courseFS(t)
			tt.edit(t, fsys)
			got := loadErrors(t, fsys)
			if len(got) != len(tt.want) {
				t.Fatalf("got %d errors, want %d:\n%s", len(got), len(tt.want), strings.Join(got, "\n"))
			}
			for i := range got {
				if !strings.HasPrefix(got[i], tt.want[i]) {
					t.Errorf("error %d:\n got %s\nwant %s", i, got[i], tt.want[i])
				}
			}
		})
	}
}

// TestQueryErrors checks facts and evidence slots against their
// scenario's script, at the line of the block or of the evidence.
func TestQueryErrors(t *testing.T) {
	fsys := courseFS(t)
	for name, f := range fsys {
		f.Data = []byte(strings.ReplaceAll(string(f.Data), "txn tx state", "txn tx stat"))
		f.Data = []byte(strings.ReplaceAll(string(f.Data), "partition orders/0 lso", "partition orders/9 lso"))
		fsys[name] = f
	}
	got := loadErrors(t, fsys)
	want := []string{
		en + `:11: scenario facts: query "txn tx stat": txn has no "stat": expected one of state, epoch, pid, partitions; did you mean "state"? (column 8 of the query)`,
		en + `:11: scenario facts: query "partition orders/9 lso": partition 9 does not exist: topic orders has one partition, 0 (column 18 of the query)`,
		en + `:33: evidence: query {txn tx stat}: txn has no "stat": expected one of state, epoch, pid, partitions; did you mean "state"? (column 8 of the query)`,
		zh + `:11: scenario facts: query "txn tx stat": txn has no "stat": expected one of state, epoch, pid, partitions; did you mean "state"? (column 8 of the query)`,
		zh + `:11: scenario facts: query "partition orders/9 lso": partition 9 does not exist: topic orders has one partition, 0 (column 18 of the query)`,
		zh + `:35: evidence: query {txn tx stat}: txn has no "stat": expected one of state, epoch, pid, partitions; did you mean "state"? (column 8 of the query)`,
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestEveryLessonLoads loads the course built into the binary: a lesson
// that does not load fails here, naming its file and line.
func TestEveryLessonLoads(t *testing.T) {
	c, err := Embedded()
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Slugs()) == 0 {
		t.Log("no lessons embedded yet (files.go comes with the first lesson)")
	}
}
