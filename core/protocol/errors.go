package protocol

import "strconv"

// ErrorCode is a Kafka protocol error code, with Kafka's number. Protocol
// outcomes travel as data inside responses; they are never Go errors.
type ErrorCode int16

// Error codes the simulation uses, with the numbers of
// clients/src/main/java/org/apache/kafka/common/protocol/Errors.java.
const (
	UNKNOWN_SERVER_ERROR                  ErrorCode = -1
	NONE                                  ErrorCode = 0
	UNKNOWN_TOPIC_OR_PARTITION            ErrorCode = 3
	LEADER_NOT_AVAILABLE                  ErrorCode = 5
	NOT_LEADER_OR_FOLLOWER                ErrorCode = 6
	REQUEST_TIMED_OUT                     ErrorCode = 7
	COORDINATOR_LOAD_IN_PROGRESS          ErrorCode = 14
	COORDINATOR_NOT_AVAILABLE             ErrorCode = 15
	NOT_COORDINATOR                       ErrorCode = 16
	NOT_ENOUGH_REPLICAS                   ErrorCode = 19
	NOT_ENOUGH_REPLICAS_AFTER_APPEND      ErrorCode = 20
	ILLEGAL_GENERATION                    ErrorCode = 22
	INCONSISTENT_GROUP_PROTOCOL           ErrorCode = 23
	UNKNOWN_MEMBER_ID                     ErrorCode = 25
	INVALID_SESSION_TIMEOUT               ErrorCode = 26
	REBALANCE_IN_PROGRESS                 ErrorCode = 27
	INVALID_REQUEST                       ErrorCode = 42
	OUT_OF_ORDER_SEQUENCE_NUMBER          ErrorCode = 45
	DUPLICATE_SEQUENCE_NUMBER             ErrorCode = 46
	INVALID_PRODUCER_EPOCH                ErrorCode = 47
	INVALID_TXN_STATE                     ErrorCode = 48
	INVALID_PRODUCER_ID_MAPPING           ErrorCode = 49
	INVALID_TRANSACTION_TIMEOUT           ErrorCode = 50
	CONCURRENT_TRANSACTIONS               ErrorCode = 51
	TRANSACTION_COORDINATOR_FENCED        ErrorCode = 52
	TRANSACTIONAL_ID_AUTHORIZATION_FAILED ErrorCode = 53
	OPERATION_NOT_ATTEMPTED               ErrorCode = 55
	KAFKA_STORAGE_ERROR                   ErrorCode = 56
	UNKNOWN_PRODUCER_ID                   ErrorCode = 59
	MEMBER_ID_REQUIRED                    ErrorCode = 79
	FENCED_INSTANCE_ID                    ErrorCode = 82
	FENCED_LEADER_EPOCH                   ErrorCode = 74
	UNKNOWN_LEADER_EPOCH                  ErrorCode = 75
	UNSTABLE_OFFSET_COMMIT                ErrorCode = 88
	PRODUCER_FENCED                       ErrorCode = 90
	TRANSACTIONAL_ID_NOT_FOUND            ErrorCode = 105
	TRANSACTION_ABORTABLE                 ErrorCode = 120
)

// ErrorInfo describes one error code: Kafka's name, whether the Java client
// treats it as retriable, and a one-line meaning for the UI.
type ErrorInfo struct {
	Code      ErrorCode
	Name      string
	Retriable bool
	Meaning   string
}

