package panels

import (
	"testing"

	"txnlab/core/safety"
)

// TestEveryPreconditionIsJudged: a precondition of core/safety's table
// that the break tab's scan does not judge is named, rather than every
// switch that needs it being called idle for ever.
func TestEveryPreconditionIsJudged(t *testing.T) {
	judged := (&seen{}).met()
	for _, p := range safety.Preconditions {
		if _, ok := judged[p]; !ok {
			t.Errorf("Unexercised does not judge precondition %s", p)
		}
	}
}
