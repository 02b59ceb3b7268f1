package uitext

// The presenter view's text (presenter.go), in English and Chinese;
// merged into messages at init, as the playground's is.
var presenterMessages = map[string][2]string{
	"pres.name":        {"Presenter view", "演示视图"},
	"pres.enter":       {"Present", "演示"},
	"pres.enter.title": {"Presenter view for a projector: the diagram full screen, large type, clicker keys (P)", "适合投影的演示视图：时序图全屏、大号字体，可用翻页笔操作（P）"},
	"pres.size":        {"Type size", "字号"},
	"pres.smaller":     {"Smaller type", "缩小字号"},
	"pres.larger":      {"Larger type", "放大字号"},
	"pres.blank":       {"Blank (B)", "黑屏（B）"},
	"pres.blanked":     {"The screen is blank: press B to show it again.", "屏幕已黑屏：按 B 恢复显示。"},
	"pres.exit":        {"Leave (Esc)", "退出（Esc）"},
	"pres.slide":       {"%d of %d", "第 %d 项，共 %d 项"},
	"pres.prev":        {"Previous", "上一项"},
	"pres.next":        {"Next", "下一项"},
	"pres.noblocks":    {"This lesson has no playground, question or exercise to present.", "这一课没有可以演示的演练场、思考题或练习。"},
	"keys.present":     {"Enter or leave the presenter view", "进入或退出演示视图"},
	"keys.pager":       {"In the presenter view: step forward or back (a clicker's keys; space steps too)", "在演示视图中：前进或后退一步（翻页笔的按键；空格键也前进一步）"},
	"keys.blank":       {"In the presenter view: blank the screen, or show it again", "在演示视图中：黑屏，或恢复显示"},
	"keys.unpresent":   {"Leave the presenter view", "退出演示视图"},
}

func init() {
	for k, v := range presenterMessages {
		if _, dup := Messages[k]; !dup {
			Messages[k] = v
		}
	}
}
