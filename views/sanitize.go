// Package views renders domscope's panes, bars, prompts and overlays as
// strings. Views read state and never talk to the browser. Every string that
// came from a page goes through Clean before it reaches the terminal.
package views

import (
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// Clean makes a page-controlled string safe and single-line for the
// terminal: escape sequences (CSI, OSC, DCS, ...) are removed, then every
// remaining C0/C1 control, DEL and bidi override is dropped, whitespace runs
// (newlines, tabs) become one space, and invalid UTF-8 becomes U+FFFD.
// ansi.Strip alone is not enough: it keeps raw C0 bytes such as BEL and BS
// and UTF-8 encoded C1 controls such as U+009B (an 8-bit CSI).
func Clean(s string) string {
	if plain(s) {
		return s
	}
	s = ansi.Strip(s)
	var b strings.Builder
	b.Grow(len(s))
	space := true // drops leading spaces
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		switch {
		case r == utf8.RuneError && size <= 1:
			r = '\uFFFD'
		case r == '\t' || r == '\n' || r == '\r' || r == '\f' || r == '\v' || r == '\u2028' || r == '\u2029':
			if !space {
				b.WriteByte(' ')
			}
			space = true
			continue
		case unsafe(r):
			continue
		}
		if r == ' ' {
			if space {
				continue
			}
			space = true
		} else {
			space = false
		}
		b.WriteRune(r)
	}
	return strings.TrimRight(b.String(), " ")
}

// plain reports whether s is printable ASCII with no doubled or edge spaces,
// the common case, so Clean can return it without allocating.
func plain(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c >= 0x7f {
			return false
		}
		if c == ' ' && (i == len(s)-1 || s[i+1] == ' ') {
			return false
		}
	}
	return true
}

// unsafe reports runes that must never reach a terminal: C0 and C1
// controls, DEL, and the invisible direction overrides and isolates that
// can make text render in a different order than it is stored.
func unsafe(r rune) bool {
	switch {
	case r < 0x20, r == 0x7f, r >= 0x80 && r <= 0x9f:
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069, r == 0x200e, r == 0x200f,
		r == 0x061c, r == 0xfeff:
		return true
	}
	return false
}

// Quote cleans s, cuts it to max display cells with an ellipsis, and wraps it in quotes.
func Quote(s string, max int) string {
	return `"` + Trunc(Clean(s), max) + `"`
}

// Trunc cuts an already clean string to at most w display cells
// (grapheme aware), ending in "…" when it was cut.
func Trunc(s string, w int) string {
	if w <= 0 {
		return ""
	}
	if ansi.StringWidth(s) <= w {
		return s
	}
	return ansi.Truncate(s, w, "…")
}

// Width is the display width of s in cells (grapheme aware, ANSI aware).
func Width(s string) int { return ansi.StringWidth(s) }

// Pad cuts or pads s (which may carry styles) to exactly w cells.
func Pad(s string, w int) string {
	sw := ansi.StringWidth(s)
	if sw > w {
		s = ansi.Truncate(s, w, "…")
		sw = ansi.StringWidth(s)
	}
	if sw < w {
		s += strings.Repeat(" ", w-sw)
	}
	return s
}

// stripStyle removes styling from our own (already clean) text, for rows
// restyled as a whole (the selected row).
func stripStyle(s string) string { return ansi.Strip(s) }
