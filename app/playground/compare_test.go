package playground

import (
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"txnlab/app/pagetext"
	"txnlab/app/site"
	"txnlab/app/uitext"
	"txnlab/core/scenario"
	"txnlab/core/sim"
	"txnlab/diagram"
	"txnlab/lessons/doc"
)

// jepsenEndTxn is the Jepsen pack's delayed EndTxn, the compare page's
// default script.
func jepsenEndTxn(t *testing.T) string {
	t.Helper()
	src, err := os.ReadFile("../../scenarios/jepsen-delayed-endtxn.scenario")
	if err != nil {
		t.Fatal(err)
	}
	return string(src)
}

// openCompare is the compare page opened at a share link's fragment, its
// comparison finished (natively a run does not yield to frames).
func openCompare(t *testing.T, lang doc.Lang, src, a, b string) *comparePage {
	t.Helper()
	c := NewComparePage()
	c.lang = lang
	c.open(ctx, "", compareFragment(src, a, b), true)
	if c.busy || c.result == nil {
		t.Fatalf("the comparison did not finish: busy=%v, script error %v, settings %v", c.busy, c.scriptErr, c.settingsErr)
	}
	return c
}

func isSpacer(e *sim.Event) bool { return e.Kind == sim.KindDeliver && e.MsgID == 0 }

// The page compares what the CLI compares: both digests are
// scenario.RunRecorded's (txnlab diff's), the statement that differs
// first names AddPartitionsToTxn sent by the client under 3.5 and the
// leader's under 4.0, and the steps only one run has are marked in its
// diagram.
func TestCompareShowsWhatTheCLIComputes(t *testing.T) {
	src := jepsenEndTxn(t)
	c := openCompare(t, doc.English, src, "kafka=3.5", "kafka=4.0")
	h := app.HTMLString(c.Render())
	for i, text := range []string{"kafka=3.5", "kafka=4.0"} {
		st, _ := scenario.ParseSettings(text)
		r, err := scenario.RunRecorded("cli", src, st)
		if err != nil {
			t.Fatal(err)
		}
		id := "ab"[i : i+1]
		// go-app writes an element's attributes in no fixed order.
		found := false
		for _, tag := range regexp.MustCompile(`<output[^>]*>`).FindAllString(h, -1) {
			found = found || strings.Contains(tag, `data-run="`+id+`"`) && strings.Contains(tag, `data-digest="`+r.Digest()+`"`)
		}
		if !found {
			t.Errorf("run %s: the page lacks the CLI's digest %s", id, r.Digest())
		}
	}
	for _, want := range []string{
		`data-line="27"`, "AddPartitionsToTxn v3 app→broker-0", "AddPartitionsToTxn v5 broker-0→broker-0",
		`class="arrow request cmp-differs"`, `class="cmp-diff cmp-only-a"`, `class="cmp-diff cmp-only-b"`,
		"only A (kafka=3.5):", "only B (kafka=4.0):",
		`data-violations="read-committed"`, // only 3.5 lets the early commit through
		`data-state="done"`,
	} {
		if !strings.Contains(h, want) {
			t.Errorf("the compare page lacks %s", want)
		}
	}
	if strings.Count(h, `data-violations="none"`) != 1 {
		t.Error("the 4.0 run should break no invariant")
	}
	if c.result.differing == 0 || c.result.differing == len(c.result.diffs) {
		t.Errorf("%d of %d statements differ", c.result.differing, len(c.result.diffs))
	}
	// The heading reads right whatever the count, one included.
	heading := fmt.Sprintf("Statements that differ: %d of %d", c.result.differing, len(c.result.diffs))
	if !strings.Contains(h, heading) {
		t.Errorf("the result's heading is not %q", heading)
	}
}

