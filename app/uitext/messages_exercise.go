package uitext

// The exercise card's text (exercise.go), in English and Chinese; merged
// into messages at init, as the playground's is. Kafka's and the
// language's identifiers (break, expect, mechanism and invariant names)
// stay in Latin script and go into code elements around these texts.
var exerciseMessages = map[string][2]string{
	"x.heading.goal":   {"Exercise: reach the goal", "练习：达成目标"},
	"x.heading.attack": {"Exercise: attack a mechanism", "练习：攻击一个机制"},
	"x.heading.of":     {"Exercise: attack the mechanism %s", "练习：攻击机制 %s"},
	"x.goal":           {"When your script has run to its end, these must hold:", "你的脚本运行到结束时，下面这些必须成立："},
	"x.own":            {"Any expect line of your own must hold too.", "你自己写的 expect 语句也必须成立。"},
	"x.attack.broken":  {"Your script runs twice. First with this mechanism switched off from the start:", "你的脚本会运行两次。第一次从一开始就关掉这个机制："},
	"x.attack.catch":   {"the checker must then report:", "此时检查器必须报告："},
	"x.attack.or":      {"or", "或"},
	"x.attack.on":      {"Then with the mechanism on, where the checker must report nothing.", "第二次打开这个机制，此时检查器必须什么都不报告。"},
	"x.attack.liveness": {"Each run is judged at its end with the checker's liveness checks on: on a healed, quiet cluster every decided transaction must be complete.",
		"每次运行结束时，检查器打开活性检查来评判：在已经修复、安静下来的集群上，每个已经决定的事务都必须已经完成。"},
	"x.attack.config":    {"Both runs use these settings:", "两次运行都使用这些设置："},
	"x.limit.added":      {"Statements you may add to the starting script: at most %d (expect lines do not count).", "在起始脚本上最多添加 %d 条语句（expect 语句不计）。"},
	"x.limit.allow":      {"The statements you add may only use:", "你添加的语句只能使用："},
	"x.limit.nobreak":    {"No break or restore.", "不能使用 break 或 restore。"},
	"x.script":           {"Your script", "你的脚本"},
	"x.check":            {"Run and check", "运行并检查"},
	"x.reset":            {"Reset to the start", "恢复为起始脚本"},
	"x.hint":             {"Hint", "提示"},
	"x.reveal":           {"Show the solution", "显示参考答案"},
	"x.solution":         {"A solution", "一个参考答案"},
	"x.use.solution":     {"Put the solution in the editor", "把参考答案放进编辑器"},
	"x.open":             {"Open in the playground", "在演练场中打开"},
	"x.primer":           {"How scenario scripts are written: the primer lesson", "场景脚本怎么写：入门课"},
	"x.reference":        {"Every statement is described in the language reference,", "每条语句都在语言参考中有说明，"},
	"x.running":          {"Running your script (run %d of %d, line %d)…", "正在运行你的脚本（第 %d 次运行，共 %d 次，第 %d 行）…"},
	"x.solved":           {"Solved: your script reaches the goal.", "完成：你的脚本达成了目标。"},
	"x.failed":           {"Not yet: here is what the run showed.", "还没有：下面是这次运行显示的结果。"},
	"x.tries":            {"(tries: %d)", "（已尝试 %d 次）"},
	"x.revealed":         {"The solution is shown below; try your own script too.", "参考答案已显示在下面；也试试你自己的脚本。"},
	"x.explain":          {"Why", "为什么"},
	"x.result":           {"What the run showed", "运行的结果"},
	"x.err":              {"Line %d, column %d: %s", "第 %d 行第 %d 列：%s"},
	"x.err.broken":       {"(in the run with the mechanism switched off)", "（发生在关掉机制的那次运行中）"},
	"x.held":             {"holds", "成立"},
	"x.missed":           {"does not hold; the run has", "不成立；运行中的实际值为"},
	"x.unknown":          {"cannot be evaluated:", "无法求值："},
	"x.own.line":         {"your line %d:", "你的第 %d 行："},
	"x.limit.too.many":   {"%d statements added; at most %d.", "添加了 %d 条语句；最多 %d 条。"},
	"x.limit.verb":       {"Line %d uses a statement not allowed here:", "第 %d 行使用了这里不允许的语句："},
	"x.limit.break":      {"Line %d: no break or restore in this exercise:", "第 %d 行：这个练习中不能使用 break 或 restore："},
	"x.run.broken":       {"With the mechanism switched off, the checker reports:", "关掉机制时，检查器报告："},
	"x.run.on":           {"With the mechanism on, the checker reports:", "打开机制时，检查器报告："},
	"x.run.nothing":      {"nothing", "没有任何违反"},
	"x.run.caught":       {"(one of the invariants this exercise asks for)", "（其中有这个练习要求的不变量）"},
	"x.run.notcaught":    {"(none of the invariants this exercise asks for)", "（其中没有这个练习要求的不变量）"},
	"x.explore":          {"Let the explorer try", "让探索器试试"},
	"x.explore.lead":     {"The explorer generates random fault schedules with the mechanism switched off until the checker reports the anomaly, then shrinks the schedule to a few statements.", "探索器在关掉机制的情况下随机生成故障安排，直到检查器报告异常，然后把这份安排缩减到几条语句。"},
	"x.explore.stop":     {"Stop", "停止"},
	"x.explore.search":   {"Trying fault schedules: %d of at most %d", "正在尝试故障安排：第 %d 个，最多 %d 个"},
	"x.explore.shrink":   {"Found one at schedule %d; shrinking it: %d candidates run", "在第 %d 个安排中找到了；正在缩减：已运行 %d 个候选"},
	"x.explore.found":    {"The explorer's attack, shrunk from %d statements:", "探索器找到的攻击，从 %d 条语句缩减而来："},
	"x.explore.none":     {"The explorer found nothing in %d fault schedules.", "探索器在 %d 个故障安排中没有找到任何攻击。"},
	"x.explore.stopped":  {"The explorer stopped after %d fault schedules.", "探索器在尝试 %d 个故障安排后停止了。"},
	"x.explore.use":      {"Use this script", "使用这个脚本"},
	"x.explore.progress": {"Explorer's progress", "探索器的进度"},
}

func init() {
	for k, v := range exerciseMessages {
		if _, dup := Messages[k]; !dup {
			Messages[k] = v
		}
	}
}
