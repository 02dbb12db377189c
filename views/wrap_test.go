package views

import (
	"strings"
	"testing"
)

// A replay command wraps between its words, never inside a flag. A path
// longer than a line breaks after a slash.
func TestWrapKeepsFlagsWhole(t *testing.T) {
	cmd := "replay it with: domscope run --launch --demo --url / /root/.local/state/domscope/domscope-127.0.0.1-33411-20261207-052110.script"
	for w := 20; w <= 80; w++ {
		lines := Wrap(cmd, w)
		for _, l := range lines {
			if Width(l) > w {
				t.Errorf("w=%d: line %q is %d wide", w, l, Width(l))
			}
		}
		for _, f := range []string{"--launch", "--demo", "--url"} {
			whole := false
			for _, l := range lines {
				whole = whole || strings.Contains(" "+l+" ", " "+f+" ")
			}
			if !whole {
				t.Errorf("w=%d: %s is split: %q", w, f, lines)
			}
		}
		if got := strings.Join(lines, ""); strings.ReplaceAll(got, " ", "") != strings.ReplaceAll(cmd, " ", "") {
			t.Errorf("w=%d: text lost: %q", w, lines)
		}
	}
	if got := Wrap("a/very/long/path/name", 8); strings.Join(got, "|") != "a/very/|long/|path/|name" {
		t.Errorf("path wrap = %q", got)
	}
	if got := Wrap("abcdefghij", 4); strings.Join(got, "|") != "abcd|efgh|ij" {
		t.Errorf("hard wrap = %q", got)
	}
}