// Statement N begins on the same row on both sides, and every row where
// both sides draw an event and neither is marked shows the same event:
// the diagrams are aligned, not merely side by side.
func TestCompareDiagramsAreAlignedByStatement(t *testing.T) {
	c := openCompare(t, doc.English, jepsenEndTxn(t), "kafka=3.5", "kafka=4.0")
	a, b := c.result.sides[0], c.result.sides[1]
	if len(a.stmtRow) != len(c.result.diffs) || len(b.stmtRow) != len(a.stmtRow) {
		t.Fatalf("%d and %d statement rows for %d statements", len(a.stmtRow), len(b.stmtRow), len(c.result.diffs))
	}
	for k := range a.stmtRow {
		if a.stmtRow[k] != b.stmtRow[k] {
			t.Fatalf("statement %d starts at row %d in A, %d in B", k, a.stmtRow[k], b.stmtRow[k])
		}
	}
	if a.layout.NowRow != b.layout.NowRow || a.layout.NowRow != a.rows {
		t.Fatalf("rows: A %d (counted %d), B %d", a.layout.NowRow, a.rows, b.layout.NowRow)
	}
	same, marked := 0, 0
	for r := range a.layout.Rows {
		ea, eb := &a.events[a.layout.Rows[r]], &b.events[b.layout.Rows[r]]
		if a.differs[r] || b.differs[r] {
			marked++
			if a.differs[r] && b.differs[r] {
				t.Errorf("row %d is marked on both sides", r)
			}
			continue
		}
		if isSpacer(ea) || isSpacer(eb) {
			if isSpacer(ea) != isSpacer(eb) {
				t.Errorf("row %d: an unmarked event faces a spacer", r)
			}
			continue
		}
		if sa, sb := scenario.Shape(a.names, ea), scenario.Shape(b.names, eb); sa != sb {
			t.Errorf("row %d: %q faces %q", r, sa, sb)
		}
		same++
	}
	if same == 0 || marked == 0 {
		t.Fatalf("%d equal rows, %d marked", same, marked)
	}
	// A spacer row draws nothing: no note, no arrow.
	for r := range a.layout.Rows {
		if e := &a.events[a.layout.Rows[r]]; isSpacer(e) {
			if _, ok := diagram.DrawNote(a.layout, e, r); ok {
				t.Fatalf("spacer row %d draws a note", r)
			}
		}
	}
	for _, ar := range a.layout.Arrows {
		if isSpacer(&a.events[ar.Send]) {
			t.Fatal("a spacer opened an arrow")
		}
	}
}

// The same settings on both sides: nothing differs, and the page says so.
func TestCompareSameSettingsDiffersNowhere(t *testing.T) {
	c := openCompare(t, doc.English, jepsenEndTxn(t), "kafka=4.0", "kafka=4.0")
	h := app.HTMLString(c.Render())
	if c.result.differing != 0 || !strings.Contains(h, `data-same="all"`) || strings.Contains(h, "cmp-diff ") {
		t.Errorf("identical settings: %d statements differ", c.result.differing)
	}
}

// A share link carries the script and both settings, and opening it
// restores them; a playground link (#s= alone) gets the default settings.
func TestCompareShareLinkRoundTrips(t *testing.T) {
	src := jepsenEndTxn(t)
	c := openCompare(t, doc.English, src, "kafka=3.6 break=epoch-bump", "kafka=4.0, seed=9")
	link := c.shareLink()
	frag, ok := strings.CutPrefix(link, site.PathCompare+"#")
	if !ok {
		t.Fatalf("link %q", link)
	}
	d := NewComparePage()
	d.open(ctx, "", frag, true)
	if d.script != src || d.settings != [2]string{"kafka=3.6 break=epoch-bump", "kafka=4.0, seed=9"} {
		t.Fatalf("restored %q, settings %q", d.script[:min(40, len(d.script))], d.settings)
	}
	if d.result == nil || d.result.runs[1].Settings.Seed != 9 || len(d.result.runs[0].Settings.Break) != 1 {
		t.Fatal("the restored comparison did not run under the link's settings")
	}
	s2, a, b, ok, err := compareState("s=" + EncodeScript("cluster\n"))
	if !ok || err != nil || s2 != "cluster\n" || a != defaultSettingsA || b != defaultSettingsB {
		t.Errorf("playground link: %q %q %q %v %v", s2, a, b, ok, err)
	}
	bad := NewComparePage()
	bad.open(ctx, "", "s=%%%", true)
	if bad.notice == "" {
		t.Error("a broken link says nothing")
	}
	// An unknown scenario names the script the page shows instead (it
	// said "here is the happy path" over the Jepsen script), in either
	// language, after another scenario was open too.
	for _, lang := range []doc.Lang{doc.English, doc.Chinese} {
		shown, _ := ScenarioBySlugIn(lang, defaultCompare)
		title := strings.TrimRight(shown.Title, ".。")
		u := NewComparePage()
		u.lang = lang
		u.open(ctx, "abort", "", false)
		u.open(ctx, "nope", "", false)
		if u.script != shown.Script || !strings.Contains(u.notice, `"nope"`) || !strings.Contains(u.notice, title) {
			t.Errorf("%s, ?scenario=nope: notice %q over a script starting %q; want %q named", lang, u.notice, u.script[:min(40, len(u.script))], title)
		}
	}
	zh := openCompare(t, doc.Chinese, src, "kafka=3.5", "kafka=4.0")
	if l := zh.shareLink(); !strings.HasPrefix(l, "/zh/compare#s=") {
		t.Errorf("Chinese link %q", l)
	}
	if h := app.HTMLString(zh.Render()); !strings.Contains(h, `href="/compare#s=`) {
		t.Error("the language control does not keep the comparison")
	}
}

