package panels

import (
	"fmt"
	"strings"

	"txnlab/core/sim"
	"txnlab/diagram"
	"txnlab/lessons/doc"
)

// The narration: a polite aria-live region that says what the step just
// taken did, in words, in the page's language ("broker-1, coordinator of
// order-txn-1, writes PrepareCommit to __transaction_state/39"), so a
// screen-reader user hears each step without reading the diagram. It is
// built from the events' fields, never from the digest or the trace's
// canonical lines.

// narrateMax is how many events of a step are said; the rest are
// counted. A step is a handful of events; one that holds more (a
// restart) would be too long to listen to.
const narrateMax = 4

// TxnStateRecord reads a __transaction_state record's text,
// "[checkout-1:{state=Ongoing pid=0 …}]": the transactional id and the
// state written.
func TxnStateRecord(text string) (id, state string, ok bool) {
	rest, ok := strings.CutPrefix(text, "[")
	if !ok {
		return "", "", false
	}
	id, rest, ok = strings.Cut(rest, ":{state=")
	if !ok || id == "" || strings.ContainsAny(id, "]") {
		return "", "", false
	}
	end := strings.IndexAny(rest, " }")
	if end <= 0 {
		return "", "", false
	}
	return id, rest[:end], true
}

// Narration is what the step ending at the engine's position did, as
// the diagram shows it (filter): its events, each a sentence.
func Narration(lang string, e Engine, f diagram.Filter) string {
	pos := e.Pos()
	if pos == 0 {
		return tr(lang, "narrate.start")
	}
	evs := e.History()
	from, to := e.EventsAt(pos-1), e.EventsAt(pos)
	var said []string
	more := 0
	for i := from; i < to && i < len(evs); i++ {
		ev := &evs[i]
		if !f.Shows(ev) {
			continue
		}
		if len(said) == narrateMax {
			more++
			continue
		}
		if s := narrateEvent(lang, e.Names(), ev); s != "" {
			said = append(said, s)
		}
	}
	head := fmt.Sprintf(tr(lang, "narrate.step"), pos, e.Len())
	if len(said) == 0 {
		return head + tr(lang, "narrate.quiet")
	}
	sep, end := "; ", "."
	if doc.Lang(lang) == doc.Chinese {
		sep, end = "；", "。"
	}
	out := head + strings.Join(said, sep) + end
	if more > 0 {
		out += fmt.Sprintf(tr(lang, "narrate.more"), more)
	}
	return out
}

// narrateEvent says one event in a sentence (without its full stop);
// names is the run's table of node names.
func narrateEvent(lang string, names *sim.Names, ev *sim.Event) string {
	n, peer := names.Name(ev.Node), names.Name(ev.Peer)
	t := func(key string, args ...any) string { return fmt.Sprintf(tr(lang, key), args...) }
	switch ev.Kind {
	case sim.KindSend:
		if ev.Resp {
			if ev.Failed() {
				return t("narrate.answer.error", n, ev.API, peer, ev.ErrorName())
			}
			return t("narrate.answer", n, ev.API, peer)
		}
		return t("narrate.send", n, ev.API, peer)
	case sim.KindDeliver:
		if ev.Resp {
			return t("narrate.deliver.response", ev.API, peer)
		}
		return t("narrate.deliver", ev.API, n, peer)
	case sim.KindDrop:
		return t("narrate.drop", ev.API, n, peer)
	case sim.KindState:
		return t("narrate.state", n, ev.Subject, names.Label(ev.From), names.Label(ev.To))
	case sim.KindAppend:
		switch ev.Contents {
		case sim.TransactionRecord:
			if id, state, ok := TxnStateRecord(ev.Text); ok {
				return t("narrate.txnlog", n, id, state, ev.Subject)
			}
		case sim.CommitMarker:
			return t("narrate.marker", n, "COMMIT", ev.Subject, ev.Offset)
		case sim.AbortMarker:
			return t("narrate.marker", n, "ABORT", ev.Subject, ev.Offset)
		}
		return t("narrate.append", n, ev.Subject, ev.Offset)
	case sim.KindElection:
		return t("narrate.election", n, ev.Subject)
	case sim.KindCrash:
		return t("narrate.crash", n)
	case sim.KindRestart:
		return t("narrate.restart", n)
	case sim.KindPause:
		return t("narrate.pause", n)
	case sim.KindResume:
		return t("narrate.resume", n)
	case sim.KindCallStart:
		return t("narrate.call", n, ev.Subject)
	case sim.KindCallEnd:
		return t("narrate.return", n, ev.Subject, strings.TrimSpace(eventText(lang, ev)))
	case sim.KindExpect:
		if !ev.Unmet {
			return t("narrate.expect.ok", ev.Subject)
		}
		return t("narrate.expect.fail", ev.Subject)
	default:
		text := eventText(lang, ev)
		if ev.Note == nil && doc.Lang(lang) == doc.Chinese {
			// A text without a note's code: its identifiers alone.
			text = strings.Join(errorIdentifiers(text), "、")
		}
		return t("narrate.note", n, text)
	}
}
