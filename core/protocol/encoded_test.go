package protocol

import (
	"reflect"
	"testing"
)

// stored is an Encoded message as the playground's page keeps one: it
// stands for msg without being it.
type stored struct{ msg Message }

func (s stored) APIKey() APIKey   { return s.msg.APIKey() }
func (s stored) IsResponse() bool { return s.msg.IsResponse() }
func (s stored) Summary() string  { return s.msg.Summary() }
func (s stored) Decode() Message  { return s.msg }

// TestEncodedReadsAsItsMessage: every reader of a message's fields in
// this package answers for an Encoded message what it answers for the
// message it stands for, for a message of every type.
func TestEncodedReadsAsItsMessage(t *testing.T) {
	for _, m := range sampleMessages() {
		e := stored{m}
		if Decoded(e) != m || Decoded(m) != m {
			t.Errorf("%T: Decoded does not give the message", m)
		}
		if VersionOf(e) != VersionOf(m) || Error(e) != Error(m) || SummaryIn(e, nil) != SummaryIn(m, nil) {
			t.Errorf("%T: version, error or summary differ when encoded", m)
		}
		if !reflect.DeepEqual(MessageFields(e), MessageFields(m)) {
			t.Errorf("%T: fields differ when encoded", m)
		}
		var names []string
		matchFields(m, func(n string, _ FieldValue) { names = append(names, n) })
		for _, n := range names {
			if !reflect.DeepEqual(FieldValues(e, n), FieldValues(m, n)) {
				t.Errorf("%T: field %s differs when encoded", m, n)
			}
		}
	}
}