// The Chinese page, after a comparison that differs and breaks an
// invariant, shows no English sentence; the English one does (the check
// can fail). A settings error is in Chinese too.
func TestChineseCompareHasNoEnglishSentence(t *testing.T) {
	src := jepsenEndTxn(t)
	zh := openCompare(t, doc.Chinese, src, "kafka=3.5", "kafka=4.0")
	for _, w := range pagetext.EnglishIn(app.HTMLString(zh.Render())) {
		t.Errorf("English on the Chinese compare page: %q", w)
	}
	// Each bad setting says why, the config's own errors included.
	for _, bad := range []string{"kafka=3.9", "seed=x", "break=nope", "transactional", "transaction.version=9", "nosuch.key=1"} {
		zh.settings[1] = bad
		zh.compare(ctx)
		h := app.HTMLString(zh.Render())
		text := uitext.PlainText(zh.settingsErr[1])
		if !strings.Contains(h, "无法读取这些设置") || strings.Contains(text, uitext.Tr("zh", "err.lead")) {
			t.Errorf("%s: the Chinese settings error does not say why: %q", bad, text)
		}
		for _, w := range pagetext.EnglishIn(h) {
			t.Errorf("%s: English in the Chinese settings error: %q", bad, w)
		}
	}
	en := openCompare(t, doc.English, src, "kafka=3.5", "kafka=4.0")
	if len(pagetext.EnglishIn(app.HTMLString(en.Render()))) == 0 {
		t.Error("the English compare page has no English sentence: the check cannot fail")
	}
}

// Bad input: a settings word the core does not know names it and runs
// nothing; a script that does not parse points at its line.
func TestCompareRefusesBadInput(t *testing.T) {
	c := openCompare(t, doc.English, jepsenEndTxn(t), "kafka=3.5", "kafka=4.0")
	before := c.result
	c.settings[0] = "kafka=3.9"
	c.compare(ctx)
	if c.busy || c.result != before || !strings.Contains(uitext.PlainText(c.settingsErr[0]), "kafka=3.9") {
		t.Errorf("bad settings: busy %v, error %q", c.busy, uitext.PlainText(c.settingsErr[0]))
	}
	if h := app.HTMLString(c.Render()); !strings.Contains(h, `id="cmp-settings-a-error"`) || !strings.Contains(h, "data-state=\"done\"") {
		t.Error("the settings error is not shown next to its field")
	}
	c.settings[0] = "kafka=3.5"
	c.script = "cluster brokers=3\ntopic orders partitions=1\nbogus\n"
	c.compare(ctx)
	if c.scriptErr == nil || c.scriptErr.Line != 3 {
		t.Fatalf("parse error: %v", c.scriptErr)
	}
	if h := app.HTMLString(c.Render()); !strings.Contains(h, `id="cmp-script-error"`) || !strings.Contains(h, `class="cmp-result stale"`) {
		t.Error("the parse error is not shown, or the old comparison not greyed")
	}
	c.script = strings.Repeat("# a long comment line\n", maxCompareScript/20)
	c.compare(ctx)
	if c.scriptErr == nil || !strings.Contains(c.scriptErr.Msg, "txnlab diff") {
		t.Errorf("an over-long script: %v", c.scriptErr)
	}
}

