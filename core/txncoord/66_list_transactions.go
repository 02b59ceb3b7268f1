package txncoord

// ListTransactions (key 66, KIP-664): KafkaApis.handleListTransactionsRequest,
// TransactionCoordinator.handleListTransactions and
// TransactionStateManager.listTransactionStates, Kafka 3.5 (v0: no
// DurationFilter, which KIP-994 added in 3.8).
//
// - Every broker answers for the __transaction_state partitions it leads
//   (Admin.listTransactions asks them all): while any of them is loading
//   → COORDINATOR_LOAD_IN_PROGRESS, with no list.
// - Filters: state names (a name that is no state goes back in
//   UnknownStateFilters and matches nothing) and producer ids; empty
//   filters match everything. Dead ids, being expired, are left out.
// - The list is sorted by transactional id: Kafka's comes in hash-map
//   order, which a replay could not reproduce.

import (
	"slices"
	"strings"

	"txnlab/core/internal/ptrsort"
	"txnlab/core/protocol"
	"txnlab/core/sim"
)

func (c *Coordinator) handleListTransactions(w *sim.World, env *sim.Envelope, m *protocol.ListTransactionsRequest) {
	resp := &protocol.ListTransactionsResponse{}
	if len(c.loading) > 0 {
		resp.ErrorCode = protocol.COORDINATOR_LOAD_IN_PROGRESS
		c.reply(w, env, resp)
		return
	}
	states := map[protocol.TransactionState]bool{}
	for _, name := range m.StateFilters {
		if s, ok := protocol.TransactionStateByName(name); ok {
			states[s] = true
		} else {
			resp.UnknownStateFilters = append(resp.UnknownStateFilters, name)
		}
	}
	for _, p := range sortedPartitions(c.cache) {
		e := c.cache[p]
		for _, id := range sortedIds(e.txns) {
			md := e.txns[id]
			switch {
			case md.State == protocol.Dead:
			case len(m.ProducerIdFilters) > 0 && !slices.Contains(m.ProducerIdFilters, md.ProducerId):
			case len(m.StateFilters) > 0 && !states[md.State]:
			default:
				resp.TransactionStates = append(resp.TransactionStates,
					protocol.ListedTransaction{TransactionalId: id, ProducerId: md.ProducerId, TransactionState: md.State.String()})
			}
		}
	}
	ptrsort.SortFunc(resp.TransactionStates, func(a, b *protocol.ListedTransaction) int {
		return strings.Compare(a.TransactionalId, b.TransactionalId)
	})
	c.reply(w, env, resp)
}

// sortedPartitions lists the loaded partitions in order, so nothing
// depends on map order.
func sortedPartitions(cache map[int32]*cacheEntry) []int32 {
	ps := make([]int32, 0, len(cache))
	for p := range cache {
		ps = append(ps, p)
	}
	slices.Sort(ps)
	return ps
}
