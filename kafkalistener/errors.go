//go:build !wasm

package kafkalistener

import "txnlab/core/protocol"

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

// errName is the name Kafka gives a code the listener answers itself.
func errName(code int16) string {
	switch code {
	case errCorruptMessage:
		return "CORRUPT_MESSAGE"
	case errMessageTooLarge:
		return "MESSAGE_TOO_LARGE"
	case errRecordListTooLarge:
		return "RECORD_LIST_TOO_LARGE"
	case errUnsupportedCompression:
		return "UNSUPPORTED_COMPRESSION_TYPE"
	case errInvalidRecord:
		return "INVALID_RECORD"
	case errUnsupportedVersion:
		return "UNSUPPORTED_VERSION"
	}
	return protocol.ErrorCode(code).String()
}