// Past the row bound the diagrams stop at a statement boundary, and the
// page says so; the summaries still list every differing statement.
func TestCompareBoundsTheDiagrams(t *testing.T) {
	c := openCompare(t, doc.English, jepsenEndTxn(t), "kafka=3.5", "kafka=4.0")
	sides, shown := alignedSides(c.result.runs, c.result.diffs, 30)
	if shown >= len(c.result.diffs) || shown == 0 {
		t.Fatalf("%d of %d statements drawn under a bound of 30 rows", shown, len(c.result.diffs))
	}
	if sides[0].layout.NowRow != sides[1].layout.NowRow || sides[0].layout.NowRow > 30+200 {
		t.Fatalf("rows %d and %d", sides[0].layout.NowRow, sides[1].layout.NowRow)
	}
	c.result.sides, c.result.shown = sides, shown
	h := app.HTMLString(c.Render())
	if !strings.Contains(h, "cmp-cut") || strings.Count(h, `class="cmp-summary"`) != c.result.differing {
		t.Error("a cut diagram is not announced, or summaries are missing")
	}
}

// The pickers write words of the settings field.
func TestSettingsPickers(t *testing.T) {
	for _, tc := range []struct{ text, key, value, want string }{
		{"kafka=3.5", "kafka", "4.0", "kafka=4.0"},
		{"seed=3, kafka=3.5 break=epoch-bump", "kafka", "", "seed=3 break=epoch-bump"},
		{"", "break", "lso-bound", "break=lso-bound"},
		{"break=a break=b seed=2", "break", "c", "break=c seed=2"},
	} {
		if got := withSetting(tc.text, tc.key, tc.value); got != tc.want {
			t.Errorf("withSetting(%q, %s, %q) = %q, want %q", tc.text, tc.key, tc.value, got, tc.want)
		}
	}
	if v := settingWord("seed=3,kafka=3.6", "kafka"); v != "3.6" {
		t.Errorf("settingWord = %q", v)
	}
	c := openCompare(t, doc.English, jepsenEndTxn(t), "kafka=3.5", "kafka=4.0 break=epoch-bump")
	h := app.HTMLString(c.renderSettings(1))
	var selected []string
	for _, tag := range regexp.MustCompile(`<option[^>]*>`).FindAllString(h, -1) {
		if strings.Contains(tag, "selected=\"false\"") {
			t.Errorf("%s: selected=\"false\" selects in HTML", tag)
		}
		if strings.Contains(tag, " selected") {
			selected = append(selected, tag)
		}
	}
	if len(selected) != 2 || !strings.Contains(selected[0], `value="4.0"`) || !strings.Contains(selected[1], `value="epoch-bump"`) {
		t.Errorf("the pickers show %q selected, not the field's words", selected)
	}
}

// The page mounts and updates in go-app's engine, and the playground
// offers the way to it.
func TestCompareMountsAndThePlaygroundLinksToIt(t *testing.T) {
	e := app.NewTestEngine()
	c := openCompare(t, doc.English, jepsenEndTxn(t), "kafka=3.5", "kafka=4.0")
	if err := e.Load(c); err != nil {
		t.Fatal(err)
	}
	e.ConsumeAll()
	p := newTestPlayground(t, "happy-path")
	if h := render(p); !strings.Contains(h, `data-action="compare"`) {
		t.Error("the playground has no Compare control")
	}
}

// Reading any fragment never panics; one the page wrote reads back.
func FuzzCompareState(f *testing.F) {
	f.Add("cluster\n", "kafka=3.5", "kafka=4.0 seed=2")
	f.Add("", "a&b=c", "%zz")
	f.Fuzz(func(t *testing.T, src, a, b string) {
		compareState(src)
		compareState("s=" + src + "&a=" + a)
		got, ga, gb, ok, err := compareState(compareFragment(src, a, b))
		if !ok || err != nil || got != src || ga != a || gb != b {
			t.Fatalf("round trip of %q %q %q: %q %q %q %v %v", src, a, b, got, ga, gb, ok, err)
		}
	})
}
