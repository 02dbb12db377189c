package main

import (
	"errors"
	"strings"
	"testing"
)

// An error line carrying a page's title must not carry its escape
// sequences: not the ESC byte, and not the "[31m" a naive filter leaves.
func TestErrorLineIsSanitized(t *testing.T) {
	err := errors.New("no element in \x1b[31mEvil\x1b[0m \u009b2J title\nsecond line \u202eevil")
	got := errorLine(err)
	for _, bad := range []string{"\x1b", "[31m", "[0m", "\u009b", "\n", "\u202e"} {
		if strings.Contains(got, bad) {
			t.Errorf("error line %q holds %q", got, bad)
		}
	}
	if !strings.Contains(got, "Evil") || !strings.Contains(got, "second line") {
		t.Errorf("error line lost its text: %q", got)
	}
}
