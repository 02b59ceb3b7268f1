package app

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"txnlab/lessons/doc"
)

// libraryZh is each library scenario's title and summary in Chinese. The
// English comes from the script's own narrative (libraryEntry), which
// stays English inside the script; a Chinese page shows these instead,
// next to the script. TestEveryScenarioIsInChinese fails on a scenario
// missing here. The terms are the glossary's (i18n.Glossary); Kafka's
// identifiers stay in Latin script.
var libraryZh = map[string][2]string{
	"happy-path": {"顺利路径：一个跨两个主题的事务，从头到尾",
		"initTransactions() 先找到事务协调器（FindCoordinator），再取得生产者 ID 和 epoch（InitProducerId，持久化到 __transaction_state）。每个分区第一次写入前用 AddPartitionsToTxn 登记，Produce 在批次头里带上 PID、epoch 和序列号。commitTransaction() 发出 EndTxn：协调器写入 PrepareCommit 并应答，再用 WriteTxnMarkers 给每个分区写 COMMIT 标记，最后写入 CompleteCommit。"},
	"abort": {"中止一个事务：记录留在日志里，后面跟着 ABORT 标记，读已提交的消费者永远不会返回它们",
		"Broker 不删除被中止的记录，而是把这个事务记入中止事务索引；read_committed 的 Fetch 带回已中止事务的列表，消费者据此丢弃它们的批次。"},
	"idempotent-retry": {"幂等生产者：重试绝不会把一条记录写两次",
		"每个批次都带着生产者 ID、epoch 和每个分区的序列号。确认丢失后，生产者在 request.timeout.ms 之后重发同一个批次；Leader 在它为这个生产者记住的最近五个批次里找到它，返回原来的偏移量，而不是再追加一次。"},
	"consume-transform-produce": {"消费—处理—生产，精确一次：输出记录和消费者偏移量在同一个事务里提交",
		"提交之前的崩溃会把两者一起丢弃；新的实例从最后提交的偏移量继续，因此每条输入在输出里恰好体现一次。"},
	"add-offsets": {"思考题 1：为什么 AddOffsetsToTxn 和 AddPartitionsToTxn 走同一条路径？",
		"sendOffsetsToTransaction() 先向事务协调器发送 AddOffsetsToTxn，协调器像 AddPartitionsToTxn 登记数据分区那样，把消费者组所在的 __consumer_offsets 分区加入事务；然后 TxnOffsetCommit 才发给组协调器，偏移量处于待定状态。提交或中止时协调器也给这个分区写标记，标记让偏移量与输出记录原子地生效（或被丢弃）。后半部分关掉 AddOffsetsToTxn：偏移量写入了，却没有标记到达 __consumer_offsets，它们永远停在待定状态。"},
	"markers-fail": {"思考题 2：EndTxn 之后每个 WriteTxnMarkers 请求都失败",
		"客户端的提交已经成功：PrepareCommit 一旦持久化，协调器就应答 EndTxn，决定不会再变。协调器一直重发标记，每次间隔 request.timeout.ms（30 秒）。在此期间事务停在 PrepareCommit：这个事务 ID 的每个请求都得到 CONCURRENT_TRANSACTIONS，各分区的 LSO 停在事务的第一个偏移量，读已提交的消费者看不到新数据（高水位照常前进）。标记一旦送达，CompleteCommit 写入，一切恢复。"},
	"coordinator-epoch": {"思考题 3：为什么需要协调器 epoch？",
		"失去角色的协调器，线路上可能还有一个 WriteTxnMarkers 请求。经典协议下生产者的 epoch 在前后两个事务之间不变，所以上一个事务迟到的 COMMIT 标记看起来和当前事务的一模一样：它会提交尚未决定的记录。每个标记都带着协调器 epoch（__transaction_state 分区的 Leader epoch）；分区记住它为这个生产者应用过的最大值，用 TRANSACTION_COORDINATOR_FENCED 拒绝更旧的标记。"},
	"coordinator-crash-before-prepare": {"事务仍未结束时（EndTxn 之前）协调器崩溃",
		"什么都不会丢：带着分区列表的 Ongoing 记录在 AddPartitionsToTxn 应答之前就已复制。控制器完成分区切换后（broker.session.timeout.ms，9 秒），__transaction_state/39 的新 Leader 把事务作为 Ongoing 载入，不去动它。生产者的 EndTxn 到不了已崩溃的 Broker，于是客户端重新查找协调器，在新协调器上提交。"},
	"coordinator-crash-during-markers": {"协调器在 PrepareCommit 之后、写标记的中途崩溃",
		"决定是持久的：客户端得到应答之前，PrepareCommit 已复制到 __transaction_state 的其他副本。控制器发现崩溃后（broker.session.timeout.ms，9 秒），新的 Leader 以更高的 Leader epoch 接管这个分区，它就是新的协调器 epoch。载入分区时发现事务处于 PrepareCommit，于是重新发送 COMMIT 标记；标记写两次无害。"},
	"acks-and-failover": {"Leader 切换时 acks=1 与 acks=all 的区别",
		"acks=1 时，记录一进入 Leader 自己的日志就应答。若 Leader 在追随者复制之前死掉，从同步副本中选出的新 Leader 从来没有这条记录；旧 Leader 回来后发现日志与新 Leader 分叉，就截断它（带 LastFetchedEpoch 的 Fetch，KIP-595）：已确认的记录没了。acks=all 时应答要等所有同步副本，已确认的记录能扛过任何单点故障。"},
	"transactional-id-expiration": {"没人使用的 transactional.id 会过期",
		"协调器每小时（transaction.remove.expired.transaction.cleanup.interval.ms）查找处于 Empty、CompleteCommit 或 CompleteAbort 且上次更新早于 transactional.id.expiration.ms（7 天）的事务 ID，为每个写一条墓碑到 __transaction_state 并忘掉它。下一个使用这个 ID 的生产者从头开始：新的生产者 ID，epoch 为 0。"},
	"read-committed-lso": {"read_committed 与 read_uncommitted，以及最后稳定偏移量（LSO）",
		"事务未结束时，LSO 停在它的第一个偏移量：读已提交的 Fetch 到此为止，连其他生产者在它之后写入的记录也读不到。读未提交一直读到高水位。标记写入（并复制）之后，LSO 跳过它。"},
	"hanging-transaction": {"悬挂事务（Kafka 3.5，KIP-890 之前）：事务中止后才到达的 Produce 请求开启了一个没有协调器知道的新事务",
		"没有人会写它的标记，分区的 LSO 就卡在那里：无论谁写这个分区，读已提交的消费者都不再前进。批次在线路上被延迟；客户端在 delivery.timeout.ms（120 秒）后放弃它，中止事务（写入 ABORT 标记）并提升 epoch。随后旧请求带着旧 epoch 到达，分区还没见过更新的 epoch。KIP-890（3.6+）让 Leader 先向协调器核实，事务版本 2 每写一次标记就提升 epoch，迟到的批次因此被拒绝。"},
	"hanging-after-reload": {"什么都没关掉的悬挂事务（Kafka 3.5 到 3.7）：协调器依据一条从未到达追随者的记录作答",
		"这是探索器找到的。broker-1 收不到 Fetch 应答，协调器向 __transaction_state 追加的 Ongoing [orders/1] 复制不出去，追加超时。随后 broker-2 被隔离：ISR 收缩，协调器把分区一直载入到日志末端，连那条未复制的记录也载入了（Kafka 有意载入到日志末端）。生产者重试 AddPartitionsToTxn，发现 orders/1 已经在事务里，得到 NONE，于是写入并提交。接着协调器崩溃；仍在同步副本集中的 broker-1 接管，却没有那条记录，再也没有谁为这个事务写标记：orders/1 一直悬着。Kafka 3.8 起，分区在同一个 Leader 下变化时协调器不再重新载入（KAFKA-15468）；用 kafka=3.8 运行，就不会悬挂。"},
	"find-and-abort-hanging": {"运维人员找到悬挂事务并中止它：kafka-transactions.sh find-hanging，然后 abort",
		"Kafka 3.5 的悬挂事务（迟到的 Produce 开启了一个没有协调器知道的事务）让 orders/0 的每个读已提交消费者停滞。运维工具（KIP-664）从两边看它：对分区的 DescribeProducers 显示有个生产者的事务一直开着，比最大事务超时（15 分钟）还久；ListTransactions 和 DescribeTransactions 显示它的协调器没有把 orders/0 算进任何事务。abort 写下协调器永远不会写的 ABORT 标记（由管理客户端用该生产者的 epoch 向分区 Leader 发送 WriteTxnMarkers），LSO 随之前进。"},
	"zombie-fencing-init": {"隔离僵尸实例：停顿的生产者在继任者接手后回来",
		"p1 开启事务后停顿（一次长时间的 GC 暂停）。p2 用同一个 transactional.id 启动：InitProducerId 发现事务处于 Ongoing，提升 epoch 隔离 p1，中止 p1 的事务，并应答 CONCURRENT_TRANSACTIONS；p2 重试，epoch 再提升一次。p1 醒来提交时，协调器应答 PRODUCER_FENCED。"},
	"zombie-fenced-by-group": {"由消费者组隔离僵尸实例（KIP-447）：两个实例，两个事务 ID",
		"一个“消费-转换-生产”应用以两个实例运行，各有自己的 transactional.id（etl-1、etl-2）。实例 1 在处理 in/0 时陷入漫长的 GC 停顿，它的消费者不再发送心跳；过了 session.timeout.ms，消费者组把它移出组并重平衡到第 2 代，实例 2 接过 in/0 重新处理。没有哪个 InitProducerId 能隔离实例 1，因为它的事务 ID 是另一个。它醒来后，sendOffsetsToTransaction 带着消费者的组元数据（generation 1 和原来的成员 ID）：组协调器回答 UNKNOWN_MEMBER_ID，这是可中止的错误，它的输出被中止。打开“消费者组”标签页，可以看到 generation 的变化。"},
	"zombie-fenced-on-produce": {"僵尸实例在哪里出现都会被隔离：在 AddPartitionsToTxn（协调器）和 Produce（分区 Leader）上",
		"协调器对带着旧 epoch 的请求应答 PRODUCER_FENCED，对 Java 客户端这是致命错误。见过这个生产者 ID 更新 epoch 的分区 Leader 应答 INVALID_PRODUCER_EPOCH，Kafka ≥ 2.7 把它当作可中止错误；僵尸实例随后发出的中止到达协调器，被彻底隔离。"},
	"transaction-timeout": {"超过 transaction.timeout.ms 仍未结束的事务由协调器自己中止",
		"协调器每 10 秒（transaction.abort.timed.out.transaction.cleanup.interval.ms）扫描开始时间加超时早于现在的 Ongoing 事务，以 epoch + 1 隔离生产者并中止事务。生产者回来时已被隔离。"},
	"broken/add-offsets": {"关掉 AddOffsetsToTxn：事务中的偏移量永远不会提交",
		"sendOffsetsToTransaction 跳过 AddOffsetsToTxn，协调器就不给消费者组的 __consumer_offsets 分区写标记：事务提交了，偏移量却永远待定。检查器报告 offsets-atomicity 被违反。"},
	"broken/add-partitions": {"关掉 AddPartitionsToTxn：协调器从不知道的记录",
		"生产者写入一个从未用 AddPartitionsToTxn 登记的分区，事务结束时协调器不给它发标记：这些记录永远悬着，既未提交也未中止。检查器报告 atomicity 被违反。"},
	"broken/coordinator-epoch": {"关掉协调器 epoch 检查：被取代的协调器迟到的标记生效了",
		"Leader 接受来自更旧协调器 epoch 的 WriteTxnMarkers。一次提交的标记被耽搁，协调器崩溃，继任者完成提交，生产者（PID 和 epoch 不变）开始下一个事务，迟到的 COMMIT 标记在它尚未决定时就把它结束了。检查器报告 atomicity 被违反。"},
	"broken/coordinator-epoch-off": {"思考题 3，不做检查：关掉协调器 epoch",
		"与思考题 3 相同的运行，只是关掉了检查（break coordinator-epoch）：迟到的 COMMIT 标记在第二个事务尚未决定时就提交了它。每个标记都带着协调器 epoch，分区本应用 TRANSACTION_COORDINATOR_FENCED 拒绝更旧的标记。"},
	"broken/epoch-fencing": {"关掉 epoch 隔离：僵尸生产者的旧 epoch 仍然能提交",
		"Broker 和协调器接受更旧的生产者 epoch。一个生产者正在事务中，另一个使用同一 transactional.id 的继任者初始化并提升了 epoch；前一个成了没收到消息的僵尸实例，用旧 epoch 写入并提交，两者都成功：被隔离之后写入的记录变得可见。检查器报告 fencing 被违反。"},
	"broken/sequence-check": {"关掉序列号检查：重试的 Produce 被写了两次",
		"Broker 接受任何序列号。一个 Produce 响应丢失，幂等生产者重试这个批次，Broker 又追加了一次，而不是应答 DUPLICATE_SEQUENCE_NUMBER。检查器报告 no-duplicates 被违反。"},
	"broken/lso-bound": {"关掉 LSO 上界：read_committed 读到未结束的事务",
		"read_committed 的 Fetch 停在高水位而不是最后稳定偏移量，于是读已提交的消费者收到了一个连提交都还没发出的事务的记录。检查器报告 read-committed 被违反。"},
	"broken/aborted-filter": {"关掉已中止批次的过滤：read_committed 返回被中止的记录",
		"读已提交的消费者忽略 Fetch 带回的中止事务列表，被中止事务的记录到达了应用。检查器报告 read-committed 被违反。"},
	"transaction-version-2": {"Kafka 4 的事务：事务版本 2（KIP-890 第二部分）",
		"与顺利路径相同的事务，但启用 transaction.version=2（Kafka 4.0 的默认值）。生产者不再发送 AddPartitionsToTxn 和 AddOffsetsToTxn：发往某个分区的第一个 Produce v12 由分区 Leader 把分区加入事务（Broker 向协调器发送 AddPartitionsToTxn v5，而不是 VerifyOnly），TxnOffsetCommit v5 则由组协调器所在的 Broker 加入偏移量分区。EndTxn v5 提升 epoch，标记带着新的 epoch，响应把它交给生产者：每个事务都有自己的 epoch，上一个事务迟到的请求无法落进来。"},
	"jepsen-delayed-produce": {"Jepsen 组：已中止事务的一个迟到 Produce 落进了下一个事务",
		"在经典协议（Kafka 3.5，事务版本 0）下，一个 Produce 请求可以比它的事务活得更久。客户端在 delivery.timeout.ms 之后放弃 b=2，中止事务，并用 InitProducerId 提升 epoch；但 ABORT 标记带的是旧 epoch，分区仍然接受旧 epoch。迟到的批次落在这个标记之后，开启了一个协调器一无所知的事务；生产者的下一个事务用新 epoch 写同一个分区，Leader 直接把它追加到那个开着的事务里，它的 COMMIT 标记提交了 b=2：一条发送失败的记录变得可见（已中止读，G1a）。Jepsen 对 Bufstream 0.1.0 的分析（2024）在 Kafka 本身上报告了这一点；KIP-890 修复了它。"},
	"jepsen-delayed-endtxn": {"Jepsen 组：一个迟到的 EndTxn 提交了下一个事务",
		"在经典协议下，生产者的生产者 ID 和 epoch 从一个事务沿用到下一个事务，协调器分不清上一个事务的 EndTxn 和当前事务的 EndTxn。这里事务 1 的提交在网络上被耽搁；客户端在 request.timeout.ms 之后重发 EndTxn，重试提交了事务 1。生产者开始事务 2 并写入 d=4，这时第一个 EndTxn(commit) 到达，在应用要求之前就提交了事务 2：读已提交的消费者读到了 d=4，而应用本来还可以中止。这是 Jepsen 对 Bufstream 0.1.0 的分析（2024）中的“迟到的提交作用于后一个事务”，也是 KIP-890 第二部分的动机。在 transaction.version=2 下每个 EndTxn 都提升 epoch，迟到的请求带着旧 epoch，得到 PRODUCER_FENCED。"},
	"jepsen-aborted-read": {"Jepsen 组：被撕裂的事务造成的已中止读",
		"事务 2 写了两个分区，应用中止了它；可是读已提交的消费者读到了它的第一条记录。与迟到 EndTxn 的场景一样，事务 1 的提交在网络上被耽搁，它的重试已经提交了事务 1；在经典协议下，带着相同生产者 ID 和 epoch 的迟到 EndTxn(commit) 在事务 2 进行中到达，提交了已经写下的部分（orders/0）。事务 2 继续写 orders/1，协调器把它当作一个新事务；应用的中止只中止了这一部分。同一个事务，在一个分区上提交、在另一个分区上中止：已中止读（G1a）和被撕裂的事务。KIP-890 第二部分修复了它：迟到的 EndTxn 带着协调器已经提升过的 epoch。"},
	"broken/partition-verification": {"关掉分区校验：在事务版本 2 下，没有协调器知道的记录",
		"分区 Leader 不询问协调器就追加事务性批次。在事务版本 2 下，这个请求同时也是把分区加入事务的那一步（客户端不发送 AddPartitionsToTxn），于是协调器不会在这个分区写标记：记录永远悬而未决。检查器报告 atomicity 被违反。"},
	"broken/epoch-bump": {"关掉 epoch 提升：在事务版本 2 下，一个迟到的 EndTxn 结束了下一个事务",
		"协调器结束事务时不提升生产者 epoch。一次提交的 EndTxn 被耽搁到 request.timeout.ms 之后，重试完成了提交，生产者用同一个 epoch 开始下一个事务，迟到的 EndTxn 把它也提交了：读已提交的消费者在应用发出提交之前就读到了它。检查器报告 read-committed 被违反。"},
}

