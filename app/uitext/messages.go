package uitext

import (
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"txnlab/lessons/doc"
)

// messages is the UI's text in both languages, keyed by a short name: one
// catalogue, plain Go data (a catalogue library would add hundreds of kB
// to the wasm). TestEveryMessageHasBothLanguages fails on a missing one.
// The Chinese uses the glossary's terms (i18n.Glossary) and keeps Kafka's
// identifiers in Latin script.
var Messages = map[string][2]string{
	"nav.main":       {"Main", "主导航"},
	"nav.home":       {"Home", "首页"},
	"nav.lessons":    {"Lessons", "课程"},
	"nav.playground": {"Playground", "演练场"},
	"nav.scenarios":  {"Scenarios", "场景库"},
	"skip":           {"Skip to content", "跳到正文"},
	"footer":         {"Everything runs in your browser: a deterministic simulation of Kafka, compiled to WebAssembly.", "一切都在你的浏览器里运行：一个确定性的 Kafka 模拟器，编译成了 WebAssembly。"},
	"lang.label":     {"Language", "语言"},

	"home.title":      {"Kafka transactions, step by step", "一步一步看懂 Kafka 事务"},
	"home.lead":       {"txnlab teaches Apache Kafka transactions by running them. A simulated cluster — brokers, the transaction coordinator, producers and consumers — runs in your browser, one message at a time, so you can watch a commit happen, crash a broker halfway through, and replay the same history exactly.", "txnlab 通过运行来讲解 Apache Kafka 事务。一个模拟集群——Broker、事务协调器、生产者和消费者——在你的浏览器里一条消息一条消息地运行：你可以看着一次提交发生，在中途让 Broker 崩溃，再原样重放同一段历史。"},
	"home.start":      {"Start the lessons", "开始学习课程"},
	"home.playground": {"Open the playground", "打开演练场"},
	"home.scenarios":  {"Browse the scenarios", "浏览场景库"},
	"home.how":        {"How it works", "它是怎么工作的"},
	"home.how1":       {"Each lesson explains one part of the protocol and lets you run it: every claim comes with a playground that shows it.", "每一课讲解协议的一部分，并让你亲手运行：每个论断都配有一个能演示它的演练场。"},
	"home.how2":       {"Thought questions are answered by predicting, running and checking — never by reading the answer.", "思考题的答法是：先预测，再运行，然后核对——而不是直接读答案。"},
	"home.how3":       {"The same script and seed always give the same history, in the browser and on the command line.", "同样的脚本和种子总会得到同样的历史，无论在浏览器里还是在命令行中。"},

	"lessons.title":    {"Lessons", "课程"},
	"lessons.lead":     {"A course on Kafka's exactly-once transactions. Each lesson has live playgrounds and thought questions; take them in order or jump to what you need.", "一门关于 Kafka 精确一次事务的课程。每一课都有可以运行的演练场和思考题；可以按顺序学，也可以直接跳到你需要的部分。"},
	"lessons.progress": {"Your progress", "学习进度"},
	"lessons.opened":   {"opened", "已阅读"},
	"lessons.new":      {"not started", "未开始"},
	"lessons.answered": {"%d of %d questions answered correctly", "已答对 %d / %d 道思考题"},
	"lessons.export":   {"Export progress", "导出进度"},
	"lessons.import":   {"Import progress", "导入进度"},
	"lessons.imported": {"Progress imported.", "进度已导入。"},
	"lessons.badfile":  {"That file is not a txnlab progress file.", "这个文件不是 txnlab 的进度文件。"},
	"lessons.stored":   {"Progress is kept in this browser only. Export it to keep a copy or move it to another browser.", "进度只保存在这个浏览器里。导出一份，可以留作备份或转到另一个浏览器。"},
	"lesson.prev":      {"Previous", "上一课"},
	"lesson.next":      {"Next", "下一课"},
	"lesson.all":       {"All lessons", "全部课程"},
	"lesson.loading":   {"Loading the lesson…", "正在载入课程……"},
	"lesson.missing":   {"There is no lesson at this address.", "这个地址没有对应的课程。"},
	"notfound.title":   {"Page not found", "找不到这个页面"},
	"notfound.text":    {"Nothing lives at this address. It may have been mistyped, or the page may have moved.", "这个地址上没有页面：可能是地址输错了，也可能页面已经搬走。"},
	"lesson.offline":   {"This lesson could not be loaded: you may be offline and have not opened it before.", "无法载入这一课：你可能处于离线状态，且之前没有打开过它。"},

	"q.heading":        {"Thought question", "思考题"},
	"q.predict":        {"Your prediction", "你的预测"},
	"q.sure":           {"How sure are you?", "你有多大把握？"},
	"q.sure.high":      {"Sure", "很有把握"},
	"q.sure.mid":       {"Fairly sure", "比较有把握"},
	"q.sure.low":       {"Guessing", "猜的"},
	"q.check":          {"Run and check", "运行并核对"},
	"q.running":        {"Running the scenario…", "正在运行场景……"},
	"q.pick":           {"Pick an answer first: predict, then run.", "先选一个答案：先预测，再运行。"},
	"q.right":          {"Right: that is what happened.", "答对了：事情正是这样发生的。"},
	"q.wrong":          {"Not what happened. Look at the run above and try again.", "不是这样。看看上面的运行过程，再试一次。"},
	"q.tries":          {"Tries: %d", "已尝试 %d 次"},
	"q.reveal":         {"Show the answer", "显示答案"},
	"q.revealed":       {"The answer is marked.", "答案已标出。"},
	"q.evidence":       {"What the run shows (at %s of simulated time)", "运行结果（模拟时间 %s 时）"},
	"q.explain":        {"Why", "为什么"},
	"q.hint":           {"Hint", "提示"},
	"q.happened":       {"happened", "发生了"},
	"q.shown":          {"The run, stopped at the moment that decides, is in the playground:", "运行过程停在决定答案的那一刻，见演练场："},
	"ep.guard.summary": {"The script (folded: it would give the question's answer away; predict first)", "脚本（已折叠：它会泄露思考题的答案，请先预测）"},
	"ep.guard.note":    {"Predict first: the thought question about this scenario runs it when you check your answer.", "请先预测：关于这个场景的思考题会在你核对答案时运行它。"},
	"ep.guard.run":     {"Run anyway", "仍然运行"},
	"ep.guard.name":    {"Run anyway: the scenario, before predicting", "仍然运行：在预测之前运行这个场景"},
	"ep.act.label":     {"Act at this step", "在这一步动手"},
	"ep.act.here":      {"Here:", "在这里："},
	"ep.act.first":     {"Run the script first (and fix any error): the statement is written in at the current step.", "请先运行脚本（并修正错误）：语句会写入当前这一步。"},
	"ep.act.done":      {"Added %q at this step and ran the script again; Undo takes it out.", "已在这一步加入 %q 并重新运行脚本；“撤销”可以把它去掉。"},
	"update.ready":     {"A new version of txnlab is ready.", "txnlab 的新版本已经就绪。"},
	"update.reload":    {"Reload", "重新加载"},
	"crash.title":      {"Something went wrong in this page.", "这个页面出错了。"},
	"crash.text":       {"Your scripts and your progress are kept in this browser: reload to go on.", "你的脚本和学习进度都保存在这个浏览器里：重新加载即可继续。"},
	"crash.reload":     {"Reload", "重新加载"},
	"crash.dismiss":    {"Go on without reloading", "不重新加载，继续"},
	"q.modify":         {"Now change one line of the playground's script — a fault, a timeout, a broken mechanism — and run it again: does the answer still hold?", "现在改动演练场脚本中的一行——加一个故障、改一个超时、关掉一个机制——再运行一次：结论还成立吗？"},
	"q.failed":         {"The scenario could not be run: %s", "场景无法运行：%s"},
	"q.multiple":       {"Pick every answer that applies.", "选出所有符合的答案。"},
	"q.type":           {"Type your answer first: predict, then run.", "先填写答案：先预测，再运行。"},
	"q.answer":         {"Your answer", "你的答案"},
	"q.value":          {"The run's value:", "运行得出的值："},
	"q.another":        {"Try another", "换一个"},
	"q.lesson":         {"From the lesson:", "出自课程："},
	"after.summary":    {"After you answer: ", "回答之后："},
	"after.label":      {"what happens, and why", "发生了什么，为什么"},
	"after.showall":    {"Show all answers", "显示全部答案"},
	"cal.first":        {"When you were %s you were right %d of %d times", "%s时，%[3]d 次中答对 %[2]d 次"},
	"cal.more":         {"%s %d of %d", "%s时，%[3]d 次中答对 %[2]d 次"},
	"cal.high":         {"sure", "很有把握"},
	"cal.mid":          {"fairly sure", "比较有把握"},
	"cal.low":          {"unsure", "没把握"},
	"review.title":     {"Review", "复习"},
	"review.pending":   {"Drawing your round from your progress in this browser…", "正在根据你在这个浏览器里的学习进度抽题……"},
	"review.lead":      {"Questions from every lesson, more often those you got wrong, were unsure of or have not answered yet, in a new variant where one varies.", "从每一课里抽出的思考题：答错过的、没把握的、还没回答的，抽到的机会更大；能变换数值的题目会换一组新的数值。"},
	"review.again":     {"Another round", "再来一轮"},
	"review.link":      {"Review questions from every lesson", "复习各课的思考题"},

	// The playground's parts (the embedded one, the transport, the
	// diagram), keyed by their English text.
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
		"在完整的演练场中打开"},
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
	"Embedded playground": {"Embedded playground", "嵌入的演练场"},

	// The inspector's evidence: each invariant's status in words, the
	// links to the events that break one, and the break switches a
	// scenario cannot exercise (inspector.go).
	"inv.ok":       {"holds", "成立"},
	"inv.violated": {"violated", "被违反"},
	"inv.evidence": {"Evidence:", "证据："},
	"inv.goto":     {"Event #%d: go to step %d and open it", "事件 #%d：跳到第 %d 步并打开它"},
	"inv.response": {"response", "响应"},
	"inv.append":   {"append %s@%d on %s", "%[3]s 上追加 %[1]s@%[2]d"},
	// "break.never." plus a core/safety precondition: what the history
	// lacks for a mechanism that needs it to be put to work.
	"break.never": {"This scenario never exercises %s: %s. Switching it off changes nothing here.", "这个场景从不用到 %s：%s。在这里关掉它不会改变任何事情。"},
	"break.never.second-epoch": {"no producer id ever gets a second epoch (no second producer with the same transactional.id, no epoch bump)",
		"没有哪个 producer id 得到第二个 epoch（没有第二个使用同一 transactional.id 的生产者，也没有提升 epoch）"},
	"break.never.coordinator-moved": {"the transaction coordinator never moves (every WriteTxnMarkers carries coordinator epoch 0)",
		"事务协调器从未迁移（每个 WriteTxnMarkers 的协调器 epoch 都是 0）"},
	"break.never.txn-produce":          {"no transactional producer sends a record", "没有事务生产者发送记录"},
	"break.never.read-committed-fetch": {"no read_committed consumer fetches", "没有 read_committed 消费者拉取数据"},
	"break.never.txn-offset-commit": {"no producer calls send-offsets (sendOffsetsToTransaction), so no TxnOffsetCommit is sent",
		"没有生产者调用 send-offsets（sendOffsetsToTransaction），因此不会发送 TxnOffsetCommit"},
	"break.never.retried-batch": {"no idempotent Produce is ever retried", "没有任何幂等的 Produce 被重试"},
	"break.never.prepared-on-load": {"no coordinator, loading its __transaction_state partition, finds a transaction in PrepareCommit or PrepareAbort (no coordinator fails over between a decision and its markers)",
		"没有哪个协调器在载入它的 __transaction_state 分区时发现处于 PrepareCommit 或 PrepareAbort 的事务（决定之后、标记写完之前，协调器从未故障转移）"},
	"break.never.end-txn-tv2": {"no producer ends a transaction under transaction version 2 (EndTxn v5)",
		"没有生产者在事务版本 2 下结束事务（EndTxn v5）"},
	// The full playground's ways through a long history (transport.go).
	"play.skipquiet":       {"Skip quiet stretches", "跳过平静的片段"},
	"play.skipquiet.title": {"While playing, pass without a pause the steps where nothing the diagram shows happens (Step still stops at each)", "播放时，不停顿地略过时序图上什么也没发生的步骤（“前进一步”仍会逐步停下）"},
	"play.next":            {"Next interesting step", "下一个关键步骤"},
	"play.next.title":      {"Go to the next step where something new happens: a state change, a write, a crash, an error, a message that is not a repeat of a retry", "跳到下一个有新情况的步骤：状态变化、写入、崩溃、错误，或者不是重试重复的消息"},
	"play.next.none":       {"Nothing new happens after this point of the history.", "在历史的这一点之后，不再有新情况发生。"},
}

