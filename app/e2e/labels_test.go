package e2e

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"txnlab/core/scenario"
	"txnlab/core/sim"
	"txnlab/diagram"
	"txnlab/scenarios"
)

// labelsOutside scrolls the diagram from top to bottom and returns every
// arrow label and note drawn past the diagram's left or right edge.
func labelsOutside(b *browser) (outside []string, cut int) {
	b.t.Helper()
	scroll := `document.querySelector(` + jsString(selScroll) + `)`
	height := eval[int](b, scroll+`.scrollHeight`)
	view := eval[int](b, scroll+`.clientHeight`)
	seen := map[string]bool{}
	for top := 0; top <= height; top += max(view/2, 100) {
		eval[bool](b, fmt.Sprintf(`(%s.scrollTop = %d, true)`, scroll, top))
		b.waitFor("the rows at this scroll position", fmt.Sprintf(`(() => {
			const s = %s, d = document.querySelector(%s).dataset;
			const row = Math.floor(s.scrollTop / %d);
			return +d.first <= row && (+d.last > row + 2 || +d.last >= +d.rows);
		})()`, scroll, jsString(selDiagram), rowHeight))
		for _, s := range eval[[]string](b, `(() => {
			const svg = document.querySelector(`+jsString(selDiagram)+`).getBoundingClientRect();
			return [...document.querySelectorAll(`+jsString(selDiagram+` text.message-label, `+selDiagram+` text.note-label`)+`)].filter(t => {
				const r = t.getBoundingClientRect();
				return r.left < svg.left - 0.5 || r.right > svg.right + 0.5;
			}).map(t => t.textContent);
		})()`) {
			if !seen[s] {
				seen[s] = true
				outside = append(outside, s)
			}
		}
		cut += eval[int](b, `[...document.querySelectorAll(`+jsString(selDiagram+` text.message-label`)+`)].filter(t => t.textContent.endsWith("…")).length`)
	}
	return outside, cut
}

// panelFields is the message panel's field rows as "Name=Value".
func panelFields(b *browser) []string {
	b.t.Helper()
	return eval[[]string](b, `[...document.querySelectorAll("#message-panel table.fields tr")].map(r => r.querySelector("th").textContent + "=" + r.querySelector("td").textContent)`)
}

func hasField(fields []string, name string) (string, bool) {
	for _, f := range fields {
		if n, v, _ := strings.Cut(f, "="); n == name {
			return v, true
		}
	}
	return "", false
}

