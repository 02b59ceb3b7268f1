package lesson

import (
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"txnlab/app/pagetext"
	"txnlab/app/progress"
	"txnlab/i18n/english"
	"txnlab/lessons/doc"
	"txnlab/lessons/exercise"
)

// goalX and attackX are an exercise of each kind, in the shape the lesson
// loader gives the page.
var (
	goalX = doc.Exercise{ID: "x-card-abort", Kind: doc.ExerciseGoal, PromptHTML: "End it.",
		Start:    "cluster brokers=3\ntopic orders partitions=1\nproducer p transactional.id=t1\np init\np begin\np send orders/0 k=a\n",
		Goal:     []string{"expect txn t1 state=CompleteAbort"},
		MaxAdded: 2, Allow: []string{"abort", "run"},
		HintsHTML: []string{"Abort."}, ExplainHTML: "Because.",
		Solution: "cluster brokers=3\ntopic orders partitions=1\nproducer p transactional.id=t1\np init\np begin\np send orders/0 k=a\np abort\nrun\n"}
	attackX = doc.Exercise{ID: "x-card-dup", Kind: doc.ExerciseAttack, PromptHTML: "Twice.", Break: "sequence-check",
		Start:       "cluster brokers=1\ntopic audit partitions=1\nproducer p1\np1 send audit/0 k1=v1\n",
		ExplainHTML: "Retries.", Solution: "cluster brokers=1\ntopic audit partitions=1\nproducer p1\ndrop Produce.response count=1\np1 send audit/0 k1=v1\n"}
)

func renderCard(c *exerciseCard) string { return app.HTMLString(c) }

// flat is a rendering's text as read: no tags, spaces collapsed.
func flat(s string) string {
	return strings.Join(strings.Fields(pagetext.Plain(s)), " ")
}

// A limit of one reads as English: the card said "Add at most 1
// statements" (four exercises of the course allow one, lessons 00, 01, 06, 09).
func TestExerciseCardLimitOfOne(t *testing.T) {
	one := goalX
	one.MaxAdded = 1
	if got := flat(renderCard(&exerciseCard{X: one, Lang: doc.English})); strings.Contains(got, "1 statements") || !strings.Contains(got, "at most 1 ") {
		t.Errorf("a limit of one statement reads: %s", got)
	}
}

// An attack on a liveness mechanism says its runs are judged with the
// liveness checks on; another attack does not.
func TestExerciseCardSaysALivenessAttackIsJudgedSettled(t *testing.T) {
	liveness := attackX
	liveness.Break = "marker-recovery"
	for _, tc := range []struct {
		x    doc.Exercise
		lang doc.Lang
		want string
		says bool
	}{
		{liveness, doc.English, "liveness checks on", true},
		{liveness, doc.Chinese, "打开活性检查", true},
		{attackX, doc.English, "liveness checks on", false},
	} {
		if got := renderCard(&exerciseCard{X: tc.x, Lang: tc.lang}); strings.Contains(got, tc.want) != tc.says {
			t.Errorf("%s (%s): says %q %v, want %v:\n%s", tc.x.Break, tc.lang, tc.want, !tc.says, tc.says, got)
		}
	}
}

func TestExerciseCardRendersWhatIsChecked(t *testing.T) {
	for _, tc := range []struct {
		x    doc.Exercise
		lang doc.Lang
		want []string
	}{
		{goalX, doc.English, []string{`data-exercise="x-card-abort"`, `data-state="unsolved"`, `data-kind="goal"`,
			"<code>expect txn t1 state=CompleteAbort</code>", "add to the starting script: at most 2 ", "<code>abort run</code>",
			"p send orders/0 k=a", `data-action="check"`, `data-action="reset"`, `href="/lessons/00-scenario-language"`,
			"docs/scenario-language.md", `href="/playground#s=`}},
		{attackX, doc.Chinese, []string{`data-exercise="x-card-dup"`, "<code>break sequence-check</code>", "<code>no-duplicates</code>",
			`data-action="explore"`, `href="/zh/lessons/00-scenario-language"`, `href="/zh/playground#s=`, "不能使用 break 或 restore"}},
	} {
		got := renderCard(&exerciseCard{X: tc.x, Lang: tc.lang})
		for _, w := range tc.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s/%s lacks %q:\n%s", tc.x.ID, tc.lang, w, got)
			}
		}
		for _, no := range []string{`data-action="hint"`, `data-action="reveal"`, "Because.", "Retries.", "drop Produce.response"} {
			if strings.Contains(got, no) {
				t.Errorf("%s/%s shows %q before any try", tc.x.ID, tc.lang, no)
			}
		}
	}
}

