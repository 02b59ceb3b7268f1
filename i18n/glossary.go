// Package i18n holds what the lessons and the UI share across languages.
package i18n

// Term is one entry of the glossary: a concept's English name, its Chinese
// name as the lessons write it, and a note on usage.
type Term struct {
	// En is the English term as the English pages write it.
	En string
	// Zh is the Chinese term as the Chinese pages write it.
	Zh string
	// Note says when or how to use the term (first-mention glosses,
	// alternatives to avoid, identifiers that stay in Latin script).
	Note string
}

// Glossary fixes the translation of every term the lessons and the UI use.
// Kafka's identifiers (API names, error codes, config keys, state names)
// are not translated: they stay in Latin script, in code spans.
var Glossary = []Term{
	// Roles and components.
	{En: "transaction coordinator", Zh: "事务协调器", Note: "also just 协调器 once the context is clear"},
	{En: "group coordinator", Zh: "组协调器", Note: "the consumer group's coordinator, which stores offsets"},
	{En: "idempotent producer", Zh: "幂等生产者"},
	{En: "transactional producer", Zh: "事务生产者"},
	{En: "producer", Zh: "生产者"},
	{En: "consumer", Zh: "消费者"},
	{En: "reader", Zh: "读取方", Note: "the consumer of a scenario that reads the output"},
	{En: "consumer group", Zh: "消费者组"},
	{En: "group member", Zh: "组成员", Note: "a consumer in a group; its member id stays `member.id`-style Latin: 成员 ID"},
	{En: "rebalance", Zh: "重平衡", Note: "the group's reassignment of partitions after a member joins or leaves"},
	{En: "group generation", Zh: "组的代数（generation）", Note: "gloss at the first mention, then write generation"},
	{En: "broker", Zh: "Broker", Note: "kept in Latin script, as Chinese Kafka writing does"},
	{En: "partition", Zh: "分区"},
	{En: "topic", Zh: "主题"},
	{En: "leader", Zh: "Leader", Note: "partition leader: 分区 Leader"},
	{En: "zombie", Zh: "僵尸实例"},
	{En: "instance", Zh: "实例"},

	// Identities and numbers.
	{En: "transactional id", Zh: "事务 ID", Note: "the config key itself stays `transactional.id`"},
	{En: "producer id (PID)", Zh: "生产者 ID（PID）"},
	{En: "epoch", Zh: "epoch（纪元）", Note: "gloss 纪元 at the first mention on a page, then write epoch"},
	{En: "producer epoch", Zh: "生产者 epoch"},
	{En: "coordinator epoch", Zh: "协调器 epoch"},
	{En: "leader epoch", Zh: "Leader epoch"},
	{En: "sequence number", Zh: "序列号"},
	{En: "offset", Zh: "偏移量", Note: "位移 is also common; the lessons write 偏移量"},
	{En: "high watermark", Zh: "高水位", Note: "HW"},
	{En: "last stable offset", Zh: "最后稳定偏移量（LSO）", Note: "then LSO"},

	// Protocol.
	{En: "request", Zh: "请求"},
	{En: "response", Zh: "响应"},
	{En: "API key", Zh: "编号（API key）", Note: "the number of an API in ApiKeys.java"},
	{En: "error code", Zh: "错误码"},
	{En: "retriable error", Zh: "可重试错误"},
	{En: "abortable error", Zh: "可中止错误"},
	{En: "fatal error", Zh: "致命错误"},
	{En: "throttle time", Zh: "限流时间", Note: "the field is `ThrottleTimeMs`"},
	{En: "quota", Zh: "配额"},
	{En: "transaction timeout", Zh: "事务超时时间", Note: "the config key is `transaction.timeout.ms`"},
	{En: "fencing", Zh: "隔离", Note: "fence (verb): 隔离；fenced: 被隔离"},
	{En: "epoch bump", Zh: "提升 epoch"},
	{En: "replication", Zh: "复制"},
	{En: "persist", Zh: "持久化"},

	// Transactions.
	{En: "transaction", Zh: "事务"},
	{En: "commit", Zh: "提交"},
	{En: "abort", Zh: "中止", Note: "not 回滚 in the lessons"},
	{En: "decision", Zh: "决定", Note: "the outcome EndTxn makes durable"},
	{En: "two-phase commit", Zh: "两阶段提交"},
	{En: "exactly-once", Zh: "精确一次"},
	{En: "control batch", Zh: "控制批次"},
	{En: "transaction marker", Zh: "事务标记", Note: "also just 标记"},
	{En: "commit marker", Zh: "提交标记"},
	{En: "abort marker", Zh: "中止标记"},
	{En: "read committed", Zh: "读已提交", Note: "the value is `read_committed`"},
	{En: "read uncommitted", Zh: "读未提交", Note: "the value is `read_uncommitted`"},
	{En: "pending offsets", Zh: "待定的偏移量", Note: "what OffsetFetch reports as UNSTABLE_OFFSET_COMMIT"},
	{En: "consume-transform-produce", Zh: "消费—处理—生产"},
	{En: "state", Zh: "状态", Note: "state names such as `Ongoing` stay in Latin script"},

	// The course and the playground.
	{En: "lesson", Zh: "课"},
	{En: "playground", Zh: "演练场"},
	{En: "scenario", Zh: "场景"},
	{En: "trace", Zh: "追踪记录"},
	{En: "sequence diagram", Zh: "时序图"},
	{En: "facts", Zh: "事实面板", Note: "the values shown under a playground"},
	{En: "step", Zh: "单步执行"},
	{En: "thought question", Zh: "思考题"},
	{En: "hint", Zh: "提示"},
	{En: "explanation", Zh: "解释"},
	{En: "evidence", Zh: "证据"},
	{En: "erratum", Zh: "勘误"},
	{En: "invariant", Zh: "不变量"},
	{En: "checker", Zh: "检查器"},

	// Lesson 06.
	{En: "isolation level", Zh: "隔离级别", Note: "the config key is `isolation.level`; 隔离 alone means fencing"},
	{En: "control record", Zh: "控制记录", Note: "the one record of a control batch: a COMMIT or ABORT marker"},
	{En: "aborted-transaction index", Zh: "中止事务索引", Note: "the partition's .txnindex"},
	{En: "aborted list", Zh: "中止事务列表", Note: "the fetch response's `AbortedTransactions`"},
	{En: "hanging transaction", Zh: "悬挂事务", Note: "a transaction no coordinator will ever end"},

	// Lesson 05.
	{En: "transaction log", Zh: "事务日志", Note: "the topic `__transaction_state`"},
	{En: "tombstone", Zh: "墓碑记录", Note: "a record with a key and no value; it removes the key"},

	// Lesson 08.
	{En: "classic protocol", Zh: "经典协议", Note: "Kafka 3.5's transaction protocol, before KIP-890"},
	{En: "transaction version", Zh: "事务版本", Note: "the feature `transaction.version`: transaction version 2 is 事务版本 2"},
}
