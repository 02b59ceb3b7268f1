package playground

import (
	"net/url"
	"strings"
	"testing"

	"txnlab/app/uitext"
	"txnlab/lessons/doc"
	"txnlab/scenarios"
)

// A Chinese page opens a library scenario's Chinese twin: its comments,
// title and purpose are Chinese; the English page opens the original.
func TestChinesePageOpensTheTwin(t *testing.T) {
	en, _ := scenarios.Get("happy-path")
	zh, _ := scenarios.GetIn(scenarios.Chinese, "happy-path")
	for _, tc := range []struct {
		path   string
		script string
	}{
		{"/playground", en.Script},
		{"/zh/playground", zh.Script},
	} {
		u := &url.URL{Path: tc.path, RawQuery: "scenario=happy-path"}
		o := openAt(string(uitext.LangOf(u.Path)), u)
		if o.src != tc.script || o.sc.Script != tc.script {
			t.Errorf("%s opens\n%.80s…\nwant\n%.80s…", u, o.src, tc.script)
		}
	}
	sc, ok := ScenarioBySlugIn(doc.Chinese, "happy-path")
	if !ok || sc.Title != "顺利路径：一个跨两个主题的事务，从头到尾" || !strings.HasPrefix(sc.Purpose, "initTransactions() 先找到事务协调器") {
		t.Errorf("the Chinese entry: title %q, purpose %.60q", sc.Title, sc.Purpose)
	}
}

// A narrative's first sentence is the title, in either language; wrapped
// lines join with a space only between Latin words.
func TestSplitNarrative(t *testing.T) {
	for _, tc := range []struct{ in, title, purpose string }{
		{"The happy path: one transaction.\n\nIt commits.", "The happy path: one transaction", "It commits."},
		{"A crash before\nthe commit. Both go.", "A crash before the commit", "Both go."},
		{"顺利路径：一个事务。\n\n协调器写入\nPrepareCommit 并应答。", "顺利路径：一个事务", "协调器写入\nPrepareCommit 并应答。"},
		{"消费—处理—生产：输出记录和偏移量\n一起提交。崩溃会把两者一起丢弃。", "消费—处理—生产：输出记录和偏移量一起提交", "崩溃会把两者一起丢弃。"},
		{"思考题 1：为什么 AddOffsetsToTxn\n走同一条路径？\n\n因为。", "思考题 1：为什么 AddOffsetsToTxn 走同一条路径？", "因为。"},
	} {
		title, purpose := splitNarrative(tc.in)
		if title != tc.title || purpose != tc.purpose {
			t.Errorf("splitNarrative(%q) = %q, %q; want %q, %q", tc.in, title, purpose, tc.title, tc.purpose)
		}
	}
	if got := Paragraphs("协调器写入\nPrepareCommit 并应答，\n再写标记。\n\nA b\nc."); len(got) != 2 || got[0] != "协调器写入 PrepareCommit 并应答，再写标记。" || got[1] != "A b c." {
		t.Errorf("paragraphs: %q", got)
	}
}

// What a learner has not edited is the library's script in either
// language; an edited one is not.
func TestIsLibraryScript(t *testing.T) {
	en, _ := scenarios.Get("happy-path")
	zh, _ := scenarios.GetIn(scenarios.Chinese, "happy-path")
	for _, tc := range []struct {
		script string
		want   bool
	}{
		{en.Script, true},
		{zh.Script, true},
		{en.Script + "app begin\n", false},
		{"", false},
	} {
		if got := isLibraryScript("happy-path", tc.script); got != tc.want {
			t.Errorf("isLibraryScript(%.40q) = %v", tc.script, got)
		}
	}
}
