package uitext

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// A script error on a Chinese page says what is wrong in Chinese. The
// core writes its errors in English (they are the CLI's too); errorTexts
// holds the forms of those sentences and their Chinese, and a page reads
// an error's values out of its English by the form it matches. A form no
// entry matches keeps the general lead with the identifiers it names
// (CoreErrorIn), so a Chinese page never shows the English.

// errorTexts are the core's error forms and their Chinese, the specific
// before the general: the first that matches the whole error wins.
//
// In en, %q is a Go-quoted string ("sned", "\"expect\""), %d a number,
// and %s any text up to the rest of the form (the shortest that lets the
// rest match): each is a value as a script writes it (a name, a number,
// a list of options, an example statement), never English that varies.
// In zh, each %s takes the next value and %[n]s the nth, both as code,
// and `…` marks code too; the page ends the sentence with 。 (unless it
// asks, with ？). A "did you mean" is taken out of the error before it
// is matched and said after the sentence. A %q's value shows without its
// quotes (quotedValue).
//
// A new error of the core needs a case in the corpus
// (core/scenario/testdata/bad-lines.txt, or a script in the test) and a
// form here: TestEveryCoreErrorHasACase reads the core's source and
// fails for an error no case makes.
var errorTexts = []struct{ en, zh string }{
	// Quotes and characters.
	{"a quote must enclose the whole value", "引号必须括住整个值"},
	{"unterminated quote: add a closing \"", "引号未闭合：请补上结束引号 `\"`"},
	{"unexpected text after the closing quote", "结束引号后面有多余的文字"},
	{`unknown escape %q in quotes: only \" and \\ are allowed`, "引号中有未知的转义 %s：只允许 `\\\"` 和 `\\\\`"},
	{"invalid UTF-8 byte %s", "无效的 `UTF-8` 字节 %s"},
	{"unexpected control character %s", "意外的控制字符 %s"},

	// Records and values.
	{`record key is empty: write ""=VALUE for an empty key`, "记录的键为空：空键要写成 `\"\"=VALUE`"},
	{`record value is empty: write KEY="" for an empty value`, "记录的值为空：空值要写成 `KEY=\"\"`"},
	{`the value is empty: write %s:"" for an empty value`, "值为空：空值要在 %s 后面写 `:\"\"`"},
	{"expected a record KEY=VALUE, got %q", "应为一条记录 `KEY=VALUE`，实际为 %s"},

	// Expected forms.
	{`expected "=" after %s (with nothing or none after it for none)`, "%s 后面应为 `=`（`=` 后面什么都不写或写 `none` 表示无）"},
	{`expected "=" after %s, got %q`, "%s 后面应为 `=`，实际为 %s"},
	{`expected ',' or '|' before %q`, "%s 前面应为 `,` 或 `|`"},
	{"expected TOPIC/PARTITION in %s=, got an empty item (for no partitions write %s=none, or %s= with nothing after it)", "选项 %s 中应为 `TOPIC/PARTITION`，实际为空项（没有分区时，在 %[1]s 后面写 `=none`，或 `=` 后面什么都不写）"},
	{"expected TOPIC/PARTITION like orders/0, got %q", "应为 `TOPIC/PARTITION`（例如 `orders/0`），实际为 %s"},
	{"expected TOPIC/PARTITION=OFFSET, got %q", "应为 `TOPIC/PARTITION=OFFSET`，实际为 %s"},
	{"expected a broker in %s=, got an empty item (for no brokers write %s=none)", "选项 %s 中应为一个 Broker，实际为空项（没有 Broker 时，在 %[1]s 后面写 `=none`）"},
	{"expected a log entry P:VALUE, COMMIT(P) or ABORT(P), got %q", "应为一条日志条目 `P:VALUE`、`COMMIT(P)` 或 `ABORT(P)`，实际为 %s"},
	{"expected a node (broker-N, a client, coordinator(ID), group-coordinator(GROUP) or leader(TOPIC/PART)), got %q", "应为一个节点（`broker-N`、客户端、`coordinator(ID)`、`group-coordinator(GROUP)` 或 `leader(TOPIC/PART)`），实际为 %s"},
	{"expected a node after the last separator", "最后一个分隔符后面应有一个节点"},
	{"expected a node before %q", "%s 前面应有一个节点"},
	{"expected an aborted transaction P@FIRST_OFFSET (a producer and the offset its transaction began at), got %q", "应为一个已中止的事务 `P@FIRST_OFFSET`（生产者，以及它的事务开始时的偏移量），实际为 %s"},
	{"expected an offset or none after %s=, got %q", "%s 的 `=` 后面应为偏移量或 `none`，实际为 %s"},
	{"expected an offset, none or unstable after %s=, got %q", "%s 的 `=` 后面应为偏移量、`none` 或 `unstable`，实际为 %s"},
	{"expected an option KEY=VALUE (%s), got %q", "应为选项 `KEY=VALUE`（%s），实际为 %s"},
	{"expected ok, error, pending, state, records, position or aborted after expect %s, got %q", "`expect` %s 后面应为 `ok`、`error`、`pending`、`state`、`records`、`position` 或 `aborted`，实际为 %s"},
	{`missing ")" at the end of %q`, "%s 末尾缺少 `)`"},
	{`missing ")" in %q`, "%s 中缺少 `)`"},

	// Arguments left over.
	{"unexpected %q: %s takes no arguments (a trailing & is allowed)", "多余的 %s：%s 不接受参数（末尾可以加 `&`）"},
	{"unexpected %q: %s takes no arguments", "多余的 %s：%s 不接受参数"},
	{"unexpected %q: %s takes a partition and an offset", "多余的 %s：%s 只接受一个分区和一个偏移量"},
	{"unexpected %q: %s takes one duration", "多余的 %s：%s 只接受一个时长"},
	{"unexpected %q: %s takes one node", "多余的 %s：%s 只接受一个节点"},
	{"unexpected %q: %s takes at most one invariant", "多余的 %s：%s 最多接受一个不变量"},
	{`unexpected %q: %s takes nothing or "violation [INVARIANT]"`, "多余的 %s：%s 后面要么什么都不写，要么写 `violation [INVARIANT]`"},
	{"unexpected %q: %s takes nothing more", "多余的 %s：%s 后面不能再写别的"},
	{"unexpected %q: %s takes only FIELD=VALUE options (%s)", "多余的 %s：%s 只接受 `FIELD=VALUE` 形式的选项（%s）"},

	// Unknown names.
	{"unknown statement %q", "未知的语句 %s"},
	{"unknown producer action %q (a producer can %s)", "未知的生产者操作 %s（生产者可以 %s）"},
	{"unknown consumer action %q (a consumer can %s); %s is a consumer", "未知的消费者操作 %s（消费者可以 %s）；%s 是消费者"},
	{"unknown client %q: declare it with producer or consumer first", "未知的客户端 %s：请先用 `producer` 或 `consumer` 声明它"},
	{"unknown client state %q (states: %s)", "未知的客户端状态 %s（状态有：%s）"},
	{"unknown topic %q: declare it with topic first", "未知的主题 %s：请先用 `topic` 声明它"},
	{"unknown option %q for %s; options: %s", "%[2]s 不支持选项 %[1]s；可用的选项有：%[3]s"},
	{"unknown option %q for %s", "%[2]s 不支持选项 %[1]s"},
	{"unknown API %q (APIs: %s)", "未知的 API %s（API 有：%s）"},
	{"unknown API %q", "未知的 API %s"},
	{"unknown suffix %q: write %s for requests or %s.response for responses", "未知的后缀 %s：请求写 %s，响应写 %s 加后缀 `.response`"},
	{"unknown Kafka error or client exception %q", "未知的 Kafka 错误或客户端异常 %s"},
	{"unknown Kafka error %q", "未知的 Kafka 错误 %s"},
	{"unknown expectation %q: expected a client name or one of %s", "未知的预期 %s：应为客户端名称，或 %s 之一"},
	{"unknown invariant %q (invariants: %s)", "未知的不变量 %s（不变量有：%s）"},
	{"unknown mechanism %q (mechanisms: %s)", "未知的机制 %s（机制有：%s）"},
	{"unknown transaction state %q (a __transaction_state record holds one)", "未知的事务状态 %s（`__transaction_state` 的记录保存的是事务状态）"},
	{"unknown transaction state %q (states: %s)", "未知的事务状态 %s（状态有：%s）"},

	// A statement that needs a client before it.
	{`%q needs a client first: write %q with a declared producer or consumer`, "%s 前面需要一个客户端：写成 %s，其中 `NAME` 是已声明的生产者或消费者"},

	// Ranges and kinds of values: the specific before the general.
	{"the partition must be between %d and %d, got %d", "分区必须在 %s 到 %s 之间，实际为 %s"},
	{"%s must be between %d and %d (the number of brokers), got %d", "%s 必须在 %s 到 %s（Broker 的数量）之间，实际为 %s"},
	{"%s must be between %d and %d (%s is %d), got %d", "%s 必须在 %s 到 %s 之间（%s 为 %s），实际为 %s"},
	{"%s must be between %d and %d, got %d", "%s 必须在 %s 到 %s 之间，实际为 %s"},
	{"the offset must be a non-negative integer, got %q", "偏移量必须是非负整数，实际为 %s"},
	{"the partition must be a non-negative integer, got %q", "分区必须是非负整数，实际为 %s"},
	{"%s must be a non-negative integer, got %q", "%s 必须是非负整数，实际为 %s"},
	{"%s must be a positive integer, got %q", "%s 必须是正整数，实际为 %s"},
	{"%s must be true or false, got %q", "%s 必须是 `true` 或 `false`，实际为 %s"},
	{"%s must be a duration like 250ms, 5s, 2m, 3h or 7d, got %q", "%s 必须是时长，例如 `250ms`、`5s`、`2m`、`3h` 或 `7d`，实际为 %s"},
	{"acks must be all, -1, 1 or 0, got %q", "`acks` 必须是 `all`、`-1`、`1` 或 `0`，实际为 %s"},
	{"isolation.level must be read_committed or read_uncommitted, got %q", "`isolation.level` 必须是 `read_committed` 或 `read_uncommitted`，实际为 %s"},
	{"%s must be ABORT or COMMIT, got %q", "%s 必须是 `ABORT` 或 `COMMIT`，实际为 %s"},
	{"%s must be a broker (broker-0 to %s) or none, got %q", "%s 必须是一个 Broker（`broker-0` 到 %s）或 `none`，实际为 %s"},
	{"%s must be at most %d to use the idempotent producer, as in Kafka", "使用幂等生产者时，%s 不能超过 %s，与 Kafka 一致"},
	{"%s must be at most %s, got %s", "%s 不能超过 %s，实际为 %s"},
	{"%s must be at least %s (%s), as in Kafka", "%s 不能小于 %s（%s），与 Kafka 一致"},
	{"%s must be at least %s, got %s", "%s 不能小于 %s，实际为 %s"},
	{"the transactional id must not be empty", "事务 ID 不能为空"},
	{"%s must not be empty", "%s 不能为空"},

	// Idempotence, as Kafka requires it.
	{"a transactional producer needs idempotence: drop enable.idempotence=false and keep acks=all, as in Kafka", "事务生产者需要幂等性：去掉 `enable.idempotence=false` 并保留 `acks=all`，与 Kafka 一致"},
	{"a transactional producer needs idempotence: %s above %d turns it off; write at most %d, as in Kafka", "事务生产者需要幂等性：%s 大于 %s 会关闭幂等性；请写不超过 %s 的值，与 Kafka 一致"},
	{"enable.idempotence=true needs acks=all, as in Kafka", "`enable.idempotence=true` 需要 `acks=all`，与 Kafka 一致"},

	// What a statement needs.
	{"%s needs at least one TOPIC/PARTITION, e.g. %s", "%s 至少需要一个 `TOPIC/PARTITION`，例如 %s"},
	{"%s needs at least one TOPIC/PARTITION", "%s 至少需要一个 `TOPIC/PARTITION`"},
	{"%s needs at least one TOPIC/PARTITION=N|none|unstable", "%s 至少需要一个 `TOPIC/PARTITION=N|none|unstable`"},
	{"%s needs at least one TOPIC/PARTITION=N|none, e.g. %s", "%s 至少需要一个 `TOPIC/PARTITION=N|none`，例如 %s"},
	{"%s needs at least one TOPIC/PARTITION=OFFSET after the group", "%s 在组名之后至少需要一个 `TOPIC/PARTITION=OFFSET`"},
	{"%s needs at least one KEY=VALUE, e.g. %s", "%s 至少需要一个 `KEY=VALUE`，例如 %s"},
	{"%s needs at least one record KEY=VALUE after %s", "%s 在 %s 之后至少需要一条记录 `KEY=VALUE`"},
	{"%s needs at least one of %s", "%s 至少需要 %s 中的一个"},
	{"%s needs a duration, e.g. %s", "%s 需要一个时长，例如 %s"},
	{"%s needs by=DURATION, e.g. %s", "%s 需要 `by=DURATION`，例如 %s"},
	{"%s needs an API, e.g. %s", "%s 需要一个 API，例如 %s"},
	{"%s needs a name, e.g. %s", "%s 需要一个名字，例如 %s"},
	{"%s needs a transactional id, e.g. %s", "%s 需要一个事务 ID，例如 %s"},
	{"%s needs a partition and records, e.g. %s", "%s 需要分区和记录，例如 %s"},
	{"%s needs groups of nodes, e.g. %s", "%s 需要若干组节点，例如 %s"},
	{"%s needs a broker, %s to %s, got %q", "%s 需要一个 Broker（%s 到 %s），实际为 %s"},
	{"%s needs a Kafka error name, e.g. %s, or a client exception, e.g. %s", "%s 需要一个 Kafka 错误名（例如 %s）或客户端异常（例如 %s）"},
	{"%s needs a node: broker-N, a client, coordinator(ID), group-coordinator(GROUP) or leader(TOPIC/PART)", "%s 需要一个节点：`broker-N`、一个客户端、`coordinator(ID)`、`group-coordinator(GROUP)` 或 `leader(TOPIC/PART)`"},
	{"%s needs a mechanism: %s", "%s 需要一个机制：%s"},
	{"%s needs an offset after %s", "%s 在 %s 之后需要一个偏移量"},
	{"%s needs a client name", "%s 需要一个客户端名"},
	{"%s needs a value: write %s", "%s 需要一个值：请写 %s"},
	{"expect needs a subject: a client name, or one of %s", "`expect` 需要一个检查对象：客户端名，或 %s 之一"},
	{"partition needs at least two groups separated by '|' (use isolate to cut off one node)", "`partition` 至少需要两组节点，用 `|` 分隔（要隔离单个节点请用 `isolate`）"},
	{"request needs from=PRODUCER: the producer whose connection sends it", "`request` 需要 `from=PRODUCER`：即由哪个生产者的连接发送它"},
	{"%s needs %s: true to commit, false to abort", "%s 需要 %s：`true` 表示提交，`false` 表示中止"},
	{"%s needs %s: the batch's first sequence number (-1 for none)", "%s 需要 %s：批次的第一个序列号（没有则为 `-1`）"},
	{"%s needs epoch=N (%d to %d): the epoch the transactional id starts at", "%s 需要 `epoch=N`（%s 到 %s）：该事务 ID 起始的 epoch"},

	// Names.
	{"client name %q must start with a lowercase letter and hold only a-z, 0-9, '_' and '-'", "客户端名 %s 必须以小写字母开头，且只能包含 `a-z`、`0-9`、`_` 和 `-`"},
	{"%s has no group.id: %s needs one; declare the consumer with group.id=GROUP", "%s 没有 `group.id`：%s 需要它；请用 `group.id=GROUP` 声明该消费者"},

	// Clients, topics and the cluster: what a name is, what it can do now.
	{"NONE is success: write expect NAME ok", "`NONE` 表示成功：请写 `expect NAME ok`"},
	{"a crashed client cannot be restarted: declare a new one", "已崩溃的客户端无法重启：请声明一个新的客户端"},
	{"option %s is given twice", "选项 %s 被指定了两次"},
	{"%s is given twice", "%s 被指定了两次"},
	{"%s is named twice", "%s 被列出了两次"},
	{"%s does not exist: the cluster has %s to %s", "%s 不存在：集群只有 %s 到 %s"},
	{"%s is a consumer: log entries name the producer that wrote them", "%s 是消费者：日志条目标明的是写入它们的生产者"},
	{"%s is a consumer: request is sent from a producer", "%s 是消费者：`request` 要从生产者发出"},
	{"%s is a consumer: %s applies to producers", "%s 是消费者：%s 只适用于生产者"},
	{"%s is a producer: %s applies to consumers", "%s 是生产者：%s 只适用于消费者"},
	{"%s is a producer: say what it does (%s)", "%s 是生产者：请写出它要做什么（%s）"},
	{"cannot send to the internal topic %s", "不能向内部主题 %s 发送"},
	{"client %q is already declared on line %d: a crashed or closed client stays declared; declare a new name", "客户端 %s 已在第 %s 行声明：已崩溃或已关闭的客户端仍算已声明；请用一个新名字声明"},
	{"client name %q looks like a broker: choose another name", "客户端名 %s 看起来像 Broker：请换一个名字"},
	{"client name %q is a keyword of the language: choose another name", "客户端名 %s 是脚本语言的关键字：请换一个名字"},
	{"error= applies to responses: write %s", "`error=` 只适用于响应：请写 %s"},
	{"%s has no transactional.id: %s is a transactional call; declare the producer with transactional.id=ID", "%s 没有 `transactional.id`：%s 是事务调用；声明该生产者时请写上 `transactional.id=ID`"},
	{"%s has crashed: a crashed client cannot act; declare a new one", "%s 已崩溃：已崩溃的客户端不能再执行操作；请声明一个新的客户端"},
	{"%s has made no call to wait for", "%s 没有可等待的调用"},
	{"%s is paused: resume it first", "%s 已暂停：请先用 `resume` 恢复它"},
	{"%s is still in its %s call: wait for it first (%s)", "%s 的 %s 调用尚未完成：请先等待它（%s）"},
	{"partition %d does not exist: topic %s has one partition, %d", "分区 %s 不存在：主题 %s 只有一个分区 %s"},
	{"partition %d does not exist: topic %s has partitions %d to %d", "分区 %s 不存在：主题 %s 只有分区 %s 到 %s"},
	{"request cannot send %s: it sends %s", "`request` 不能发送 %s：它只能发送 %s"},
	{"request sends requests: write %s without .response", "`request` 发送的是请求：请写 %s，不带 `.response`"},
	{"the cluster was already created on line %d: a script has one cluster statement", "集群已在第 %s 行创建：一个脚本只能有一条 `cluster` 语句"},
	{"topic %q is already declared on line %d", "主题 %s 已在第 %s 行声明"},
	{"topic name %q is not allowed", "主题名 %s 不允许使用"},
	{"topic name %q may only hold letters, digits, '.', '_' and '-' (at most 249)", "主题名 %s 只能包含字母、数字、`.`、`_` 和 `-`（最多 249 个字符）"},
	{"topic names starting with __ are reserved for Kafka's internal topics", "以 `__` 开头的主题名保留给 Kafka 的内部主题"},

	// The wire: external clients, their requests, and requests refused.
	{"%s is an external client: it acts only through request API from=%s …", "%s 是外部客户端：它只能通过 `request API from=NAME …` 行事（`NAME` 为 %[1]s）"},
	{"expected NAME=VALUE options, from=CLIENT among them, after request %s; got %q", "`request` %s 后面应为 `NAME=VALUE` 形式的选项，其中要有 `from=CLIENT`；实际为 %s"},
	{"a request from the external client %s needs to=broker-N", "外部客户端 %s 的请求需要 `to=broker-N`"},
	{"an external client's request goes to a broker: write to=broker-N", "外部客户端的请求发往 Broker：请写 `to=broker-N`"},
	{"a request from the external client %s needs conn=N: the connection it goes on", "外部客户端 %s 的请求需要 `conn=N`：即它所走的连接"},
	{"%s holds more than %d items", "%s 中的项多于 %s 个"},
	{"expected TOPIC/PARTITION:OFFSET, got %q", "应为 `TOPIC/PARTITION:OFFSET`，实际为 %s"},
	{"expected TOPIC/PARTITION:FETCH_OFFSET, got %q", "应为 `TOPIC/PARTITION:FETCH_OFFSET`，实际为 %s"},
	{"expected TOPIC/PARTITION:TIMESTAMP:CURRENT_LEADER_EPOCH, got %q", "应为 `TOPIC/PARTITION:TIMESTAMP:CURRENT_LEADER_EPOCH`，实际为 %s"},
	{"expected NAME:TOPIC+TOPIC, got %q", "应为 `NAME:TOPIC+TOPIC`，实际为 %s"},
	{"topic name %q may only hold letters, digits, '.', '_' and '-'", "主题名 %s 只能包含字母、数字、`.`、`_` 和 `-`"},
	{"expected MEMBER:TOPIC/PART+TOPIC/PART, got %q", "应为 `MEMBER:TOPIC/PART+TOPIC/PART`，实际为 %s"},
	{"expected MEMBER_ID[:GROUP_INSTANCE_ID[:REASON]] in Members", "`Members` 中应为 `MEMBER_ID[:GROUP_INSTANCE_ID[:REASON]]`"},
	{"expected PRODUCER_ID:EPOCH:COMMIT|ABORT:COORDINATOR_EPOCH:TOPIC/PART+TOPIC/PART, got %q", "应为 `PRODUCER_ID:EPOCH:COMMIT|ABORT:COORDINATOR_EPOCH:TOPIC/PART+TOPIC/PART`，实际为 %s"},
	{"%s is a list of names: quote a name that holds ':'", "%s 是一个名字列表：含有 `:` 的名字要加引号"},
	{"a record needs a partition before it: TOPIC/PART then KEY=VALUE", "记录前面需要一个分区：先写 `TOPIC/PART`，再写 `KEY=VALUE`"},
	{"partition %s has no records: write KEY=VALUE after it", "分区 %s 没有记录：请在它后面写 `KEY=VALUE`"},
	{"%s describes a record: write it after KEY=VALUE", "%s 描述的是一条记录：请把它写在 `KEY=VALUE` 后面"},
	{`^nullkey follows a record whose key is not empty: write ""=VALUE ^nullkey`, "`^nullkey` 跟在一条键不为空的记录后面：请写 `\"\"=VALUE ^nullkey`"},
	{`^nullvalue follows a record whose value is not empty: write KEY="" ^nullvalue`, "`^nullvalue` 跟在一条值不为空的记录后面：请写 `KEY=\"\" ^nullvalue`"},
	{"a record holds at most %d headers", "一条记录最多有 %s 个头"},
	{"unknown record attribute %q: a record takes ^nullkey, ^nullvalue, ^ts=MS and ^h=NAME:VALUE", "未知的记录属性 %s：记录可以带 `^nullkey`、`^nullvalue`、`^ts=MS` 和 `^h=NAME:VALUE`"},
	{"request needs an API (%s), e.g. %s", "`request` 需要一个 API（%s），例如 %s"},
	{"request Produce needs a partition and records after its fields, e.g. %s", "`request Produce` 在字段之后需要一个分区和记录，例如 %s"},
	{"refused names a request: write %s without .response", "`refused` 指的是请求：请写 %s，不带 `.response`"},
	{"refused needs from=CLIENT: the external client that sent it", "`refused` 需要 `from=CLIENT`：即发送该请求的外部客户端"},
	{"%s is not an external client: only a real client's request is refused at the wire", "%s 不是外部客户端：只有真实客户端的请求才会在线路上被拒绝"},
	{"refused needs to=broker-N: the broker whose port took it", "`refused` 需要 `to=broker-N`：即由哪个 Broker 的端口接收了该请求"},
	{"a request is refused by a broker: write to=broker-N", "请求是由 Broker 拒绝的：请写 `to=broker-N`"},
	{"refused needs error=NAME: what the client was answered, e.g. CORRUPT_MESSAGE", "`refused` 需要 `error=NAME`：即客户端收到的应答，例如 `CORRUPT_MESSAGE`"},
	{"unknown error %q: write Kafka's name, e.g. CORRUPT_MESSAGE", "未知的错误 %s：请写 Kafka 的错误名，例如 `CORRUPT_MESSAGE`"},

	// The run: a node that is not in the state a statement needs.
	{"%s is not crashed", "%s 并未崩溃"},
	{"%s is not paused", "%s 并未暂停"},
	{"the admin is crashed", "管理客户端已崩溃"},
	{"the admin is paused", "管理客户端已暂停"},
	{"%s is crashed", "%s 已崩溃"},
	{"%s is paused", "%s 已暂停"},

	// The playground's engine: a button's statement refused before it runs.
	{"load a script first", "请先载入脚本"},
	{"no script is loaded", "还没有载入脚本"},
	{"step once first: the cluster does not exist yet", "请先前进一步：集群还不存在"},
	{"the script stops with an error at line %d: fix that line first", "脚本在第 %s 行因错误而停止：请先修正那一行"},
	{"%s has crashed: its connection is gone; declare a new producer", "%s 已崩溃：它的连接已断开；请声明一个新的生产者"},

	// A whole script: the cluster statement first, and the limits.
	{`the script must start with a cluster statement, e.g. "cluster brokers=3"`, "脚本必须以 `cluster` 语句开头，例如 `cluster brokers=3`"},
	{"cluster must be the first statement", "`cluster` 必须是第一条语句"},
	{"seed must be a non-negative integer below 2^64, got %q", "`seed` 必须是小于 `2^64` 的非负整数，实际为 %s"},
	{"latency minimum %s is above the maximum %s", "`latency` 的最小值 %s 大于最大值 %s"},
	{"too many topics: at most %d", "主题太多：最多 %s 个"},
	{"too many clients: at most %d", "客户端太多：最多 %s 个"},
	{"no broker is alive to answer %s", "没有存活的 Broker 能应答 %s"},
	{"transactional id %q already has metadata: write txn before any producer uses it", "事务 ID %s 已经有元数据：请在任何生产者使用它之前写 `txn`"},
	{"producer id %d may already be in use: choose one at or above %d", "生产者 ID %s 可能已被使用：请选择不小于 %s 的 ID"},
	{"no live broker leads %s (the partition of %q) now", "现在没有存活的 Broker 领导 %s（%s 所在的分区）"},
	{"the coordinator could not write the metadata of %q: %s", "协调器无法写入 %s 的元数据：%s"},

	// The bounds on a script's work, which keep a page from freezing.
	{"script too long: at most %d lines", "脚本太长：最多 %s 行"},
	{"stopped after %d events (the per-statement bound) at %s; run for less time or fix what keeps retrying", "执行了 %s 个事件后在 %s 停止（每条语句的上限）；请缩短运行时间，或修正不断重试的地方"},
	{"the history passed %d events here; run for less time or fix what keeps retrying", "历史在这里超过了 %s 个事件；请缩短运行时间，或修正不断重试的地方"},
	{"more than %d events wait to run at %s (messages in flight and timers): something resends faster than time passes; a zero timeout or backoff?", "在 %[2]s 时有超过 %[1]s 个事件等待执行（在途消息和定时器）：有东西重发得比时间流逝还快；是不是把某个超时或退避设成了 `0`？"},
	{"the run passed %d events in all (the bound on a script's work) at %s; advance or run for less time", "运行到 %[2]s 时总共超过了 %[1]s 个事件（脚本工作量的上限）；请少推进一些时间，或缩短运行时间"},
	{"the clock would pass %s (the bound on a script's virtual time) here; advance or run for less time", "时钟在这里将超过 %s（脚本虚拟时间的上限）；请少推进一些时间，或缩短运行时间"},

	// The compare page's settings (scenario.ParseSettings).
	{"%q: settings are KEY=VALUE (a config key, break=, seed= or kafka=)", "%s：设置要写成 `KEY=VALUE`（配置项，或 `break=`、`seed=`、`kafka=`）"},
	{"seed=%s: a positive integer", "`seed` 必须是正整数，实际为 %s"},
	{"break=%s: unknown mechanism (%s)", "`break` 后面是未知的机制 %s（机制有：%s）"},
	{"kafka=%s: one of %s", "`kafka` 必须是 %[2]s 之一，实际为 %[1]s"},

	// Admin, expectations, groups and setup: more of the language.
	{"admin find-hanging takes topic= or broker=, not both", "`admin find-hanging` 接受 `topic=` 或 `broker=`，但不能两个都写"},
	{"admin find-hanging needs topic=T or broker=N to limit the search, as kafka-transactions.sh does", "`admin find-hanging` 需要 `topic=T` 或 `broker=N` 来限定查找范围，与 `kafka-transactions.sh` 的做法一致"},
	{"unknown admin command %q (commands: %s)", "未知的管理命令 %s（命令有：%s）"},
	{"unknown transaction state %q (Empty, Ongoing, PrepareCommit, PrepareAbort, CompleteCommit, CompleteAbort, PrepareEpochFence)", "未知的事务状态 %s（状态有：`Empty`、`Ongoing`、`PrepareCommit`、`PrepareAbort`、`CompleteCommit`、`CompleteAbort`、`PrepareEpochFence`）"},
	{"unknown group state %q (states: %s)", "未知的组状态 %s（状态有：%s）"},
	{"%s does not exist: the cluster has %d broker(s)", "%s 不存在：集群只有 %s 个 Broker"},
	{"expect admin needs ok, error NAME, found = WORD … or found none", "`expect admin` 需要 `ok`、`error NAME`、`found = WORD …` 或 `found none`"},
	{"expect admin error needs a Kafka error name or a client exception", "`expect admin error` 需要一个 Kafka 错误名或客户端异常"},
	{"expect admin found = needs at least one word (or write found none)", "`expect admin found =` 后面至少需要一个词（或写 `found none`）"},
	{"expect admin found needs = WORD … or none", "`expect admin found` 需要 `= WORD …` 或 `none`"},
	{"expected = or none after expect admin found, got %q", "`expect admin found` 后面应为 `=` 或 `none`，实际为 %s"},
	{"expected ok, error, or found after expect admin, got %q", "`expect admin` 后面应为 `ok`、`error` 或 `found`，实际为 %s"},
	{"expect %s needs ok, error NAME, pending, state STATE, records TOPIC/PART = ..., position TOPIC/PART=N or aborted TOPIC/PART = ...", "`expect` %s 需要 `ok`、`error NAME`、`pending`、`state STATE`、`records TOPIC/PART = ...`、`position TOPIC/PART=N` 或 `aborted TOPIC/PART = ...`"},
	{"expected %s, got nothing after %q", "应为 %s，但 %s 后面什么都没有"},
	{"expected a client name, got %q", "应为客户端名，实际为 %s"},
	{"unexpected %q: %s takes one error name", "多余的 %s：%s 只接受一个错误名"},
	{"%s needs an API and by=DURATION, e.g. %s", "%s 需要一个 API 和 `by=DURATION`，例如 %s"},
	{"%s needs a group and offsets, e.g. %s", "%s 需要组和偏移量，例如 %s"},
	{"%s needs a partition and an offset, e.g. %s", "%s 需要分区和偏移量，例如 %s"},
	{"%s needs a partition, e.g. %s", "%s 需要一个分区，例如 %s"},
	{"%s needs a group, e.g. %s", "%s 需要一个组，例如 %s"},
	{"%s needs a state, e.g. %s", "%s 需要一个状态，例如 %s"},
	{"%s needs at least one topic, e.g. %s", "%s 至少需要一个主题，例如 %s"},
	{"%s needs a transactional id", "%s 需要一个事务 ID"},
	{"%s needs a command: %s", "%s 需要一个命令：%s"},
	{"heartbeat.interval.ms must be lower than session.timeout.ms, as in Kafka", "`heartbeat.interval.ms` 必须小于 `session.timeout.ms`，与 Kafka 一致"},
	{"partition.assignment.strategy lists assignors (%s), preferred first; got %q", "`partition.assignment.strategy` 要列出分配器（%s），优先的写在前面；实际为 %s"},
	{"partition.assignment.strategy lists %s twice", "`partition.assignment.strategy` 把 %s 列出了两次"},
	{"cannot subscribe to the internal topic %s", "不能订阅内部主题 %s"},
	{"%s is a producer: consumer= names the consumer whose groupMetadata() is sent", "%s 是生产者：`consumer=` 指定的是要发送其 `groupMetadata()` 的消费者"},
	{"%s is a producer: a group's members are consumers", "%s 是生产者：组的成员是消费者"},
	{"%s has no group.id: it has no group metadata to send", "%s 没有 `group.id`：它没有可发送的组元数据"},
	{"members= lists consumers separated by commas, or none", "`members=` 要列出以 `,` 分隔的消费者，或写 `none`"},
}

