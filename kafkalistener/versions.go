//go:build !wasm

package kafkalistener

// The APIs and versions the listener serves: only versions whose meaning
// the simulation models (docs/kafka-fidelity.md, "The Kafka listener").
// A switch over the keys served, not kmsg.RequestForKey, which would link
// every API's codec into the binary (+1.3 MB measured).

import (
	"strconv"

	"github.com/twmb/franz-go/pkg/kmsg"
)

// versionRange is a served API's lowest and highest version.
type versionRange struct{ lo, hi int16 }

// versions is the table one listener serves: Produce, EndTxn and
// TxnOffsetCommit reach their transaction version 2 versions only when
// the cluster runs transaction.version 2.
type versions map[int16]versionRange

func servedVersions(tv2 bool) versions {
	v := versions{
		0:  {3, 11}, // Produce: record batch v2 from v3; v11 knows TRANSACTION_ABORTABLE
		1:  {4, 11}, // Fetch: isolation level and aborted transactions from v4
		2:  {1, 7},  // ListOffsets: MAX_TIMESTAMP (-3) at v7
		3:  {1, 9},  // Metadata, without topic ids (v10+)
		8:  {2, 8},  // OffsetCommit
		9:  {1, 7},  // OffsetFetch: RequireStable at v7; v8 batches groups
		10: {0, 3},  // FindCoordinator: one key a request (v4 batches keys)
		11: {4, 9},  // JoinGroup: MEMBER_ID_REQUIRED (KIP-394) from v4
		12: {0, 4},  // Heartbeat
		13: {0, 5},  // LeaveGroup: one member to v2, a batch from v3, Reason at v5
		14: {0, 5},  // SyncGroup
		18: {0, 3},  // ApiVersions
		22: {0, 4},  // InitProducerId
		24: {0, 3},  // AddPartitionsToTxn: v4+ is broker to broker
		25: {0, 3},  // AddOffsetsToTxn
		26: {0, 3},  // EndTxn
		27: {0, 1},  // WriteTxnMarkers: Admin.abortTransaction's; v1 is flexible (3.5 serves 0-1)
		28: {0, 4},  // TxnOffsetCommit: v4 knows TRANSACTION_ABORTABLE
		// KIP-664, as Kafka 3.5 serves them: ListTransactions v1's
		// DurationFilter came with 3.8 (KIP-994).
		61: {0, 0}, // DescribeProducers
		65: {0, 0}, // DescribeTransactions
		66: {0, 0}, // ListTransactions
	}
	if tv2 {
		v[0] = versionRange{3, 12}
		v[26] = versionRange{0, 5}
		v[28] = versionRange{0, 5}
	}
	return v
}

func (v versions) rangeOf(key int16) (lo, hi int16, ok bool) {
	r, ok := v[key]
	return r.lo, r.hi, ok
}

// requestForKey is a served key's empty request.
func requestForKey(key int16) kmsg.Request {
	switch key {
	case 0:
		return new(kmsg.ProduceRequest)
	case 1:
		return new(kmsg.FetchRequest)
	case 2:
		return new(kmsg.ListOffsetsRequest)
	case 3:
		return new(kmsg.MetadataRequest)
	case 8:
		return new(kmsg.OffsetCommitRequest)
	case 9:
		return new(kmsg.OffsetFetchRequest)
	case 10:
		return new(kmsg.FindCoordinatorRequest)
	case 11:
		return new(kmsg.JoinGroupRequest)
	case 12:
		return new(kmsg.HeartbeatRequest)
	case 13:
		return new(kmsg.LeaveGroupRequest)
	case 14:
		return new(kmsg.SyncGroupRequest)
	case 18:
		return new(kmsg.ApiVersionsRequest)
	case 22:
		return new(kmsg.InitProducerIDRequest)
	case 24:
		return new(kmsg.AddPartitionsToTxnRequest)
	case 25:
		return new(kmsg.AddOffsetsToTxnRequest)
	case 26:
		return new(kmsg.EndTxnRequest)
	case 27:
		return new(kmsg.WriteTxnMarkersRequest)
	case 28:
		return new(kmsg.TxnOffsetCommitRequest)
	case 61:
		return new(kmsg.DescribeProducersRequest)
	case 65:
		return new(kmsg.DescribeTransactionsRequest)
	case 66:
		return new(kmsg.ListTransactionsRequest)
	}
	return nil
}

var apiNames = map[int16]string{0: "Produce", 1: "Fetch", 2: "ListOffsets", 3: "Metadata", 8: "OffsetCommit",
	9: "OffsetFetch", 10: "FindCoordinator", 11: "JoinGroup", 12: "Heartbeat", 13: "LeaveGroup", 14: "SyncGroup",
	17: "SaslHandshake", 18: "ApiVersions", 22: "InitProducerId", 24: "AddPartitionsToTxn", 25: "AddOffsetsToTxn",
	26: "EndTxn", 27: "WriteTxnMarkers", 28: "TxnOffsetCommit", 61: "DescribeProducers", 65: "DescribeTransactions",
	66: "ListTransactions"}

func apiName(key int16) string {
	if n, ok := apiNames[key]; ok {
		return n
	}
	return "API " + strconv.Itoa(int(key))
}

// apiVersions answers ApiVersions: the table, and the transaction.version
// feature (KIP-890) exactly when the cluster runs it.
func (v versions) apiVersions(req *kmsg.ApiVersionsRequest, tv int16) *kmsg.ApiVersionsResponse {
	resp := req.ResponseKind().(*kmsg.ApiVersionsResponse)
	lo, hi, _ := v.rangeOf(18)
	if req.Version < lo || req.Version > hi {
		// Kafka answers an ApiVersions it cannot parse at v0, with
		// the error and its own ApiVersions range, so the client
		// retries at a version it serves (KIP-511).
		resp.Version = 0
		resp.ErrorCode = errUnsupportedVersion
		resp.ApiKeys = []kmsg.ApiVersionsResponseApiKey{{ApiKey: 18, MinVersion: lo, MaxVersion: hi}}
		return resp
	}
	for _, key := range []int16{0, 1, 2, 3, 8, 9, 10, 11, 12, 13, 14, 18, 22, 24, 25, 26, 27, 28, 61, 65, 66} {
		r := v[key]
		resp.ApiKeys = append(resp.ApiKeys, kmsg.ApiVersionsResponseApiKey{ApiKey: key, MinVersion: r.lo, MaxVersion: r.hi})
	}
	if tv > 0 {
		resp.SupportedFeatures = []kmsg.ApiVersionsResponseSupportedFeature{{Name: "transaction.version", MinVersion: 0, MaxVersion: 2}}
		resp.FinalizedFeaturesEpoch = 1
		resp.FinalizedFeatures = []kmsg.ApiVersionsResponseFinalizedFeature{{Name: "transaction.version", MinVersionLevel: tv, MaxVersionLevel: tv}}
	}
	return resp
}
