package broker

import (
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"txnlab/core/protocol"
)

// apiFile is a file named after a Kafka API key: 0_produce.go.
var apiFile = regexp.MustCompile(`^(\d+)_([a-z0-9_]+?)(_[a-z0-9]+)?\.go$`)

// snake is Kafka's API name as a file name: FindCoordinator →
// find_coordinator.
func snake(s string) string {
	var b strings.Builder
	for i, r := range s {
		if unicode.IsUpper(r) && i > 0 {
			b.WriteByte('_')
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}

// TestAPIFilesNamedAfterKey keeps the per-API files findable by their
// key: every NN_name.go in the broker and the two coordinators is
// named after the API whose key is NN (a suffix such as _tv2 is allowed),
// starts with a header naming that API and its key, and the broker's own
// APIs each have theirs.
func TestAPIFilesNamedAfterKey(t *testing.T) {
	want := map[string]bool{"0_produce.go": false, "1_fetch.go": false, "10_find_coordinator.go": false, "27_write_txn_markers.go": false}
	for _, dir := range []string{".", "../txncoord", "../groupcoord"} {
		entries, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			m := apiFile.FindStringSubmatch(e.Name())
			if m == nil || strings.HasSuffix(e.Name(), "_test.go") {
				continue
			}
			if dir == "." {
				if _, ok := want[e.Name()]; ok {
					want[e.Name()] = true
				}
			}
			n, _ := strconv.Atoi(m[1])
			key := protocol.APIKey(n)
			name := key.String()
			if got := snake(name); got != m[2] && got != m[2]+m[3] {
				t.Errorf("%s/%s: key %d is %s (%s), not %q", dir, e.Name(), n, name, got, m[2])
			}
			src, err := os.ReadFile(dir + "/" + e.Name())
			if err != nil {
				t.Fatal(err)
			}
			header := regexp.MustCompile(`// ` + name + `( v\d+)? \(key ` + m[1] + `[,)]`)
			if i := strings.Index(string(src), "\nimport"); i < 0 || !header.Match(src[:i]) {
				t.Errorf("%s/%s: no header naming %s (key %s) before the imports", dir, e.Name(), name, m[1])
			}
		}
	}
	for f, seen := range want {
		if !seen {
			t.Errorf("the broker's %s is missing", f)
		}
	}
	// The group coordinator's commit APIs live in their files too.
	for _, f := range []string{"8_offset_commit.go", "9_offset_fetch.go", "28_txn_offset_commit.go"} {
		if _, err := os.Stat("../groupcoord/" + f); err != nil {
			t.Errorf("the group coordinator's %s is missing", f)
		}
	}
}
