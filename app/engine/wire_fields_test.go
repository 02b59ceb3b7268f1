package engine

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"txnlab/core/sim"
)

// TestWireCarriesEveryEventField: the wire's event has a key for every
// field of sim.EventFields, the table every written form of an event
// follows, and no key the table does not know (xn, the flag that a
// text is its note's English, is the wire's own): a field added to
// sim.Event and its table but not to the wire would be lost between the
// worker and the page.
func TestWireCarriesEveryEventField(t *testing.T) {
	var want []string
	for _, f := range sim.EventFields {
		if f.Wire != "" {
			want = append(want, f.Wire)
		}
	}
	want = append(want, "xn")
	var got []string
	rt := reflect.TypeOf(wireEvent{})
	for i := 0; i < rt.NumField(); i++ {
		key, _, _ := strings.Cut(rt.Field(i).Tag.Get("json"), ",")
		got = append(got, key)
	}
	slices.Sort(want)
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("wireEvent's keys %v, sim.EventFields' %v", got, want)
	}
}
