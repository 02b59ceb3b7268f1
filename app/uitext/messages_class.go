package uitext

import (
	"fmt"

	"txnlab/lessons/doc"
)

// classMessages is the class's text (app/class) and the reasons the class
// API gives for a refusal (classroom.Error's keys), which the server
// answers in the page's language through ClassText.
var classMessages = map[string][2]string{
	"class.teach":        {"Teach a class", "带一堂课"},
	"class.teach.what":   {"Start a live class: students join with a code, their pages follow your script and step, and the class predicts your questions.", "开一堂直播课：学生用加入码加入，他们的页面跟随你的脚本和步骤，全班一起预测你提出的问题。"},
	"class.start":        {"Start a class", "开始上课"},
	"class.join":         {"Join the class", "加入课堂"},
	"class.join.what":    {"Your page will follow the instructor's. No account: a name is optional, and only the class sees it.", "你的页面会跟随讲师的页面。无需账号：名字可填可不填，只有本课堂能看到。"},
	"class.name":         {"Your name (optional)", "你的名字（可选）"},
	"class.join.go":      {"Join", "加入"},
	"class.yours":        {"Your class", "你的课堂"},
	"class.code":         {"Join code:", "加入码："},
	"class.link":         {"Students open:", "学生打开："},
	"class.students":     {"student(s) in", "名学生在线"},
	"class.nats.down":    {"The class's message service is unreachable: students see no new step until it is back; the class then resumes by itself.", "课堂的消息服务暂时无法连接：在它恢复之前，学生看不到新的步骤；恢复后课堂会自动继续。"},
	"class.unreachable":  {"The server could not be reached. Check the connection and try again.", "无法连接服务器。请检查网络后重试。"},
	"class.csv":          {"Download the results (CSV)", "下载结果（CSV）"},
	"class.end":          {"End the class", "结束课堂"},
	"class.ended":        {"The class has ended.", "这堂课已经结束。"},
	"class.q.new":        {"Ask the class a question", "向全班提一个问题"},
	"class.q.text":       {"Question", "问题"},
	"class.q.choices":    {"Choices, one per line", "选项，每行一个"},
	"class.q.open":       {"Open to the class", "向全班开放"},
	"class.q.close":      {"Close the vote", "结束投票"},
	"class.q.again":      {"Vote again after discussion", "讨论后再投一次"},
	"class.q.lesson":     {"Open one of this lesson's questions to the class", "把本课的一道思考题开放给全班"},
	"class.tally":        {"Predictions so far:", "目前的预测数："},
	"class.tally.before": {"first vote:", "第一轮："},
	"class.in":           {"In a class.", "正在上课。"},
	"class.following":    {"Your page follows the instructor's.", "你的页面正跟随讲师。"},
	"class.exploring":    {"You are exploring on your own.", "你正在自己探索。"},
	"class.detach":       {"Explore on my own", "自己探索"},
	"class.rejoin":       {"Follow the instructor again", "重新跟随讲师"},
	"class.commit":       {"Commit my prediction", "提交我的预测"},
	"class.closed.yours": {"The vote is closed. You predicted: %s", "投票已结束。你的预测：%s"},
	"class.qr":           {"QR code of the link: a phone's camera opens it", "链接的二维码：用手机相机扫描即可打开"},
	"class.voted":        {"Your prediction is in.", "你的预测已提交。"},

	"class.err.off":        {"This server runs no classes (it was started without them, or this is a static copy).", "这个服务器没有开启课堂功能（启动时未启用，或者这是静态副本）。"},
	"class.err.method":     {"This address does not take that method.", "这个地址不接受这种请求方法。"},
	"class.err.noop":       {"There is no such class operation.", "没有这种课堂操作。"},
	"class.err.rate":       {"Too many messages at once: wait a moment and try again.", "消息发得太快了：请稍等片刻再试。"},
	"class.err.read":       {"The message could not be read.", "无法读取这条消息。"},
	"class.err.toobig":     {"The message is over %d bytes.", "消息超过了 %d 字节。"},
	"class.err.field":      {"The message has a field it should not: %s.", "消息里有不该有的字段：%s。"},
	"class.err.type":       {"A field of the message has the wrong type: %s.", "消息中的字段类型不对：%s。"},
	"class.err.json":       {"The message is not one JSON object.", "消息不是单个 JSON 对象。"},
	"class.err.script":     {"The script is over %d bytes: a class shares shorter ones.", "脚本超过了 %d 字节：课堂只能共享更短的脚本。"},
	"class.err.text":       {"The text is not valid UTF-8, or contains a NUL byte.", "文本不是有效的 UTF-8，或者含有 NUL 字节。"},
	"class.err.step":       {"The step is out of range.", "步骤超出了范围。"},
	"class.err.lesson":     {"That is not a lesson's name.", "这不是一个课程的名称。"},
	"class.err.block":      {"That is not one of the lesson's playgrounds.", "这不是本课中的一个演练场。"},
	"class.err.action":     {"The action must be open, again or close.", "操作只能是 open、again 或 close。"},
	"class.err.question":   {"The question needs a text (up to 600 bytes).", "问题需要有文字（最多 600 字节）。"},
	"class.err.choices":    {"A question needs 2 to %d non-empty choices.", "一个问题需要 2 到 %d 个非空选项。"},
	"class.err.code":       {"A join code has 10 letters and digits, like ABCDE-FGHJK.", "加入码由 10 个字母和数字组成，例如 ABCDE-FGHJK。"},
	"class.err.name":       {"A name has at most %d characters and no control characters.", "名字最多 %d 个字符，且不能含控制字符。"},
	"class.err.choice":     {"That choice is not one of the question's.", "这个选项不属于这道题。"},
	"class.err.sure":       {"How sure must be 0, 1 or 2.", "把握程度只能是 0、1 或 2。"},
	"class.err.round":      {"The round must be a positive number.", "轮次必须是正数。"},
	"class.err.nats":       {"The class's message service is unreachable right now; nothing was changed. Try again in a moment.", "课堂的消息服务暂时无法连接；什么都没有改变。请稍后再试。"},
	"class.err.classes":    {"This server already runs %d classes: try again later.", "这个服务器已经在运行 %d 堂课：请稍后再试。"},
	"class.err.yours":      {"You already run %d classes on this server: end one first.", "你已经在这个服务器上开了 %d 堂课：请先结束一堂。"},
	"class.err.noclass":    {"There is no such class.", "没有这堂课。"},
	"class.err.expired":    {"This class has ended.", "这堂课已经结束。"},
	"class.err.secret":     {"Only the class's instructor can do that.", "只有这堂课的讲师才能这样做。"},
	"class.err.nocode":     {"No class has this join code: check it, or ask the instructor for a new one.", "没有课堂使用这个加入码：请核对，或向讲师要一个新的。"},
	"class.err.full":       {"The class is full (%d students).", "课堂已满（%d 名学生）。"},
	"class.err.student":    {"You are not in this class: join it with its code.", "你不在这堂课里：请用加入码加入。"},
	"class.err.noquestion": {"No question has been asked yet.", "还没有提出过问题。"},
	"class.err.closed":     {"This vote is closed.", "这一轮投票已经结束。"},
}

func init() {
	for k, v := range classMessages {
		if _, dup := Messages[k]; !dup {
			Messages[k] = v
		}
	}
}

// ClassText is a class message in lang, its verbs filled: the server's
// reason for refusing a class message, in the page's language.
func ClassText(lang doc.Lang, key string, args ...any) string {
	s := Tr(lang, key)
	if len(args) > 0 {
		s = fmt.Sprintf(s, args...)
	}
	return s
}
