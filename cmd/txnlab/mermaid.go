package main

import (
	"fmt"
	"strings"

	"txnlab/core/sim"
)

// Mermaid renders the visible history as a Mermaid sequenceDiagram:
// requests as solid arrows, responses dashed, lost messages with a cross,
// state changes and appends as notes over their node.
func Mermaid(events []sim.Event) string {
	var b strings.Builder
	b.WriteString("sequenceDiagram\n")
	seen := map[sim.NodeID]bool{}
	var order []sim.NodeID
	add := func(n sim.NodeID) {
		if n != "" && !seen[n] {
			seen[n] = true
			order = append(order, n)
		}
	}
	for i := range events {
		e := &events[i]
		if e.Internal {
			continue
		}
		switch e.Kind {
		case sim.KindSend, sim.KindDrop:
			add(e.Node)
			add(e.Peer)
		case sim.KindState, sim.KindAppend, sim.KindCrash, sim.KindRestart, sim.KindPause, sim.KindResume:
			add(e.Node)
		}
	}
	for _, n := range order {
		fmt.Fprintf(&b, "    participant %s\n", mermaidID(n))
	}
	dropped := map[int64]bool{}
	for i := range events {
		if events[i].Kind == sim.KindDrop {
			dropped[events[i].MsgID] = true
		}
	}
	for i := range events {
		e := &events[i]
		if e.Internal {
			continue
		}
		switch e.Kind {
		case sim.KindSend:
			arrow := "->>"
			if e.Resp {
				arrow = "-->>"
			}
			if dropped[e.MsgID] {
				arrow = "-x"
				if e.Resp {
					arrow = "--x"
				}
			}
			label := e.API
			if e.Resp {
				label += " response"
			}
			if e.Error != "" {
				label += " " + e.Error
			} else if e.Msg != nil && !e.Resp {
				label += " " + shorten(e.Msg.Summary(), 80)
			}
			fmt.Fprintf(&b, "    %s%s%s: %s\n", mermaidID(e.Node), arrow, mermaidID(e.Peer), mermaidText(label))
		case sim.KindState:
			fmt.Fprintf(&b, "    Note over %s: %s\n", mermaidID(e.Node), mermaidText(e.Subject+" "+e.From+" → "+e.To))
		case sim.KindAppend:
			fmt.Fprintf(&b, "    Note over %s: %s\n", mermaidID(e.Node), mermaidText("append "+e.Subject+"@"+fmt.Sprint(e.Offset)+" "+shorten(e.Text, 60)))
		case sim.KindCrash, sim.KindRestart, sim.KindPause, sim.KindResume:
			fmt.Fprintf(&b, "    Note over %s: %s\n", mermaidID(e.Node), strings.ToUpper(e.Kind.String()))
		}
	}
	return b.String()
}

// mermaidID makes a node name a valid participant id.
func mermaidID(n sim.NodeID) string {
	return strings.NewReplacer("-", "_", ".", "_").Replace(string(n))
}

// mermaidText escapes what Mermaid treats as syntax in message text.
func mermaidText(s string) string {
	return strings.NewReplacer(";", ",", "#", "#35;", "\n", " ", ":", "#58;").Replace(s)
}

func shorten(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