// errorPieces is a core error in Chinese: its form's Chinese with the
// error's values as code, then its "did you mean", if any; false when no
// form matches.
func errorPieces(msg string) ([]Piece, bool) {
	msg, suggestion := cutDidYouMean(msg)
	out, ok := formPieces(errorTexts, msg)
	if ok && suggestion != "" {
		out = append(out, prose(Tr("zh", "err.didyoumean.lead")), code(suggestion), prose("？"))
	}
	return out, ok
}

// formPieces says msg in Chinese by the first form of table it matches,
// as a sentence: its values as code, ended with 。 unless it asks.
func formPieces(table []struct{ en, zh string }, msg string) ([]Piece, bool) {
	for _, t := range table {
		vals, ok := matchForm(t.en, msg, nil)
		if !ok {
			continue
		}
		out := zhPieces(t.zh, vals)
		if last := out[len(out)-1]; last.Code || !strings.HasSuffix(last.Text, "？") {
			out = append(out, prose("。"))
		}
		return out, true
	}
	return nil, false
}

// cutDidYouMean takes a suggestion (`; did you mean "x"?`) out of an
// error, wherever it stands, and returns the rest and the suggested
// word.
func cutDidYouMean(msg string) (rest, word string) {
	const lead = "; did you mean "
	at := strings.Index(msg, lead)
	if at < 0 {
		return msg, ""
	}
	after := msg[at+len(lead):]
	q, err := strconv.QuotedPrefix(after)
	if err != nil || !strings.HasPrefix(after[len(q):], "?") {
		return msg, ""
	}
	word, _ = strconv.Unquote(q)
	return msg[:at] + after[len(q)+1:], word
}