// tr is the message key in lang (a doc.Lang, or its string as the
// components' inputs carry it). A key missing from the catalogue shows as
// itself, which the catalogue test prevents from shipping.
func Tr[L ~string](lang L, key string) string {
	m, ok := Messages[key]
	if !ok {
		return key
	}
	if doc.Lang(lang) == doc.Chinese {
		return m[1]
	}
	return m[0]
}

// langOf is the language a page path is in: /zh/... is Chinese.
func LangOf(path string) doc.Lang {
	if path == "/zh" || strings.HasPrefix(path, "/zh/") {
		return doc.Chinese
	}
	return doc.English
}

// inLang is path in lang: the same page, the other language's address.
func InLang(lang doc.Lang, path string) string {
	if LangOf(path) == doc.Chinese {
		path = strings.TrimPrefix(path, "/zh")
	}
	if path == "" {
		path = "/"
	}
	if lang == doc.Chinese {
		if path == "/" {
			return "/zh/"
		}
		return "/zh" + path
	}
	return path
}

// localName names an element of the playground's contract in the page's
// language. Such an element keeps its English aria-label (tests and
// outside checks select by it: textarea[aria-label="Scenario script"]);
// on a page in another language it is also labelled by a hidden span
// holding the translation, which screen readers read instead (the
// accessible name is taken from aria-labelledby before aria-label). It
// returns the span's id for aria-labelledby and the span, or "" and nil
// on an English page.
func LocalName[L ~string](lang L, name, id string) (string, app.UI) {
	label := Tr(lang, name)
	if label == name {
		return "", nil
	}
	return id, app.Span().ID(id).Class("visually-hidden").Text(label)
}

// labelledBy is localName's id alone, for an element whose hidden label
// is drawn elsewhere.
func LabelledBy[L ~string](lang L, name, id string) string {
	id, _ = LocalName(lang, name, id)
	return id
}
