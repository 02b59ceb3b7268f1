package sim

import (
	"reflect"
	"strconv"
	"testing"

	"txnlab/core/protocol"
)

// TestStoreEventCopiesEveryField sets every field of an event and checks
// that the trace gives each back: add and load list the fields one by
// one, so a field added to Event and not to them would silently read as
// zero.
func TestStoreEventCopiesEveryField(t *testing.T) {
	var e Event
	fill(t, reflect.ValueOf(&e).Elem())
	e.Index = 0 // its place
	var tr Trace
	tr.add(&e)
	if got := tr.At(0); !reflect.DeepEqual(*got, e) {
		t.Fatalf("stored %+v, want %+v", *got, e)
	}
	// A zero event stays zero (nothing read from another event's
	// strings, message or note).
	tr.add(&Event{Index: 1})
	if z := tr.At(1); !reflect.DeepEqual(*z, Event{Index: 1}) {
		t.Fatalf("zero event stored as %+v", *z)
	}
}

// TestSharedTraceGrowsOnItsOwn checks that a trace sharing a history
// reads the history's events, records its next ones in storage of its
// own, and never writes the history.
func TestSharedTraceGrowsOnItsOwn(t *testing.T) {
	var long, short Trace
	for i := 0; i < 10; i++ {
		long.add(&Event{Index: i})
	}
	for i := 0; i < 5; i++ {
		short.add(&Event{Index: i})
	}
	history := long.Events(0)
	short.ShareWith(history)
	short.add(&Event{Index: 5, Text: "mine"})
	for i := 6; i < 200; i++ {
		short.add(&Event{Index: i})
	}
	if short.At(5).Text != "mine" {
		t.Fatal("an event recorded after ShareWith was lost")
	}
	if history[5].Text != "" || long.At(5).Text != "" {
		t.Fatal("the shared history was written to")
	}
	for i := 0; i < short.Len(); i++ {
		if short.At(i).Index != i {
			t.Fatalf("event %d has index %d", i, short.At(i).Index)
		}
	}
}

// TestQueuedSlotCopiesEveryField does for the queue's slots what
// TestStoreEventCopiesEveryField does for the trace: a delivery's fields
// and a timer's (all of its timer's) survive storeQueued into a slot
// last used by the other kind, and clearQueued leaves no pointer behind.
func TestQueuedSlotCopiesEveryField(t *testing.T) {
	var timer event
	fill(t, reflect.ValueOf(&timer.timer).Elem())
	timer.at, timer.seq, timer.kind, timer.arrived = 5, 6, evTimer, true
	delivery := event{at: 7, seq: 8, kind: evDeliver, env: &Envelope{ID: 9}, arrived: true}
	var slot event
	for _, e := range []event{timer, delivery, timer} {
		storeQueued(&slot, &e)
		got := slot
		if e.kind == evDeliver {
			got.timer = Timer{} // a delivery's slot keeps a timer's stale numbers
		}
		if !reflect.DeepEqual(got, e) {
			t.Fatalf("stored %+v, want %+v", got, e)
		}
		clearQueued(&slot)
		left := slot
		left.at, left.seq, left.kind, left.arrived = 0, 0, 0, false
		left.timer.Node, left.timer.Background, left.timer.gen = 0, false, 0
		if !reflect.DeepEqual(left, event{}) {
			t.Fatalf("a cleared slot still points somewhere: %+v", slot)
		}
	}
}

// fill sets every field of v to something not zero, through nested
// structs, unexported fields included.
func fill(t *testing.T, v reflect.Value) {
	for i := 0; i < v.NumField(); i++ {
		f := v.Field(i)
		f = reflect.NewAt(f.Type(), f.Addr().UnsafePointer()).Elem()
		switch f.Kind() {
		case reflect.Bool:
			f.SetBool(true)
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			f.SetInt(int64(i + 1))
		case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
			f.SetUint(uint64(i + 1))
		case reflect.String:
			f.SetString(v.Type().Field(i).Name)
		case reflect.Pointer:
			f.Set(reflect.New(f.Type().Elem()))
		case reflect.Interface:
			switch msg := reflect.ValueOf(&protocol.FetchRequest{ReplicaId: 7}); {
			case f.Type().NumMethod() == 0:
				f.Set(reflect.ValueOf(i))
			case msg.Type().Implements(f.Type()):
				f.Set(msg) // an event's message
			default:
				f.Set(reflect.ValueOf(&recorder{}))
			}
		case reflect.Struct:
			fill(t, f)
		default:
			t.Fatalf("field %s of kind %s: teach fill to set it", v.Type().Field(i).Name, f.Kind())
		}
	}
}

