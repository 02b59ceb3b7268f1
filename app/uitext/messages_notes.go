package uitext

import (
	"fmt"

	"txnlab/core/sim"
	"txnlab/diagram"
	"txnlab/lessons/doc"
)

// noteMessages is the Chinese of every note the core writes into the
// trace (sim.NoteTemplates holds the English, the trace's own text),
// {i} standing for the note's i-th argument: identifiers, numbers and
// durations, which are the same in both languages. The terms are the
// glossary's (i18n.Glossary); Kafka's identifiers stay in Latin script.
// TestEveryNoteHasBothLanguages fails on a code missing here.
var NoteMessages = map[sim.NoteCode]string{
	sim.NoteDuplicateBatch:       "重复的批次（seq {0}）：以它原来的偏移量 {1} 应答",
	sim.NoteAcks0Failed:          "acks=0 的写入失败，错误码 {0}：没有响应；Broker 关闭了与 {1} 的连接",
	sim.NoteProducerStateExpired: "生产者状态已过期（producer.id.expiration.ms），生产者 ID：{0}",
	sim.NoteTruncate:             "截断到偏移量 {0}（与 Leader 分叉）",
	sim.NoteISRShrinks:           "ISR 收缩：{0} 已有 {1} 没有追上",
	sim.NoteISRExpands:           "ISR 扩张：{0} 已追上",
	sim.NoteLeaderEpoch:          "Leader epoch 为 {0}",

	sim.NoteGroupStable:                "消费者组 {0} 在 generation {1} 进入 Stable",
	sim.NoteGroupOffsetsLoaded:         "组协调器载入了 {0} 个已提交的偏移量",
	sim.NotePendingOffsetsDropped:      "生产者 {1} 的 {0} 个待定的事务偏移量被丢弃",
	sim.NotePendingOffsetsMaterialised: "生产者 {1} 的 {0} 个待定的事务偏移量生效",
	sim.NoteRebalanceNewMember:         "消费者组 {0} 准备重平衡（generation {1}）：加入新成员 {2}",
	sim.NoteRebalanceJoinDuringPrepare: "消费者组 {0} 准备重平衡（generation {1}）：成员 {2} 在 PreparingRebalance 期间加入",
	sim.NoteRebalanceMetadata:          "消费者组 {0} 准备重平衡（generation {1}）：更新成员 {2} 的元数据",
	sim.NoteRebalanceLeaderRejoin:      "消费者组 {0} 准备重平衡（generation {1}）：组长 {2} 重新加入",
	sim.NoteRebalanceStaticRejoin:      "消费者组 {0} 准备重平衡（generation {1}）：静态成员 {2} 以新的成员 ID 重新加入",
	sim.NoteRebalanceHeartbeatExpired:  "消费者组 {0} 准备重平衡（generation {1}）：成员 {2} 心跳过期，将其移除",
	sim.NoteGroupMemberRemoved:         "消费者组 {0} 移除了没有重新加入的成员 {1}",
	sim.NoteGroupEmpty:                 "消费者组 {0} 在 generation {1} 变为空组",
	sim.NoteGroupMemberFailed:          "消费者组 {0}：成员 {1} 会话超时，正在移除",

	sim.NoteJoinedGroup:      "{0} 加入消费者组 {1}，generation {2}，成员 ID {3}",
	sim.NoteEpochExhausted:   "epoch 已用尽：申请新的生产者 ID",
	sim.NoteEpochBump:        "幂等生产者的序列号出现空缺，把 epoch 提升到 {0}：序列号从 0 重新开始",
	sim.NoteNothingAssigned:  "0 条记录（没有分配分区）",
	sim.NoteNoGroupID:        "没有设置 group.id",
	sim.NoteRecords:          "{0} 条记录",
	sim.NoteNotTransactional: "不是事务生产者",
	sim.NoteCallInState:      "在状态 {1} 下调用 {0}",
	sim.NoteProducerClosed:   "生产者已关闭",
	sim.NoteMaxBlockElapsed:  "已超过 max.block.ms",

	sim.NoteIsolated:         "与其他所有节点断开",
	sim.NoteHealed:           "网络已恢复",
	sim.NoteBrokerFenced:     "被隔离：{0} 内没有心跳",
	sim.NoteBrokerRegistered: "已注册",
	sim.NotePartitionOffline: "离线：没有存活的同步副本",
	sim.NoteRawRequest:       "一个手写的请求，不是 Java 客户端发出的：{0}",
	sim.NoteTxnSeeded:        "由脚本设置，生产者 ID {0}，epoch {1}",

	sim.NoteMarkersRequeuedNoConnect: "{0}：连不上分区 Leader；事务标记重新排队",
	sim.NoteMarkersRequeuedTimeout:   "{0}：request.timeout.ms 内没有应答；事务标记重新排队",
	sim.NoteMarkerError:              "意外的标记错误 {0}，分区 {1}",
	sim.NoteMarkersStopped:           "停止发送事务标记：更新的生产者 epoch 或协调器接管了这个事务",
	sim.NoteCoordinatorResigns:       "协调器卸任",
	sim.NoteTxnLoaded:                "载入了 {0} 个事务 ID，协调器 epoch {1}",
	sim.NoteTxnFoundWhileLoading:     "载入时发现处于 {0}：重新发送事务标记",
	sim.NoteTxnLeftPrepared:          "载入时发现处于 {0}：原样保留，不发送事务标记（marker-recovery 已被关闭）",
	sim.NoteTimeoutAtMaxEpoch:        "事务在 epoch 32767 超时：无法再隔离（IllegalStateException），扫描停止",
	sim.NoteTxnTimedOut:              "事务 {0} 后超时：隔离生产者并中止事务",
	sim.NoteTxnIdExpired:             "事务 ID 已过期：写入墓碑记录",
	sim.NoteEpochFencePending:        "epoch {0} -> {1}（待定，尚未持久化）",

	sim.NoteAlreadyDown:       "第 {0} 行：{1} 已经宕机",
	sim.NotePartitioned:       "网络分区：{0}",
	sim.NoteStatement:         "脚本：{0}",
	sim.NoteBreak:             "break {0}：这个安全机制现已关闭",
	sim.NoteRestore:           "restore {0}：这个安全机制已恢复",
	sim.NoteWaitNoReturn:      "wait {0}：调用在 10m 内没有返回",
	sim.NoteCallNoReturn:      "{0} {1}：调用在 10m 内没有返回",
	sim.NoteRequestNoResponse: "请求 {0}：{1} 内没有响应",
	sim.NoteSeedNoMetadata:    "事务 {0}：协调器在 30s 内没有写入元数据",
	sim.NoteRunOutstanding:    "run 在 {0} 后停止，仍有未完成的工作",
	sim.NoteRunUntilNone:      "run until {0}：{1} 内没有这样的消息",

	sim.NoteRebalanceMemberLeft: "消费者组 {0} 准备重平衡（generation {1}）：成员 {2} 已离开（LeaveGroup）",
}

