package dom_test

import (
	"slices"
	"testing"

	"domscope/dom"
)

// TestCleanSecretsSqueezed: a secret's squeezed form, as an accessible
// name holds it, is a secret too. Empty, blank and Mask are dropped.
func TestCleanSecretsSqueezed(t *testing.T) {
	got := dom.CleanSecrets([]string{" SPACED  SECRET\t1121 ", "", "  ", dom.Mask, "plain", "plain"})
	want := []string{" SPACED  SECRET\t1121 ", "plain", "SPACED SECRET 1121"}
	if !slices.Equal(got, want) {
		t.Errorf("CleanSecrets = %q, want %q", got, want)
	}
	name := "Spaced SPACED SECRET 1121"
	for _, s := range got {
		name = dom.ScrubString(name, s)
	}
	if name != "Spaced " {
		t.Errorf("a squeezed secret stayed in a name: %q", name)
	}
}