// Errors is the table of every error code the simulation can produce, in
// code order. The UI lists it; the scenario language accepts these names.
var Errors = []ErrorInfo{
	{UNKNOWN_SERVER_ERROR, "UNKNOWN_SERVER_ERROR", false, "the server hit an unexpected error"},
	{NONE, "NONE", false, "success"},
	{UNKNOWN_TOPIC_OR_PARTITION, "UNKNOWN_TOPIC_OR_PARTITION", true, "this server does not host the topic-partition"},
	{LEADER_NOT_AVAILABLE, "LEADER_NOT_AVAILABLE", true, "the partition has no leader now (an election is under way)"},
	{NOT_LEADER_OR_FOLLOWER, "NOT_LEADER_OR_FOLLOWER", true, "this server is not the leader of the partition"},
	{REQUEST_TIMED_OUT, "REQUEST_TIMED_OUT", true, "the request timed out"},
	{COORDINATOR_LOAD_IN_PROGRESS, "COORDINATOR_LOAD_IN_PROGRESS", true, "the coordinator is loading its partition"},
	{COORDINATOR_NOT_AVAILABLE, "COORDINATOR_NOT_AVAILABLE", true, "the coordinator is not available"},
	{NOT_COORDINATOR, "NOT_COORDINATOR", true, "this server is not the coordinator for the key"},
	{NOT_ENOUGH_REPLICAS, "NOT_ENOUGH_REPLICAS", true, "fewer in-sync replicas than required"},
	{NOT_ENOUGH_REPLICAS_AFTER_APPEND, "NOT_ENOUGH_REPLICAS_AFTER_APPEND", true, "written, but fewer in-sync replicas than required"},
	{ILLEGAL_GENERATION, "ILLEGAL_GENERATION", false, "the group generation is not current"},
	{INCONSISTENT_GROUP_PROTOCOL, "INCONSISTENT_GROUP_PROTOCOL", false, "the member's protocols share none with the group's members"},
	{UNKNOWN_MEMBER_ID, "UNKNOWN_MEMBER_ID", false, "the member id is not known to the group"},
	{INVALID_SESSION_TIMEOUT, "INVALID_SESSION_TIMEOUT", false, "the session timeout is outside the broker's group.min/max.session.timeout.ms"},
	{REBALANCE_IN_PROGRESS, "REBALANCE_IN_PROGRESS", false, "the group is rebalancing: the member must rejoin"},
	{INVALID_REQUEST, "INVALID_REQUEST", false, "the request is malformed"},
	{OUT_OF_ORDER_SEQUENCE_NUMBER, "OUT_OF_ORDER_SEQUENCE_NUMBER", false, "the broker received an out of order sequence number"},
	{DUPLICATE_SEQUENCE_NUMBER, "DUPLICATE_SEQUENCE_NUMBER", false, "the broker received a duplicate sequence number"},
	{INVALID_PRODUCER_EPOCH, "INVALID_PRODUCER_EPOCH", false, "the producer epoch is older than the one the partition has seen"},
	{INVALID_TXN_STATE, "INVALID_TXN_STATE", false, "the operation is not valid in the transaction's current state"},
	{INVALID_PRODUCER_ID_MAPPING, "INVALID_PRODUCER_ID_MAPPING", false, "the producer id does not match the transactional id"},
	{INVALID_TRANSACTION_TIMEOUT, "INVALID_TRANSACTION_TIMEOUT", false, "the transaction timeout exceeds transaction.max.timeout.ms"},
	{CONCURRENT_TRANSACTIONS, "CONCURRENT_TRANSACTIONS", true, "the coordinator is still completing a transaction for this id"},
	{TRANSACTION_COORDINATOR_FENCED, "TRANSACTION_COORDINATOR_FENCED", false, "a newer transaction coordinator has written a marker"},
	{TRANSACTIONAL_ID_AUTHORIZATION_FAILED, "TRANSACTIONAL_ID_AUTHORIZATION_FAILED", false, "not authorized for the transactional id"},
	{OPERATION_NOT_ATTEMPTED, "OPERATION_NOT_ATTEMPTED", false, "not attempted because another part of the request failed"},
	{KAFKA_STORAGE_ERROR, "KAFKA_STORAGE_ERROR", true, "disk error on the broker"},
	{UNKNOWN_PRODUCER_ID, "UNKNOWN_PRODUCER_ID", false, "the broker has no state for this producer id"},
	{MEMBER_ID_REQUIRED, "MEMBER_ID_REQUIRED", false, "the group gave the member an id: join again with it"},
	{FENCED_INSTANCE_ID, "FENCED_INSTANCE_ID", false, "a newer member with the same group.instance.id exists"},
	{FENCED_LEADER_EPOCH, "FENCED_LEADER_EPOCH", true, "the leader epoch in the request is older than the broker's"},
	{UNKNOWN_LEADER_EPOCH, "UNKNOWN_LEADER_EPOCH", true, "the leader epoch in the request is newer than the broker's"},
	{UNSTABLE_OFFSET_COMMIT, "UNSTABLE_OFFSET_COMMIT", true, "a transactional offset commit for this partition is pending"},
	{PRODUCER_FENCED, "PRODUCER_FENCED", false, "a newer producer with the same transactional id exists"},
	{TRANSACTIONAL_ID_NOT_FOUND, "TRANSACTIONAL_ID_NOT_FOUND", false, "the coordinator has no metadata for the transactional id"},
	{TRANSACTION_ABORTABLE, "TRANSACTION_ABORTABLE", false, "the transaction must be aborted"},
}

// String returns Kafka's name of the error.
func (e ErrorCode) String() string {
	if e == NONE {
		return "NONE"
	}
	for _, info := range Errors {
		if info.Code == e {
			return info.Name
		}
	}
	return "UNKNOWN_ERROR_" + strconv.Itoa(int(e))
}

// Retriable reports whether the Java client retries the error by itself.
func (e ErrorCode) Retriable() bool {
	for _, info := range Errors {
		if info.Code == e {
			return info.Retriable
		}
	}
	return false
}

// ErrorByName finds an error code by Kafka's name.
func ErrorByName(name string) (ErrorCode, bool) {
	for _, info := range Errors {
		if info.Name == name {
			return info.Code, true
		}
	}
	return 0, false
}
