package views

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

func TestClean(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Submit", "Submit"},
		{"  two  spaces ", "two spaces"},
		{" lead", "lead"},
		{"line\nbreak\ttab", "line break tab"},
		{"evil\x1b]52;c;SGVsbG8=\x07title", `evil\x1b]52;c;SGVsbG8=\atitle`},
		{"clear\x1b[2Jscreen", `clear\x1b[2Jscreen`},
		{"bell\x07back\x08null\x00", `bell\aback\bnull\x00`},
		{"c1\u009b31mred", `c1\u009b31mred`},
		{"del\x7f", `del\x7f`},
		{"bidi\u202eevil\u202c", `bidi\u202eevil\u202c`},
		{"zero\u200bwidth\ufeffbom", `zero\u200bwidth\ufeffbom`},
		{"line\u2028sep\u00a0nbsp", "line sep nbsp"},
		{"bad\xffutf8", `bad\xffutf8`},
		{"日本語 é ok", "日本語 é ok"},
		{"lone esc\x1b", `lone esc\x1b`},
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

// safe reports whether s could not change the terminal's state nor hide
// or reorder text. It must be valid UTF-8 of printable runes and the
// ASCII space.
func safe(s string) bool {
	if !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		if r != ' ' && !unicode.IsPrint(r) {
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

// Input escapes what a text input holds that would not print as itself.
// It keeps the input's own styling.
func TestInput(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"› plain text", "› plain text"},
		{"› a\u202eb\u2028c\ufeffd", `› a\u202eb\u2028c\ufeffd`},
		{"\x1b[7ma\u200b\x1b[0m rest", "\x1b[7ma\\u200b\x1b[0m rest"},
		{"日本語 e\u0301", "日本語 e\u0301"},
	} {
		if got := Input(tc.in); got != tc.want {
			t.Errorf("Input(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
