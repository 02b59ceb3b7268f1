package uitext

// The compare page's text (compare.go), in English and Chinese; merged
// into messages at init, as the playground's is.
var compareMessages = map[string][2]string{
	"cmp.title":           {"Compare two runs", "比较两次运行"},
	"cmp.description":     {"Run one scenario script under two settings — a Kafka release's protocol, a mechanism switched off, a seed — and see both sequence diagrams side by side, aligned by statement, with the steps that differ marked.", "在两种设置下运行同一个场景脚本（某个 Kafka 版本的协议、关掉的一个机制、一个种子），并排查看两张按语句对齐的时序图，不同的步骤会被标出。"},
	"cmp.lead":            {"The same script runs twice: under settings A and under settings B. Each statement starts at the same height in both diagrams; a step only one run has is marked (− in A, + in B), and each statement that differs gets a one-line summary. The digests are the ones txnlab diff prints for the same script and settings.", "同一个脚本运行两次：一次用设置 A，一次用设置 B。每条语句在两张图中从同一高度开始；只有一次运行才有的步骤会被标出（A 中为 −，B 中为 +），每条有差异的语句都附一行摘要说明。两个摘要值与 txnlab diff 对同一脚本和设置打印的一致。"},
	"cmp.script":          {"Script", "脚本"},
	"cmp.noscenario":      {"There is no scenario named %q; here is “%s”.", "没有名为 %q 的场景；这里显示的是“%s”。"},
	"cmp.settings":        {"Settings (KEY=VALUE words)", "设置（KEY=VALUE 形式，空格分隔）"},
	"cmp.run.legend":      {"Run %s", "运行 %s"},
	"cmp.pick.kafka":      {"Protocol", "协议"},
	"cmp.pick.none":       {"as the script says", "按脚本所写"},
	"cmp.pick.break":      {"Switch off", "关掉机制"},
	"cmp.pick.nobreak":    {"nothing", "不关掉"},
	"cmp.pick.seed":       {"Seed", "种子"},
	"cmp.run":             {"Compare", "比较"},
	"cmp.share":           {"Share link", "分享链接"},
	"cmp.revert":          {"Back to the script this page opened with; the settings stay", "回到这个页面打开时的脚本；设置保持不变"},
	"cmp.share.address":   {"The address bar now holds a link to this comparison: the script and both settings.", "地址栏里现在是指向这次比较的链接：包含脚本和两组设置。"},
	"cmp.share.copied":    {"Link copied, and in the address bar: it holds the script and both settings.", "链接已复制，也在地址栏里：它包含脚本和两组设置。"},
	"cmp.open.playground": {"Open the script in the playground", "在演练场中打开这个脚本"},
	"cmp.placeholder":     {"The two diagrams appear here once both runs have finished.", "两次运行都完成后，两张时序图会显示在这里。"},
	"cmp.differing":       {"Statements that differ: %d of %d", "%[2]d 条语句中有 %[1]d 条不同"},
	"cmp.stale":           {"The script or the settings changed since this comparison: press Compare to run it again.", "脚本或设置在这次比较之后改动过：按“比较”重新运行。"},
	"cmp.cut":             {"The diagrams stop after statement %d of %d, to keep the page responsive; the summaries above cover every statement.", "为了保持页面流畅，时序图只画到第 %d 条语句（共 %d 条）；上面的摘要涵盖全部语句。"},
	"cmp.failed":          {"%d expectation(s) failed", "%d 个期望未满足"},
	"cmp.noviolation":     {"no invariant violated", "没有违反不变量"},
	"cmp.violates":        {"violates", "违反了"},
	"cmp.same":            {"Both runs do the same thing at every statement.", "两次运行在每条语句上都做了同样的事。"},
	"cmp.only.side":       {"only %s (%s):", "只有 %s（%s）："},
	"cmp.nothing":         {"nothing else", "没有别的"},
	"cmp.more":            {", and %d more", "，另有 %d 项"},
	"cmp.differs.sr":      {"differs at", "有差异："},
	"cmp.summaries":       {"The statements that differ", "有差异的语句"},
	"cmp.marked":          {"%d step(s) only this run has", "%d 个步骤只有这次运行才有"},
	"cmp.only.a":          {"only run A has this step", "只有运行 A 有这一步"},
	"cmp.only.b":          {"only run B has this step", "只有运行 B 有这一步"},
	"cmp.diagram.label":   {"Sequence diagram of run %s: %d step(s) marked as only in this run", "运行 %s 的时序图：%d 个步骤标为只在这次运行中出现"},
	"cmp.toolong":         {"This script is too long to compare in the browser: run txnlab diff on it instead.", "这个脚本太长，无法在浏览器里比较：请改用 txnlab diff。"},
	"cmp.settings.bad":    {"These settings cannot be read", "无法读取这些设置"},
	"pg.compare":          {"Compare two runs…", "比较两次运行…"},
	"pg.compare.label":    {"Compare this script under two settings", "在两种设置下比较这个脚本"},
}

func init() {
	for k, v := range compareMessages {
		if _, dup := Messages[k]; !dup {
			Messages[k] = v
		}
	}
}
