package uitext

// The Metrics panel's text (metrics_panel.go), in English and Chinese;
// merged into messages at init, as the playground's is. The metrics keep
// Kafka's names in both languages.
var metricsMessages = map[string][2]string{
	"mx.title":     {"Metrics", "指标"},
	"mx.lead":      {"What an operator's dashboard would show of this run, over virtual time: each metric under Kafka's name, its MBean in the tooltip. The vertical line is the step shown; hover over or focus a point for its value and time.", "运维人员的监控面板会如何显示这次运行：按虚拟时间绘制，每个指标使用 Kafka 中的名字，鼠标悬停可看到它的 MBean。竖线是当前显示的这一步；把鼠标移到某个点上或让它获得焦点，可以看到它的值和时间。"},
	"mx.computing": {"Computing the metrics of this run…", "正在计算这次运行的指标……"},
	"mx.none":      {"No metrics: the script creates no cluster.", "没有指标：这个脚本没有创建集群。"},
	"mx.csv":       {"Download CSV", "下载 CSV"},
	"mx.csv.title": {"The rows txnlab metrics prints for this script: time_ms, metric, subject, value, mbean", "txnlab metrics 为这个脚本输出的行：time_ms、metric、subject、value、mbean"},
	"mx.now":       {"The value at the step shown", "当前显示这一步时的值"},
	"mx.nombean":   {"Kafka publishes no MBean for this one: an admin reads it through an API", "Kafka 没有为它发布 MBean：管理员通过 API 读取它"},
	"mx.point":     {"%s: %s at %s", "%[1]s：%[3]s 时为 %[2]s"},
	"mx.zero":      {"Always 0 in this run:", "在这次运行中始终为 0："},
	"mx.axis":      {"Time runs unevenly on these charts: each change gets room of its own and longer quiet stretches only a little more, so the first milliseconds stay readable beside a quiet hour; // marks a stretch drawn much shorter than it lasted. A point's tooltip gives its exact time.", "这些图的时间轴并不均匀：每次变化都有自己的位置，较长的安静区间只多占一点宽度，这样最初的几毫秒在一段安静的一小时旁边仍然看得清；// 标出画得比实际短得多的一段。把鼠标移到某个点上，可以看到它的确切时间。"},
	// The units of core/metrics (Metric.Unit).
	"mx.unit.offset":       {"offset", "偏移量"},
	"mx.unit.offsets":      {"offsets", "偏移量个数"},
	"mx.unit.partitions":   {"partitions", "分区数"},
	"mx.unit.transactions": {"transactions", "事务数"},
	"mx.unit.batches":      {"batches", "批次数"},
	"mx.unit.ms":           {"ms", "毫秒"},
	"mx.unit.ns":           {"ns", "纳秒"},
}

// metricMeansZh says in Chinese what each metric of core/metrics counts
// (Metric.Means is the English), in metrics.All's order (a list, not a
// map: a map literal is code in the wasm, a list is data).
var MetricMeansZh = []string{
	"分区 Leader 的高水位（ListOffsets LATEST；Kafka 没有发布它的 gauge）",
	"Leader 的最后稳定偏移量（LSO）：最早的未完成事务的第一个偏移量；没有未完成事务时等于高水位（以 read_committed 发出的 ListOffsets）",
	"高水位减去最后稳定偏移量（UnifiedLog.lastStableOffsetLag）：read_committed 消费者暂时还读不到的部分",
	"这个 Broker 作为 Leader 的分区中，最早的未完成事务最后一次写入已超过 transaction.max.timeout.ms 加 5 分钟的分区数（ProducerStateManager.hasLateTransaction）：多半是悬挂事务",
	"这个 Broker 的事务协调器加载一个 __transaction_state 分区用过的最长时间（整个运行期间；Kafka 只保留 30 秒的窗口）",
	"这个 Broker 的协调器中处于 Ongoing、PrepareCommit 或 PrepareAbort 状态的事务数（按这些状态过滤的 ListTransactions；Kafka 没有发布它的 gauge）",
	"生产者在 initTransactions 中花费的总时间（KafkaProducerMetrics），按虚拟时间计；尚未返回的调用计到此刻为止，而 Kafka 要等调用返回才累加",
	"生产者在 beginTransaction 中花费的总时间（KafkaProducerMetrics），按虚拟时间计；尚未返回的调用计到此刻为止，而 Kafka 要等调用返回才累加",
	"生产者在 sendOffsetsToTransaction 中花费的总时间（KafkaProducerMetrics），按虚拟时间计；尚未返回的调用计到此刻为止，而 Kafka 要等调用返回才累加",
	"生产者在 commitTransaction 中花费的总时间（KafkaProducerMetrics），按虚拟时间计；尚未返回的调用计到此刻为止，而 Kafka 要等调用返回才累加",
	"生产者在 abortTransaction 中花费的总时间（KafkaProducerMetrics），按虚拟时间计；尚未返回的调用计到此刻为止，而 Kafka 要等调用返回才累加",
	"生产者重新发送的 Produce 批次数（Kafka 按记录计数；对应的速率是 record-retry-rate）",
}

func init() {
	for k, v := range metricsMessages {
		if _, dup := Messages[k]; !dup {
			Messages[k] = v
		}
	}
}