// TestLabelsFitAndFieldsAreTheMessages: in broken/aborted-filter, the
// Fetch answers to c1 (the first lane) have long labels and broker-0, the
// last lane, has notes: every label lies inside the diagram. The Produce
// panel shows the batch header the scenario is about (ProducerId,
// ProducerEpoch, BaseSequence, IsTransactional) and a Fetch answer's
// panel gives ControlType to its control batch only. The SVG and Mermaid
// exports write every label whole.
func TestLabelsFitAndFieldsAreTheMessages(t *testing.T) {
	b := newBrowser(t)
	openScenario(b, "broken/aborted-filter")
	runToEnd(b)
	outside, cut := labelsOutside(b)
	b.shot("diagram")
	for _, s := range outside {
		t.Errorf("label drawn past the diagram's edge: %q", s)
	}
	if cut == 0 {
		t.Error("no label is long enough to be cut on the page: the export check below proves nothing")
	}

	open := func(sel string) {
		t.Helper()
		if findArrow(b, sel) == 0 {
			t.Fatalf("no %s arrow", sel)
		}
		eval[bool](b, `(document.querySelector(`+jsString(selDiagram+" "+sel+" .hit")+`).dispatchEvent(new MouseEvent("click", {bubbles: true})), true)`)
		b.waitFor("the message panel", `!!document.querySelector("#message-panel table.fields")`)
	}
	open(`.arrow[data-api="Produce"][data-kind="request"]`)
	produce := panelFields(b)
	for name, want := range map[string]string{"TransactionalId": `"tx-a"`, "Acks": "-1", "ProducerId": "0", "ProducerEpoch": "0",
		"BaseSequence": "0", "IsTransactional": "true", "Key": `"k1"`, "Value": `"v1"`} {
		if got, ok := hasField(produce, name); !ok || got != want {
			t.Errorf("Produce panel: %s = %q (shown: %v), want %q; fields %v", name, got, ok, want, produce)
		}
	}
	if _, ok := hasField(produce, "ControlType"); ok {
		t.Errorf("the Produce of a data batch shows a ControlType: %v", produce)
	}

	// The Fetch answer that holds the data batch and the ABORT marker.
	// Only the rows on screen are drawn: scroll until that answer is.
	withAborted := `[...document.querySelectorAll(` + jsString(selDiagram+` .arrow[data-api="Fetch"][data-kind="response"]`) + `)].find(a => a.textContent.includes("AbortedTransactions"))`
	scroll := `document.querySelector(` + jsString(selScroll) + `)`
	for top := 0; !eval[bool](b, `!!`+withAborted); top += 100 {
		if top > eval[int](b, scroll+`.scrollHeight`) {
			t.Fatal("no Fetch answer with an aborted list in the diagram")
		}
		eval[bool](b, fmt.Sprintf(`(%s.scrollTop = %d, true)`, scroll, top))
		b.waitFor("the rows at this scroll position", fmt.Sprintf(`(() => {
			const s = %s, d = document.querySelector(%s).dataset;
			const row = Math.floor(s.scrollTop / %d);
			return +d.first <= row && (+d.last > row + 2 || +d.last >= +d.rows);
		})()`, scroll, jsString(selDiagram), rowHeight))
	}
	eval[bool](b, `(`+withAborted+`.querySelector(".hit").dispatchEvent(new MouseEvent("click", {bubbles: true})), true)`)
	b.waitFor("the Fetch answer with the aborted list", `[...document.querySelectorAll("#message-panel table.fields th")].some(th => th.textContent === "AbortedTransactions")`)
	fetch := panelFields(b)
	controls, types := 0, 0
	for _, f := range fetch {
		switch {
		case f == "IsControl=true":
			controls++
		case strings.HasPrefix(f, "ControlType="):
			types++
			if f != "ControlType=ABORT (0)" {
				t.Errorf("the marker reads %s, want ControlType=ABORT (0)", f)
			}
		}
	}
	if controls != 1 || types != controls {
		t.Errorf("%d control batches, %d ControlType fields in the Fetch answer: %v", controls, types, fetch)
	}

	// The exports: capture the blobs the page downloads.
	eval[bool](b, `(() => { window.__blobs = []; const o = URL.createObjectURL; URL.createObjectURL = x => { window.__blobs.push(x); return o.call(URL, x) }; return true })()`)
	for _, item := range []string{"Diagram (SVG)", "Diagram (Mermaid)"} {
		eval[bool](b, `(() => { document.querySelector("details.export").open = true; [...document.querySelectorAll("details.export .menu-item")].find(m => m.textContent === `+jsString(item)+`).click(); return true })()`)
	}
	b.waitFor("two exports", `window.__blobs.length === 2`)
	texts := eval[[]string](b, `Promise.all(window.__blobs.map(x => x.text()))`, chromedp.EvalAwaitPromise)
	for i, name := range []string{"SVG", "Mermaid"} {
		if strings.Contains(texts[i], "…") {
			line := texts[i][max(0, strings.Index(texts[i], "…")-80):strings.Index(texts[i], "…")]
			t.Errorf("the %s export cuts a label: …%s…", name, line)
		}
		if !strings.Contains(texts[i], "AbortedTransactions=[{pid=0 FirstOffset=0}]") {
			t.Errorf("the %s export lacks the Fetch answer's whole label", name)
		}
	}
}

// TestReplicationMessagesAreTheWorkers: a follower's Fetch request and
// its answer, which the page reads by hand from the worker's wire
// (app/engine/wire_fast.go) rather than by reflection, show in the
// message panel every field the simulation sent, as the same run made
// natively has them.
func TestReplicationMessagesAreTheWorkers(t *testing.T) {
	b := newBrowser(t)
	openScenario(b, "happy-path")
	b.click(`.diagram-tools input[type=checkbox]`) // Show replication
	runToEnd(b)

	sc, _ := scenarios.Get("happy-path")
	script, err := scenario.Parse("cli", sc.Script)
	if err != nil {
		t.Fatal(err)
	}
	s := scenario.NewSession("cli", script)
	s.Run()
	sent := map[string]sim.Event{}
	for _, e := range s.Cluster.World.Trace.All() {
		if e.Kind == sim.KindSend {
			sent[strconv.FormatInt(e.MsgID, 10)] = *e // All reuses e
		}
	}
	for _, kind := range []string{"request", "response"} {
		sel := `.arrow.internal[data-api="Fetch"][data-kind="` + kind + `"]`
		if findArrow(b, sel) == 0 {
			t.Fatalf("no follower's Fetch %s in the diagram", kind)
		}
		eval[bool](b, `(document.querySelector(`+jsString(selDiagram+" "+sel+" .hit")+`).dispatchEvent(new MouseEvent("click", {bubbles: true})), true)`)
		b.waitFor("the message panel", `!!document.querySelector("#message-panel table.fields")`)
		id := eval[string](b, `document.querySelector("#message-panel").dataset.msg`)
		e, ok := sent[id]
		if !ok || e.Msg == nil || !e.Internal {
			t.Fatalf("message #%s: no follower's Fetch %s of that number natively (%+v)", id, kind, e)
		}
		var want []string
		for _, f := range diagram.MessageFields(e.Msg) {
			want = append(want, f.Name+"="+f.Value)
		}
		if got := panelFields(b); !slices.Equal(got, want) || len(want) < 4 {
			t.Errorf("Fetch %s #%s: the panel shows\n%v\nthe simulation sent\n%v", kind, id, got, want)
		}
		b.click(`#message-panel button.close`)
	}
}
