package playground

import (
	"txnlab/core/safety"
	"txnlab/lessons/doc"
)

// LibraryTopics groups the library by topic, in teaching order: the
// order a learner meets them in the lessons. Every scenario is in exactly
// one topic (TestEveryScenarioHasATopic).
var LibraryTopics = []struct {
	Title string
	Slugs []string
}{
	{"One transaction, end to end", []string{"happy-path", "abort", "idempotent-retry", "consume-transform-produce"}},
	{"The chapter's thought questions", []string{"add-offsets", "markers-fail", "coordinator-epoch"}},
	{"Coordinators that fail", []string{"coordinator-crash-before-prepare", "coordinator-crash-during-markers", "acks-and-failover", "transactional-id-expiration"}},
	{"Reading transactions", []string{"read-committed-lso", "hanging-transaction", "hanging-after-reload", "find-and-abort-hanging"}},
	{"Zombies and timeouts", []string{"zombie-fencing-init", "zombie-fenced-on-produce", "zombie-fenced-by-group", "transaction-timeout"}},
	{"Kafka 4: what KIP-890 fixes (the Jepsen pack)", []string{"transaction-version-2", "jepsen-delayed-produce", "jepsen-delayed-endtxn", "jepsen-aborted-read", "late-marker"}},
	{"A safety mechanism switched off", brokenSlugs()},
}

// brokenSlugs are the library's examples of a broken mechanism: one per
// mechanism of core/safety's table, in its order, named broken/NAME
// (core/explore's TestBrokenLibrary holds the library to that), and the
// third thought question run with its check off next to its mechanism.
func brokenSlugs() []string {
	var out []string
	for _, m := range safety.Mechanisms {
		out = append(out, "broken/"+m.Name)
		if m == safety.CoordinatorEpoch {
			out = append(out, "broken/coordinator-epoch-off")
		}
	}
	return out
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

// TopicTitle is topic i's title in lang.
func TopicTitle[L ~string](lang L, i int) string {
	if doc.Lang(lang) == doc.Chinese {
		return libraryTopicsZh[i]
	}
	return LibraryTopics[i].Title
}
