package app

import "txnlab/lessons/doc"

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