// The card's result lists each goal line, limit and run with its mark;
// hints come after a failure, the solution after three tries, the
// explanation once solved or shown.
func TestExerciseCardShowsTheResult(t *testing.T) {
	c := &exerciseCard{X: goalX, Lang: doc.English, prog: &progress.Exercise{State: progress.Failed, Tries: 1}}
	c.result, _ = exercise.Grade(&c.X, goalX.Start+"p commit\nrun\nadvance 1s\n")
	got := renderCard(c)
	for _, w := range []string{`data-passed="false"`, `data-goal="0"`, "✗ expect txn t1 state=CompleteAbort does not hold; the run has state=CompleteCommit",
		`data-limit="added"`, "3 statements added; at most 2.", `data-limit="verb"`, "<code>advance</code>", `data-action="hint"`, "(tries: 1)"} {
		if !strings.Contains(got, w) && !strings.Contains(flat(got), w) {
			t.Errorf("lacks %q:\n%s", w, got)
		}
	}
	if strings.Contains(got, `data-action="reveal"`) || strings.Contains(got, "Because.") {
		t.Errorf("solution or explanation after one try:\n%s", got)
	}
	c.prog.Tries = 3
	if got := renderCard(c); !strings.Contains(got, `data-action="reveal"`) {
		t.Errorf("no solution offered after three tries:\n%s", got)
	}
	c.prog.Revealed = true
	if got := renderCard(c); !strings.Contains(got, `data-solution="x-card-abort"`) || !strings.Contains(got, "Because.") || strings.Contains(got, `data-action="reveal"`) {
		t.Errorf("the solution shown:\n%s", got)
	}
	c.result, _ = exercise.Grade(&c.X, goalX.Solution)
	c.prog = &progress.Exercise{State: progress.Solved, Tries: 2}
	got = renderCard(c)
	for _, w := range []string{`data-state="solved"`, `data-passed="true"`, "✓ expect txn t1 state=CompleteAbort holds", "Because.", "Solved"} {
		if !strings.Contains(got, w) && !strings.Contains(flat(got), w) {
			t.Errorf("solved: lacks %q:\n%s", w, got)
		}
	}

	a := &exerciseCard{X: attackX, Lang: doc.English, prog: &progress.Exercise{State: progress.Failed, Tries: 1}}
	a.result, _ = exercise.Grade(&a.X, attackX.Start)
	got = renderCard(a)
	for _, w := range []string{`data-run="broken"`, "✗ With the mechanism switched off, the checker reports: nothing", `data-run="on"`, "✓ With the mechanism on, the checker reports: nothing"} {
		if !strings.Contains(got, w) && !strings.Contains(flat(got), w) {
			t.Errorf("attack: lacks %q:\n%s", w, got)
		}
	}
	// A caught attack shows what the checker saw, in its story.
	a.result, _ = exercise.Grade(&a.X, attackX.Solution)
	if got := flat(renderCard(a)); !strings.Contains(got, `p1's record "v1" (producer 0, sequence 0) is in audit/0 2 times`) {
		t.Errorf("attack: the finding is not shown:\n%s", got)
	}
	a.result, _ = exercise.Grade(&a.X, goalX.Start+"resume p\n")
	if got := renderCard(a); !strings.Contains(got, `data-error="7"`) || !strings.Contains(got, "Line 7, column 1: p is not paused") || !strings.Contains(got, "(in the run with the mechanism switched off)") {
		t.Errorf("script error:\n%s", got)
	}
}

// The explorer's parts: progress with Stop while it runs, the script and
// "Use this script" once found.
func TestExerciseCardShowsTheExplorer(t *testing.T) {
	c := &exerciseCard{X: attackX, Lang: doc.English}
	done := make(chan exercise.ExploreState, 1)
	c.explore = startExploration(attackX, 1, func(st exercise.ExploreState) {
		if st.Done() {
			done <- st
		}
	})
	c.xs = exercise.ExploreState{Phase: exercise.PhaseSearch, Runs: 3, MaxRuns: 200}
	got := renderCard(c)
	for _, w := range []string{`data-action="stop-explore"`, "<progress", `max="200"`, "Trying fault schedules: 3 of at most 200"} {
		if !strings.Contains(got, w) {
			t.Errorf("running: lacks %q:\n%s", w, got)
		}
	}
	c.xs = <-done
	got = renderCard(c)
	for _, w := range []string{`data-explorer="found"`, `data-explored="x-card-dup"`, `data-action="use-explored"`, "drop Produce.response"} {
		if !strings.Contains(got, w) {
			t.Errorf("found: lacks %q:\n%s", w, got)
		}
	}
	if strings.Contains(got, `data-action="stop-explore"`) {
		t.Error("Stop offered once over")
	}
}

// A Chinese card says nothing in English outside code.
func TestExerciseCardInChinese(t *testing.T) {
	for _, x := range []doc.Exercise{goalX, attackX} {
		c := &exerciseCard{X: x, Lang: doc.Chinese, prog: &progress.Exercise{State: progress.Failed, Tries: 3, Revealed: true}, hints: 1}
		if x.ID == attackX.ID {
			c.result = must(exercise.Grade(&c.X, x.Solution))
			if got := renderCard(c); !strings.Contains(got, `<span class="finding"><code>p1</code> 的记录 <code>v1</code>`) {
				t.Errorf("the finding in Chinese:\n%s", got)
			}
		}
		c.result, _ = exercise.Grade(&c.X, x.Start+"resume p\n")
		// The script's error says what is wrong, as the editor does.
		want := map[string]string{goalX.ID: "第 7 行第 1 列：<code>p</code> 并未暂停。", attackX.ID: "第 5 行第 8 列：未知的客户端 <code>p</code>："}[x.ID]
		if got := renderCard(c); !strings.Contains(got, want) {
			t.Errorf("%s: the script error in Chinese lacks %q:\n%s", x.ID, want, got)
		}
		for _, r := range []*exercise.Result{c.result, must(exercise.Grade(&c.X, x.Solution))} {
			c.result = r
			page := pagetext.WithoutCode(renderCard(c))
			page = strings.NewReplacer("End it.", "", "Abort.", "", "Because.", "", "Twice.", "", "Retries.", "").Replace(page)
			plain := pagetext.Plain(page)
			for _, w := range english.Sentences(plain) {
				t.Errorf("%s: English on the Chinese card: %q", x.ID, w)
			}
		}
	}
}

func must(r *exercise.Result, err error) *exercise.Result {
	if err != nil {
		panic(err)
	}
	return r
}
