package scenario

import "testing"

// FuzzParseSettings: `txnlab diff`'s settings never panic the parser, and
// what it accepts renders to text that parses back to the same settings.
func FuzzParseSettings(f *testing.F) {
	for _, s := range []string{"", "kafka=4.0", "kafka=3.6,seed=7", "transaction.version=2 break=epoch-bump",
		"transaction.partition.verification.enable=true", "request.timeout.ms=5s", "break=nothing", "seed=0", "x", "a=b=c", ",,, ,"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		st, err := ParseSettings(s)
		if err != nil {
			return
		}
		text := st.String()
		if text == "(script as written)" {
			text = ""
		}
		back, err := ParseSettings(text)
		if err != nil {
			t.Fatalf("%q rendered as %q, which does not parse: %v", s, text, err)
		}
		if back.String() != st.String() {
			t.Fatalf("%q: %q parses back as %q", s, st.String(), back.String())
		}
	})
}