// matchForm matches msg against an errorTexts form and returns its
// values in order, appended to vals (a %q's by quotedValue).
func matchForm(form, msg string, vals []string) ([]string, bool) {
	at := strings.IndexByte(form, '%')
	if at < 0 || at+1 == len(form) {
		return vals, form == msg
	}
	lit, verb, rest := form[:at], form[at+1], form[at+2:]
	msg, ok := strings.CutPrefix(msg, lit)
	if !ok {
		return nil, false
	}
	vals = vals[:len(vals):len(vals)] // a failed branch must not write a later one's values
	switch verb {
	case 'q':
		q, err := strconv.QuotedPrefix(msg)
		if err != nil {
			return nil, false
		}
		return matchForm(rest, msg[len(q):], append(vals, quotedValue(q)))
	case 'd', 's':
		// The next literal bounds the value: try each place it occurs.
		next := rest
		if i := strings.IndexByte(rest, '%'); i >= 0 {
			next = rest[:i]
		}
		for end := 1; end <= len(msg); end++ {
			if verb == 'd' && !isNumber(msg[:end]) {
				if end == 1 && msg[0] == '-' {
					continue
				}
				break
			}
			if !strings.HasPrefix(msg[end:], next) {
				continue
			}
			if out, ok := matchForm(rest, msg[end:], append(vals, msg[:end])); ok {
				return out, true
			}
		}
	}
	return nil, false
}

// quotedValue is how a page shows a %q value: the word itself (bgin,
// x=1), as the page shows every identifier; the quoted form when the
// word alone would not show what the script holds (an empty value, a
// space, a quote, a control character).
func quotedValue(q string) string {
	v, err := strconv.Unquote(q)
	if err != nil || v == "" || strings.ContainsFunc(v, func(r rune) bool { return r <= ' ' || r == '"' || r == 0x7f || r == utf8.RuneError }) {
		return q
	}
	return v
}

// isNumber reports whether s is an integer, signed or not.
func isNumber(s string) bool {
	digits := strings.TrimPrefix(s, "-")
	return digits != "" && strings.Trim(digits, "0123456789") == ""
}
