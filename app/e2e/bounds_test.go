package e2e

import (
	"strconv"
	"testing"
	"time"

	"txnlab/core/scenario"
)

// TestABoundlessScriptStopsInTheTab: the 9-line script whose producer
// resends with no timeout and no backoff (1 GB natively before the queue
// bound) stops in the browser at the browser's own, lower bound, with
// the error on the page, and the tab goes on working.
func TestABoundlessScriptStopsInTheTab(t *testing.T) {
	b := newBrowser(t)
	openScenario(b, "happy-path")
	setScript(b, `cluster brokers=3
topic t partitions=1
producer p transactional.id=x request.timeout.ms=0 delivery.timeout.ms=0 retry.backoff.ms=0 max.block.ms=0
p init
p begin
p send t/0 k=v
p commit
run
expect p ok
`)
	start := time.Now()
	want := "more than " + strconv.Itoa(scenario.BrowserMaxPending) + " events wait to run"
	b.waitFor("the queue bound's error", `document.querySelector("#script-error")?.textContent.includes(`+jsString(want)+`)`)
	t.Logf("stopped at the browser's queue bound after %v", time.Since(start).Round(time.Millisecond))
	waitIdle(b)
	setScript(b, "cluster brokers=1\ntopic t partitions=1\nproducer p\np send t/0 k=v\nrun\nexpect p ok\n")
	b.waitFor("the next script to run clean", `!document.querySelector("#script-error")?.textContent`)
}