// scenarioTitle is a library scenario's title in lang: a Chinese twin's
// own, else libraryZh's.
func scenarioTitle[L ~string](lang L, sc Scenario) string {
	if doc.Lang(lang) == doc.Chinese && sc.Lang == "" {
		if zh, ok := libraryZh[sc.Slug]; ok {
			return zh[0]
		}
	}
	return sc.Title
}

// scenarioPurpose is a library scenario's purpose in lang, as paragraphs.
func scenarioPurpose[L ~string](lang L, sc Scenario) []string {
	if doc.Lang(lang) == doc.Chinese && sc.Lang == "" {
		if zh, ok := libraryZh[sc.Slug]; ok {
			return []string{zh[1]}
		}
	}
	return paragraphs(sc.Purpose)
}

// libraryTopicsZh are libraryTopics' titles in Chinese, in its order.
var libraryTopicsZh = []string{
	"一个事务，从头到尾",
	"本章的思考题",
	"出故障的协调器",
	"读取事务",
	"僵尸实例与超时",
	"Kafka 4：KIP-890 修复了什么（Jepsen 组）",
	"关掉一个安全机制",
}

// topicTitle is topic i's title in lang.
func topicTitle[L ~string](lang L, i int) string {
	if doc.Lang(lang) == doc.Chinese {
		return libraryTopicsZh[i]
	}
	return libraryTopics[i].Title
}

// renderSummary is, on a Chinese page, the library scenario's title and
// summary next to its script when the script has no Chinese twin, so its
// narrative comments are English. An English page, or a twin, reads the
// narrative in the script itself.
func (p *playground) renderSummary() app.UI {
	zh, ok := libraryZh[p.slug]
	if doc.Lang(p.lang) != doc.Chinese || !ok || p.twin {
		return nil
	}
	return app.Details().Class("scenario-summary").Open(true).DataSet("summary", p.slug).Body(
		app.Summary().Text(tr(p.lang, "scenario.summary")+zh[0]),
		app.P().Text(zh[1]),
	)
}
