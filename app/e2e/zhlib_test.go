package e2e

import (
	"strings"
	"testing"

	"txnlab/scenarios"
)

// TestChinesePlaygroundShowsChineseComments (issue 26): a Chinese page
// shows a library script with its comments in Chinese, the English page
// with English ones; both run to the same digest, and switching language
// without editing brings the other language's script, with no notice
// that an edited script was restored.
func TestChinesePlaygroundShowsChineseComments(t *testing.T) {
	en, _ := scenarios.Get("happy-path")
	zh, _ := scenarios.GetIn(scenarios.Chinese, "happy-path")
	if zh.Lang != scenarios.Chinese || !strings.HasPrefix(zh.Script, "# 顺利路径") {
		t.Fatalf("happy-path has no Chinese twin: %.60q", zh.Script)
	}
	b := newBrowser(t)
	b.open("/zh/playground?scenario=happy-path")
	waitIdle(b)
	if got := scriptText(b); got != zh.Script {
		t.Errorf("the Chinese playground's editor holds\n%.200s…\nwant the Chinese twin", got)
	}
	zhDigest := digest(b)

	b.open("/playground?scenario=happy-path")
	waitIdle(b)
	if got := scriptText(b); got != en.Script {
		t.Errorf("the English playground's editor holds\n%.200s…\nwant the English script", got)
	}
	if d := digest(b); d != zhDigest {
		t.Errorf("digest %s in English, %s in Chinese", d, zhDigest)
	}

	b.click(`.lang-switch a[data-lang="zh"]`)
	b.waitFor("the Chinese playground", `location.pathname === "/zh/playground" && document.documentElement.lang === "zh-CN"`)
	waitIdle(b)
	if got := scriptText(b); got != zh.Script {
		t.Errorf("after the language control, the editor holds\n%.200s…\nwant the Chinese twin", got)
	}
	if eval[bool](b, `document.body.innerText.includes("你上次编辑的脚本已恢复")`) {
		t.Error("an unedited script is said to be restored")
	}
}
