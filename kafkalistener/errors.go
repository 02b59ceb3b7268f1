//go:build !wasm

package kafkalistener

// Kafka's error codes the listener answers itself, at the wire, for
// what never reaches the simulation (Errors.java).
const (
	errOffsetOutOfRange        int16 = 1
	errCorruptMessage          int16 = 2
	errUnknownTopicOrPartition int16 = 3
	errLeaderNotAvailable      int16 = 5
	errNotLeader               int16 = 6
	errMessageTooLarge         int16 = 10
	errInvalidTopic            int16 = 17
	errRecordListTooLarge      int16 = 18
	errUnsupportedVersion      int16 = 35
	errUnsupportedCompression  int16 = 76
	errInvalidRecord           int16 = 87
)
