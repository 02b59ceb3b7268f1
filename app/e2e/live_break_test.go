package e2e

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"

	"txnlab/app/server"
	"txnlab/lessons"
)

// TestLiveBreakpointHoldsARealClientsEndTxn is issue 27's breakpoint:
// in Live mode the learner picks EndTxn; kgo's commit then waits at the
// listener, the page's script shows the held request and not yet its
// line, and Step lets it in: the commit returns and its EndTxn is in the
// script. A page opened later, in Chinese, shows the breakpoint set and
// names the controls in Chinese.
func TestLiveBreakpointHoldsARealClientsEndTxn(t *testing.T) {
	if testing.Short() {
		t.Skip("a real client's session takes seconds")
	}
	l := startListener(t, "cluster brokers=1\ntopic orders partitions=1\n")
	course, err := lessons.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	srv, err := server.New(server.Config{WebDir: filepath.Join(repoRoot, "web"), Lessons: course, Live: l})
	if err != nil {
		t.Fatal(err)
	}
	site, _ := serve(t, srv)
	b := newBrowser(t)
	b.openURL(site + "/playground?live=1")
	b.waitFor("following", `document.querySelector(".live-status")?.dataset.live === "following"`)
	b.waitFor("the breakpoint's control", `!!document.querySelector("#live-break")`)
	eval[bool](b, `(() => { const s = document.querySelector("#live-break"); s.value = "EndTxn"; s.dispatchEvent(new Event("change", {bubbles: true})); return true })()`)
	b.waitFor("the breakpoint set", `document.querySelector(`+jsString(selScript)+`).value.includes("# breakpoint: the next EndTxn request is held")`)

	cl, err := kgo.NewClient(kgo.SeedBrokers(l.Addrs()...), kgo.ClientID("shop"), kgo.TransactionalID("order-txn"),
		kgo.DefaultProduceTopic("orders"))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	done := make(chan error, 1)
	go func() {
		if err := cl.BeginTransaction(); err != nil {
			done <- err
			return
		}
		if err := cl.ProduceSync(ctx, &kgo.Record{Value: []byte("v")}).FirstErr(); err != nil {
			done <- err
			return
		}
		done <- cl.EndTransaction(ctx, kgo.TryCommit)
	}()
	b.waitFor("the held request in the script", `document.querySelector(`+jsString(selScript)+`).value.includes("# breakpoint: holding EndTxn")`)
	script := eval[string](b, `document.querySelector(`+jsString(selScript)+`).value`)
	if strings.Contains(script, "request EndTxn") {
		t.Fatalf("the held EndTxn is already in the script:\n%s", script)
	}
	select {
	case err := <-done:
		t.Fatalf("the commit returned while its EndTxn was held: %v", err)
	default:
	}
	b.click(".live-step")
	if err := <-done; err != nil {
		t.Fatalf("the commit after Step: %v", err)
	}
	b.waitFor("the EndTxn in the script", `/request EndTxn from=shop .*Committed=true/.test(document.querySelector(`+jsString(selScript)+`).value)`)

	zh := newBrowser(t)
	zh.openURL(site + "/zh/playground?live=1")
	zh.waitFor("the Chinese control", `!!document.querySelector(".live-break")`)
	if got := zh.text(".live-break"); !strings.Contains(got, "断点") || !strings.Contains(got, "放行") || strings.Contains(got, "Step") {
		t.Errorf("the Chinese breakpoint reads %q", got)
	}
	// A page opened later shows the breakpoint the session has.
	zh.waitFor("the session's breakpoint", `document.querySelector("#live-break").value === "EndTxn"`)
}
