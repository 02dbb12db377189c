package textutil

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzCollapse checks Collapse, and its no-copy path for plain ASCII,
// against the definition: the words of s, one space between.
func FuzzCollapse(f *testing.F) {
	for _, s := range []string{"", " ", "a", " a ", "a  b", "a\tb", "\n  Sign in \n", "a b c", "x\u00a0y", " é  ", "a \n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8.ValidString(s) {
			return // the rune loop writes U+FFFD for a broken byte
		}
		if got, want := Collapse(s), strings.Join(strings.Fields(s), " "); got != want {
			t.Errorf("Collapse(%q) = %q, want %q", s, got, want)
		}
	})
}