// noteIn writes a core note in language l: the catalogue's Chinese on a
// Chinese page, the core's English otherwise.
func NoteIn(l string, n *sim.Note) string {
	if doc.Lang(l) == doc.Chinese {
		if t, ok := NoteMessages[n.Code]; ok {
			return sim.FillNote(t, n.Args)
		}
	}
	return n.English()
}

// DropReasonIn is why a message was lost (a drop event's Text, one of
// sim.DropReasons) in language l.
func DropReasonIn(l, reason string) string {
	if _, ok := Messages["drop."+reason]; ok {
		return Tr(l, "drop."+reason)
	}
	return CoreErrorIn(l, reason)
}

// eventText is an event's text in language l: its note written in l
// (the text's prefix, a call's result name, kept), else the text.
func EventText(l string, e *sim.Event) string {
	return e.TextIn(func(n *sim.Note) string { return NoteIn(l, n) })
}

// diagramWords are the diagram's words in language l: an arrow's fate
// (the core's reason for a loss translated as the message panel
// translates it), the core's notes, the diagram's own few words; nil
// (English) on an English page.
func DiagramWords(l string) *diagram.Words {
	if doc.Lang(l) != doc.Chinese {
		return nil
	}
	return &diagram.Words{
		Lost:     func(reason string) string { return fmt.Sprintf(Tr(l, "lost: %s"), DropReasonIn(l, reason)) },
		InFlight: Tr(l, "in flight"),
		Note:     func(n *sim.Note) string { return NoteIn(l, n) },
		Leads:    Tr(l, "diagram.leads"),
		Marker:   Tr(l, "diagram.marker"),
		TxnLog:   Tr(l, "diagram.txnlog"),
		Append:   Tr(l, "diagram.append"),
		Line:     Tr(l, "line %s"),
		Met:      Tr(l, "diagram.met"),
		Unmet:    Tr(l, "diagram.unmet"),
		Actual:   Tr(l, "diagram.actual"),
		Lifecycle: func(k sim.Kind) string {
			return Tr(l, "diagram."+k.String())
		},
	}
}
