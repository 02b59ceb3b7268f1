package panels

import (
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"txnlab/lessons/doc"
)

// TestNoTransactionsSaysAtThisStep: before a script's transactional
// producer has run, the Transactions tab says there is none at this
// step, not none in the script, in each language.
func TestNoTransactionsSaysAtThisStep(t *testing.T) {
	for lang, want := range map[string]string{"": "No transactional producer at this step.", string(doc.Chinese): "这一步没有事务生产者。"} {
		if got := app.HTMLString(transactionsPanel(lang, Snapshot{})); !strings.Contains(got, want) {
			t.Errorf("%q: the empty Transactions tab reads %s, want %q", lang, got, want)
		}
	}
}
