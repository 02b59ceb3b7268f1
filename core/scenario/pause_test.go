package scenario

import "testing"

// A broker paused while the controller makes it the coordinator of a
// transactional id (its predecessor crashed) takes the role up once it
// resumes: it catches up on the metadata it missed, loads the partition
// and answers. It used to answer NOT_COORDINATOR for good, and the
// producer's commit timed out after thousands of retries.
func TestBrokerPausedThroughItsElectionBecomesCoordinator(t *testing.T) {
	s := runScript(t, `cluster brokers=3
topic orders partitions=2
producer app transactional.id=checkout-1
app init
app begin
app send orders/0 a=1
crash coordinator(checkout-1)
app commit &
run for=8990ms
pause broker-0
run for=1s
resume broker-0
wait app
expect app ok
run
expect txn checkout-1 state=CompleteCommit
expect coordinator checkout-1 broker=broker-0
`)
	for _, r := range s.Results {
		if !r.OK {
			t.Error(r)
		}
	}
}
