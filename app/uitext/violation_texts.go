package uitext

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"txnlab/lessons/doc"
)

// A checker's finding on a Chinese page says what went wrong in Chinese.
// The checker writes English (the CLI's `txnlab check` prints it); a
// finding is the story of an anomaly (who read what, from which
// transaction, what the coordinator lost), so the page says the story,
// not only the names in it. violationTexts are the forms of the
// checker's findings, read as errorTexts are (matchForm); a finding no
// form matches keeps the general lead with the identifiers it names.

// violationTexts are the forms of core/check's findings and their
// Chinese, the specific before the general, with errorTexts' rules. A
// finding's own values ("p1's transaction #2", "producer 0 epoch 1
// sequence 2") are taken apart by the form, so that no English stays in
// code. TestEveryFindingHasAForm reads core/check's source and fails for
// a finding no form covers.
var violationTexts = []struct{ en, zh string }{
	// Reads, atomicity and markers: what a transaction's records became.
	{"%s received %q at %s@%d from %s's transaction #%d, closed by a %s marker asked for before the record was produced: a WriteTxnMarkers request of an earlier transaction at the same producer epoch, sent again after a timeout, arrived late", "%[1]s 在 %[3]s@%[4]s 读到了 %[5]s 的事务 #%[6]s 写入的 %[2]s，而关闭这条记录的 %[7]s 标记早在记录写入之前就已请求：同一生产者 epoch 下的一个更早事务的 `WriteTxnMarkers` 请求超时后被重发，迟到了"},
	{"%s received %q at %s@%d from %s's transaction #%d, which its coordinator has no record of: the COMMIT of a later transaction at epoch %d, begun after a failover lost the __transaction_state records that registered this one, closed its records too", "%[1]s 在 %[3]s@%[4]s 读到了 %[5]s 的事务 #%[6]s 写入的 %[2]s，而该事务的协调器对它一无所知：一次故障转移丢失了登记该事务的 `__transaction_state` 记录，此后开始的一个 epoch 为 %[7]s 的更晚事务，其 `COMMIT` 把该事务的记录也一并关闭了"},
	{"%s received %q at %s@%d from %s's transaction #%d, which aborted", "%[1]s 在 %[3]s@%[4]s 读到了 %[5]s 的事务 #%[6]s 写入的 %[2]s，而该事务已中止"},
	{"%s received %q at %s@%d from %s's transaction #%d before its commit was even sent", "%[1]s 在 %[3]s@%[4]s 读到了 %[5]s 的事务 #%[6]s 写入的 %[2]s，而那时该事务的提交甚至还没有发出"},
	{"%s's transaction #%d is committed at %s but aborted at %s: a marker of an earlier transaction at the same producer epoch, asked for before these records were produced, arrived late", "%s 的事务 #%s 在 %s 已提交，却在 %s 已中止：同一生产者 epoch 下的一个更早事务的标记，早在这些记录写入之前就已请求，迟到了"},
	{"%s's transaction #%d is committed at %s but aborted at %s: its coordinator has no record of the committed ones, and the COMMIT of a later transaction at epoch %d, begun after a failover lost the __transaction_state records that registered them, closed them too", "%s 的事务 #%s 在 %s 已提交，却在 %s 已中止：它的协调器对已提交的那部分记录一无所知；一次故障转移丢失了登记它们的 `__transaction_state` 记录，此后开始的一个 epoch 为 %s 的更晚事务，其 `COMMIT` 把它们也一并关闭了"},
	{"%s's transaction #%d is committed at %s but aborted at %s: the ABORT carries epoch %d, which its coordinator never reached; a coordinator that loaded unreplicated __transaction_state records fenced it and wrote that marker, its records were lost in a failover, and the successor let the transaction go on and commit", "%s 的事务 #%s 在 %s 已提交，却在 %s 已中止：`ABORT` 标记携带的 epoch 为 %s，而该事务的协调器从未到达这个 epoch；一个加载了未复制的 `__transaction_state` 记录的协调器隔离了该事务并写下了这个标记，而该协调器的记录在一次故障转移中丢失，后继协调器便让该事务继续进行并提交了"},
	{"%s's transaction #%d is committed at %s but aborted at %s", "%s 的事务 #%s 在 %s 已提交，却在 %s 已中止"},
	{"%s's transaction #%d committed for its producer, but its coordinator never decided it: the __transaction_state records that registered it were lost in a failover, a successor answered the commit from an earlier completed transaction, and a later transaction's ABORT closed its records at %s", "%s 的事务 #%s 对它的生产者而言已提交，但它的协调器从未决定它的结果：登记该事务的 `__transaction_state` 记录在一次故障转移中丢失，后继协调器按一个更早的、已完成的事务答复了这次提交，随后一个更晚事务的 `ABORT` 关闭了它在 %s 的记录"},
	{"%s's transaction #%d committed for its producer but its records at %s were aborted", "%s 的事务 #%s 对它的生产者而言已提交，但它在 %s 的记录却被中止了"},
	{"%s's transaction #%d aborted for its producer but its records at %s were committed", "%s 的事务 #%s 对它的生产者而言已中止，但它在 %s 的记录却被提交了"},
	{"%s's transaction #%d was decided, but its coordinator has no record of it (at its producer id and epoch it holds Empty or an earlier transaction completed before these records were written, or a later epoch whose InitProducerId found nothing open to fence, or it completed the transaction without these partitions, which its log never registered): the __transaction_state records that registered its partitions were lost in a failover, and no marker will ever reach its records at %s", "%s 的事务 #%s 已决定，但它的协调器对它一无所知（在它的生产者 ID 和 epoch 下，协调器保存的是 `Empty`，或是一个在这些记录写入之前就已完成的更早事务；或是一个更晚的 epoch，其 `InitProducerId` 没有找到需要隔离的未完成事务；又或是协调器完成了该事务，但其中没有这些分区，因为它的日志从未登记过它们）：登记该事务各分区的 `__transaction_state` 记录在一次故障转移中丢失，再也不会有标记到达它在 %s 的记录"},
	{"%s's transaction #%d was decided and its coordinator finished it, but its records at %s never got a marker", "%s 的事务 #%s 已决定，它的协调器也已完成了它，但它在 %s 的记录始终没有收到标记"},
	{"%s's transaction #%d was decided and its coordinator still holds it in %s, but on the healed, quiet cluster its records at %s never got a marker", "%s 的事务 #%s 已决定，它的协调器仍让它停留在 %s 状态，但在故障已全部恢复、再无活动的集群上，它在 %s 的记录始终没有收到标记"},
	{"%s's transaction #%d was decided, but on the healed, quiet cluster its records at %s never got a marker", "%s 的事务 #%s 已决定，但在故障已全部恢复、再无活动的集群上，它在 %s 的记录始终没有收到标记"},
	{"%s's transaction #%d got COMMIT markers on %s and ABORT markers on %s: the COMMIT markers belong to a later transaction at epoch %d, begun after a failover lost the __transaction_state records that registered this one", "%s 的事务 #%s 在 %s 收到了 `COMMIT` 标记，在 %s 收到了 `ABORT` 标记：这些 `COMMIT` 标记属于一个 epoch 为 %s 的更晚事务，它是在一次故障转移丢失了登记本事务的 `__transaction_state` 记录之后开始的"},
	{"%s's transaction #%d got COMMIT markers on %s and ABORT markers on %s: the ABORT carries epoch %d, which its coordinator never reached, written by a coordinator whose __transaction_state records were lost in a failover", "%s 的事务 #%s 在 %s 收到了 `COMMIT` 标记，在 %s 收到了 `ABORT` 标记：`ABORT` 标记携带的 epoch 为 %s，而该事务的协调器从未到达这个 epoch；它是由一个 `__transaction_state` 记录在故障转移中丢失的协调器写下的"},
	{"%s's transaction #%d got COMMIT markers on %s and ABORT markers on %s: one of them belonged to an earlier transaction at the same producer epoch and arrived late", "%s 的事务 #%s 在 %s 收到了 `COMMIT` 标记，在 %s 收到了 `ABORT` 标记：其中一种标记属于同一生产者 epoch 下的一个更早事务，迟到了"},
	{"%s's transaction #%d got COMMIT markers on %s and ABORT markers on %s", "%s 的事务 #%s 在 %s 收到了 `COMMIT` 标记，在 %s 收到了 `ABORT` 标记"},

	// Duplicates, durability, fencing, offsets, transitions, the LSO and
	// transactions that hang.

	// A record re-sequenced twice names both earlier identities (more is
	// rarer still and keeps the general lead).
	{"%s's record %q (producer %d, sequence %d, re-sequenced from producer %d epoch %d sequence %d, producer %d epoch %d sequence %d) is in %s %d times: its earlier copy's answer was lost, and the epoch bump after another batch's gap sent it again", "%s 的记录 %s（生产者 ID %s，序列号 %s；重新分配序列号之前先后是生产者 ID %s、epoch %s、序列号 %s，以及生产者 ID %s、epoch %s、序列号 %s）在 %s 中出现了 %s 次：它较早那一份的响应丢失了，而另一个批次出现序列号空缺后，epoch 提升又把它发送了一次"},
	{"%s's record %q (producer %d, sequence %d, re-sequenced from producer %d epoch %d sequence %d, producer %d epoch %d sequence %d) is in %s %d times", "%s 的记录 %s（生产者 ID %s，序列号 %s；重新分配序列号之前先后是生产者 ID %s、epoch %s、序列号 %s，以及生产者 ID %s、epoch %s、序列号 %s）在 %s 中出现了 %s 次"},
	{"%s's record %q (producer %d, sequence %d, re-sequenced from producer %d epoch %d sequence %d) is in %s %d times: its earlier copy's answer was lost, and the epoch bump after another batch's gap sent it again", "%s 的记录 %s（生产者 ID %s，序列号 %s；重新分配序列号之前是生产者 ID %s、epoch %s、序列号 %s）在 %s 中出现了 %s 次：它较早那一份的响应丢失了，而另一个批次出现序列号空缺后，epoch 提升又把它发送了一次"},
	{"%s's record %q (producer %d, sequence %d, re-sequenced from producer %d epoch %d sequence %d) is in %s %d times", "%s 的记录 %s（生产者 ID %s，序列号 %s；重新分配序列号之前是生产者 ID %s、epoch %s、序列号 %s）在 %s 中出现了 %s 次"},
	{"%s's record %q (producer %d, sequence %d) is in %s %d times", "%s 的记录 %s（生产者 ID %s，序列号 %s）在 %s 中出现了 %s 次"},
	{"%s's acknowledged record %q (offset %d) is gone from %s", "%s 已确认的记录 %s（偏移量 %s）从 %s 中消失了"},
	{"%s's record %q was acknowledged at %s@%d but the log holds it at offset %d", "%s 的记录 %s 在 %s@%s 处被确认，但日志中它位于偏移量 %s"},
	{"%q at %s@%d was written with epoch %d at %dms, after epoch %d of %s was granted at %dms, and it was committed", "位于 %[2]s@%[3]s 的记录 %[1]s 在 %[5]s 毫秒时以 epoch %[4]s 写入，而 %[7]s 的 epoch %[6]s 早在 %[8]s 毫秒时就已授予；这条记录仍被提交了"},
	{"offset %d of %s for group %s from %s's aborted transaction #%d became visible", "组 %[3]s 在 %[2]s 上的偏移量 %[1]s 来自 %[4]s 已中止的事务 #%[5]s，却变得可见了"},
	{"%s's transaction #%d committed, but its offset %d of %s for group %s is still pending: no marker reached %s", "%[1]s 的事务 #%[2]s 已提交，但它写下的组 %[5]s 在 %[4]s 上的偏移量 %[3]s 仍处于待定状态：没有任何标记到达 %[6]s"},
	{"%s's transaction #%d committed offset %d of %s for group %s (%s@%d, closed by a COMMIT marker, superseded by nothing later), but the group's coordinator answers %s: the committed offset is lost", "%[1]s 的事务 #%[2]s 为组 %[5]s 提交了 %[4]s 上的偏移量 %[3]s（位于 %[6]s@%[7]s，由 `COMMIT` 标记关闭，之后也没有被任何更晚的提交取代），但该组的协调器给出的是 %[8]s：已提交的偏移量丢失了"},
	{"%s: %s moved %s -> %s, which Kafka does not allow", "%s：%s 从 %s 变为 %s，Kafka 不允许这种状态转换"},
	{"%s answered LSO %d above HW %d for %s", "%[1]s 对 %[4]s 的应答中，最后稳定偏移量（LSO）%[2]s 高于高水位（HW）%[3]s"},
	{"the LSO of %s on %s moved back from %d to %d", "%[2]s 上 %[1]s 的最后稳定偏移量（LSO）从 %[3]s 倒退到了 %[4]s"},
	{"a read_committed fetch of %s returned offset %d at or past the LSO %d", "一次对 %s 的 `read_committed` 拉取返回了偏移量 %s，已达到或超过最后稳定偏移量（LSO）%s"},
	{"%s is stuck in %s at producer epoch %d: %s@%d already holds a marker of producer id %d at epoch %d, written by a coordinator that acted on __transaction_state records its successor never had; the successor's markers are refused INVALID_PRODUCER_EPOCH, Kafka stops sending them, and the transaction never completes", "%[1]s 卡在了 %[2]s 状态，生产者 epoch 为 %[3]s：%[4]s@%[5]s 上已经有一个生产者 ID 为 %[6]s、epoch 为 %[7]s 的标记，写下它的协调器依据的是后继协调器从未拥有的 `__transaction_state` 记录；后继协调器的标记被以 `INVALID_PRODUCER_EPOCH` 拒绝，Kafka 便不再发送它们，这个事务永远无法完成"},
	{"group %s's offset %d of %s stays pending for ever: %s's transaction wrote it after a coordinator answered AddOffsetsToTxn from __transaction_state records its successor never had; the successor has no record of the offsets partition in any transaction of producer id %d, so no marker and no timeout will end it, and a consumer asking for stable offsets is answered UNSTABLE_OFFSET_COMMIT for ever", "组 %[1]s 在 %[3]s 上的偏移量 %[2]s 永远处于待定状态：%[4]s 的事务写下它之前，一个协调器依据其后继协调器从未拥有的 `__transaction_state` 记录应答了 `AddOffsetsToTxn`；后继协调器在生产者 ID %[5]s 的任何事务中都没有登记过这个偏移量分区，所以没有标记、也没有超时能结束它，请求稳定偏移量的消费者会永远得到 `UNSTABLE_OFFSET_COMMIT`"},
}

// ViolationPieces is a checker's finding for a page in lang: itself in
// English; in Chinese, its form's Chinese or, for a finding no form
// matches, the general lead and the identifiers it names.
func ViolationPieces(lang, msg string) []Piece {
	if doc.Lang(lang) != doc.Chinese {
		return Prose(msg)
	}
	if out, ok := formPieces(violationTexts, msg); ok {
		return out
	}
	return append(Prose(Tr(lang, "err.violation")), identifierPieces(lang, msg)...)
}

// ViolationText is ViolationPieces as a page shows it, in a span the
// inspector styles.
func ViolationText(lang, msg string) app.UI {
	if doc.Lang(lang) != doc.Chinese {
		return app.Text(msg)
	}
	return app.Span().Class("violation-text").Body(PiecesUI(ViolationPieces(lang, msg))...)
}
