package app

// The strings the lessons' components show, in English and Chinese. A
// lesson page has a language (Lang "en" or "zh"); the full playground is
// English for now and passes "en". The stable contract for tests and
// scripts is on data-* attributes, never on these texts.

// texts maps an English string (its own key) to its [English, Chinese]
// forms: the English key keeps the call sites readable.
var texts = map[string][2]string{
	"Reset":                   {"Reset", "重置"},
	"Step back":               {"Step back", "后退一步"},
	"Play":                    {"Play", "播放"},
	"Pause":                   {"Pause", "暂停"},
	"Step":                    {"Step", "前进一步"},
	"Run to end":              {"Run to end", "运行到结尾"},
	"Transport":               {"Transport", "播放控制"},
	"Position in the history": {"Position in the history", "历史中的位置"},
	"step %d of %d":           {"step %d of %d", "第 %d 步，共 %d 步"},
	"Step %d of %d":           {"Step %d of %d", "第 %d 步 / 共 %d 步"},
	"Scenario script":         {"Scenario script", "场景脚本"},
	"Script":                  {"Script", "脚本"},
	"Run":                     {"Run", "运行"},
	"Run the scenario":        {"Run the scenario", "运行这个场景"},
	"Reset script":            {"Reset script", "恢复脚本"},
	"Back to the lesson's script": {"Back to the lesson's script",
		"恢复为课程中的脚本"},
	"Undo":                   {"Undo", "撤销"},
	"Undo script change":     {"Undo script change", "撤销脚本修改"},
	"Bring back your script": {"Bring back your script", "找回你之前的脚本"},
	"Sequence diagram":       {"Sequence diagram", "时序图"},
	"Facts":                  {"Facts", "事实"},
	"Open in the full playground": {"Open in the full playground",
		"在完整的实验场中打开"},
	"Line %d, column %d: %s": {"Line %d, column %d: %s", "第 %d 行第 %d 列：%s"},
	"Line %d, column %d stops the run: %s": {"Line %d, column %d stops the run: %s",
		"第 %d 行第 %d 列使运行停止：%s"},
	"Running the script…": {"Running the script…", "正在运行脚本……"},
	"The diagram appears when this scenario runs: press Run, or scroll here.": {
		"The diagram appears when this scenario runs: press Run, or scroll here.",
		"场景运行后这里显示时序图：点击“运行”，或滚动到这里。"},
	"Nothing has happened yet: press Step or Play.": {"Nothing has happened yet: press Step or Play.",
		"还什么都没有发生：点击“前进一步”或“播放”。"},
	"finished":            {"finished", "已结束"},
	"line %d":             {"line %d", "第 %d 行"},
	"digest %s":           {"digest %s", "摘要 %s"},
	"not yet run":         {"not yet run", "尚未运行"},
	"Embedded playground": {"Embedded playground", "嵌入的实验场"},
}

// tr is key in lang: the Chinese form on "zh" pages, else the English.
// A key missing from the table is shown as it is, so a forgotten string
// reads in English rather than not at all (TestEveryStringTranslated
// catches it).
func tr(lang, key string) string {
	t, ok := texts[key]
	if !ok {
		return key
	}
	if lang == "zh" {
		return t[1]
	}
	return t[0]
}
