package views

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestClean(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Submit", "Submit"},
		{"  two  spaces ", "two spaces"},
		{"line\nbreak\ttab", "line break tab"},
		{"evil\x1b]52;c;SGVsbG8=\x07title", "eviltitle"},
		{"clear\x1b[2Jscreen", "clearscreen"},
		{"bell\x07back\x08null\x00", "bellbacknull"},
		{"c1\u009b31mred", "c131mred"},
		{"osc8\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\", "osc8link"},
		{"del\x7f", "del"},
		{"bidi\u202eevil\u202c", "bidievil"},
		{"bad\xffutf8", "badutf8"},
		{"日本語 é ok", "日本語 é ok"},
		{"lone esc\x1b", "lone esc"},
	}
	for _, tc := range tests {
		if got := Clean(tc.in); got != tc.want {
			t.Errorf("Clean(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestTruncWide(t *testing.T) {
	s := "日本語テキスト"
	got := Trunc(s, 7)
	if w := Width(got); w > 7 {
		t.Errorf("Trunc(%q, 7) = %q, width %d", s, got, w)
	}
	if !strings.HasSuffix(got, "…") {
		t.Errorf("Trunc(%q, 7) = %q, want an ellipsis", s, got)
	}
	if got := Pad("e\u0301x", 4); Width(got) != 4 {
		t.Errorf("Pad with a combining mark: width %d, want 4", Width(got))
	}
}

// safe reports whether s could not change the terminal's state.
func safe(s string) bool {
	if !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		if unsafe(r) {
			return false
		}
	}
	return true
}

func FuzzClean(f *testing.F) {
	for _, s := range []string{"a\x1b[2Jb", "\x1b]52;c;x\x07", "\u009b1m", "\x1bP+q\x1b\\", "日本\u0301", "\x00\r\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := Clean(s)
		if !safe(got) {
			t.Fatalf("Clean(%q) = %q still has a control character", s, got)
		}
		if Clean(got) != got {
			t.Fatalf("Clean is not idempotent on %q: %q then %q", s, got, Clean(got))
		}
	})
}
