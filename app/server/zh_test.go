//go:build !wasm

package server

import (
	"net/http"
	"strings"
	"testing"
)

// The playground and the scenarios page exist in Chinese at /zh/…, with
// <html lang="zh-CN"> in the server's HTML, the language control leading
// to the English twin with the scenario kept, and the Chinese library,
// whose scripts are the Chinese twins with Chinese comments.
func TestChinesePlaygroundAndScenariosAreServerRendered(t *testing.T) {
	s := newLessonServer(t)
	for _, tc := range []struct {
		path, lang string
		want       []string
	}{
		{"/zh/playground?scenario=abort", `lang="zh-CN"`, []string{
			`aria-label="语言"`, `href="/playground?scenario=abort"`, `href="/zh/scenarios"`,
			"场景脚本", "前进一步", "中止一个事务", "# Broker 不删除已中止的记录", `aria-labelledby="transport-step"`, `<optgroup`, `id="narration"`, `aria-live="polite"`}},
		{"/playground?scenario=abort", `lang="en"`, []string{
			`aria-label="Language"`, `href="/zh/playground?scenario=abort"`, "Aborting a transaction"}},
		{"/zh/scenarios", `lang="zh-CN"`, []string{
			"场景库", "一个事务，从头到尾", "顺利路径", `href="/zh/playground?scenario=happy-path"`, `href="/scenarios"`}},
		{"/scenarios", `lang="en"`, []string{"One transaction, end to end", `href="/playground?scenario=happy-path"`, `href="/zh/scenarios"`}},
		{"/zh/", `lang="zh-CN"`, []string{`href="/zh/playground"`, `href="/zh/scenarios"`}},
	} {
		rec := get(t, s, tc.path)
		b := rec.Body.String()
		if rec.Code != http.StatusOK {
			t.Errorf("GET %s: %d", tc.path, rec.Code)
		}
		if !strings.Contains(b, "<html "+tc.lang) {
			t.Errorf("GET %s: no %s", tc.path, tc.lang)
		}
		for _, w := range tc.want {
			if !strings.Contains(b, w) {
				t.Errorf("GET %s: the page lacks %q", tc.path, w)
			}
		}
		if strings.Contains(b, "英文界面") {
			t.Errorf("GET %s: a link still says the page is in English", tc.path)
		}
	}
}