// TestRecordHasNoPointers keeps the trace's records free of pointers, so
// that the collector never scans them: a string, slice, interface or
// pointer field added to record would bring back the marking that was
// most of a long run's garbage collection.
func TestRecordHasNoPointers(t *testing.T) {
	var walk func(reflect.Type)
	walk = func(ty reflect.Type) {
		for i := 0; i < ty.NumField(); i++ {
			f := ty.Field(i)
			switch f.Type.Kind() {
			case reflect.Struct:
				walk(f.Type)
			case reflect.Bool, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
				reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
			default:
				t.Errorf("record.%s is a %s: the trace's records must hold no pointer", f.Name, f.Type)
			}
		}
	}
	walk(reflect.TypeOf(record{}))
	if size := reflect.TypeOf(record{}).Size(); size > 72 {
		t.Errorf("a record is %d bytes, was 72", size)
	}
}

// BenchmarkTraceAll walks a trace of sends, deliveries and appends, as
// the checker's walks do.
func BenchmarkTraceAll(b *testing.B) {
	var tr Trace
	msg := &protocol.FetchRequest{ReplicaId: 7}
	for i := 0; i < 50_000; i++ {
		e := Event{Index: i, Kind: Kind(i % 3), Subject: "t-" + strconv.Itoa(i%50), MsgID: int64(i)}
		switch e.Kind {
		case KindSend:
			e.Msg = msg
		case KindDrop:
			e.Kind, e.Text = KindAppend, "batch "+strconv.Itoa(i%500)
		}
		tr.add(&e)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		n := 0
		for _, e := range tr.All() {
			if e.Kind == KindSend && e.Msg != nil {
				n++
			}
		}
		if n == 0 {
			b.Fatal("no sends")
		}
	}
}

// TestFollowedTraceRecordsOnlyWhatDiffers: a trace following a history
// (a replay of its run) stores nothing of the events that equal the
// history's and reads them from it; the first event that differs ends
// the following, and it and every event after it are the trace's own, as
// are the events past the history's end.
func TestFollowedTraceRecordsOnlyWhatDiffers(t *testing.T) {
	ev := func(i int, text string) *Event {
		return &Event{Index: i, At: Time(10 * i), Kind: KindSend, MsgID: int64(i), Text: text}
	}
	var long Trace
	for i := 0; i < 3000; i++ {
		long.add(ev(i, "history"))
	}
	history := long.Events(0)

	t.Run("the same run", func(t *testing.T) {
		var replay Trace
		replay.Follow(history)
		for i := 0; i < 3000; i++ {
			replay.add(ev(i, "replay"))
		}
		if replay.Len() != 3000 {
			t.Fatalf("Len %d after 3000 events, want 3000", replay.Len())
		}
		for c, b := range replay.recs.b {
			if b != nil {
				t.Fatalf("the trace made record block %d for events the history has", c)
			}
		}
		if replay.msgs.n != 0 || replay.notes.n != 0 || len(replay.strs) != 0 {
			t.Fatal("the trace stored a message, a note or a string of a followed event")
		}
		if got := replay.At(2999); got != &history[2999] {
			t.Fatalf("event 2999 is %+v, not the history's", got)
		}
	})

	t.Run("a run that differs", func(t *testing.T) {
		var replay Trace
		for i := 0; i < 10; i++ {
			replay.add(ev(i, "replay"))
		}
		replay.Follow(history) // after some events, as the engine does
		for i := 10; i < 1500; i++ {
			replay.add(ev(i, "replay"))
		}
		other := ev(1500, "mine")
		other.At++
		replay.add(other)
		for i := 1501; i < 3100; i++ {
			replay.add(ev(i, "after"))
			replay.Follow(history) // asked again at every step: refused
			replay.ShareWith(history)
		}
		if replay.Len() != 3100 {
			t.Fatalf("Len %d, want 3100", replay.Len())
		}
		for i, want := range map[int]string{0: "history", 1499: "history", 1500: "mine", 1501: "after", 2999: "after", 3099: "after"} {
			if got := replay.At(i); got.Text != want || got.Index != i {
				t.Errorf("event %d: %q (index %d), want %q", i, got.Text, got.Index, want)
			}
		}
		if history[1500].Text != "history" || long.At(1501).Text != "history" {
			t.Fatal("the followed history was written to")
		}
	})

	t.Run("past the history's end", func(t *testing.T) {
		var replay Trace
		replay.Follow(history[:100])
		for i := 0; i < 150; i++ {
			replay.add(ev(i, "replay"))
		}
		if got := replay.At(99).Text; got != "history" {
			t.Errorf("event 99: %q, want the history's", got)
		}
		if got := replay.At(100).Text; got != "replay" {
			t.Errorf("event 100, past the history: %q, want the trace's own", got)
		}
	})
}
