// Package views renders domscope's panes, bars, prompts and overlays as
// strings. Views read state and never talk to the browser. Every string
// from a page goes through Clean before it reaches the terminal.
package views

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// Clean makes a page-controlled string safe and single-line for the
// terminal. Runs of white space (newlines, tabs, U+2028, no-break spaces)
// become one space. Every other rune that does not print as itself is
// written as its Go escape, as the flat view writes it. ESC becomes \x1b,
// a bidi override \u202e, a zero-width space \u200b, an invalid byte
// \xff. So escape sequences and C0/C1 controls cannot act on the
// terminal. Text cannot hide or reorder what is around it. Yet the user
// sees what the page holds.
func Clean(s string) string {
	if plain(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	space := true // drops leading spaces
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			b.WriteString(`\x`)
			b.WriteString(strconv.FormatUint(uint64(s[i])|0x100, 16)[1:])
			space = false
		case unicode.IsSpace(r):
			if !space {
				b.WriteByte(' ')
			}
			space = true
		case !unicode.IsPrint(r):
			writeEscape(&b, r)
			space = false
		default:
			b.WriteString(s[i : i+size])
			space = false
		}
		i += size
	}
	return strings.TrimRight(b.String(), " ")
}

// writeEscape writes r as strconv.Quote writes it inside quotes, as the
// flat view escapes: \x1b, \a, \u200b, \U000e0041.
func writeEscape(b *strings.Builder, r rune) {
	q := strconv.QuoteRune(r)
	b.WriteString(q[1 : len(q)-1])
}

// Input is a text input's rendered line, with every rune that does not
// print as itself written as Clean writes it (a bidi override, a
// zero-width space, U+2028). The input's own styling stays. The value
// itself is untouched, so a prompt() answered as it came gets the page's
// own text. bubbles keeps control characters out of an input's value. So
// every escape sequence in the line is the input's own.
func Input(line string) string {
	clean := true
	for _, r := range line {
		if r != 0x1b && r != ' ' && !unicode.IsPrint(r) {
			clean = false
			break
		}
	}
	if clean {
		return line
	}
	var b strings.Builder
	b.Grow(len(line) + 16)
	var state byte
	for len(line) > 0 {
		seq, _, n, next := ansi.DecodeSequence(line, state, nil)
		state = next
		if n <= 0 {
			n, seq = 1, line[:1]
		}
		if seq[0] == 0x1b {
			b.WriteString(seq)
		} else {
			for _, r := range seq {
				if r == ' ' || unicode.IsPrint(r) {
					b.WriteRune(r)
				} else {
					writeEscape(&b, r)
				}
			}
		}
		line = line[n:]
	}
	return b.String()
}

// plain reports whether s is printable ASCII with no doubled or edge
// spaces. That is the common case, so Clean can return it without
// allocating.
func plain(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c >= 0x7f {
			return false
		}
		if c == ' ' && (i == 0 || i == len(s)-1 || s[i+1] == ' ') {
			return false
		}
	}
	return true
}

// Quote cleans s and cuts it to max display cells with an ellipsis. Then
// it wraps it in quotes.
func Quote(s string, max int) string {
	return `"` + Trunc(Clean(s), max) + `"`
}

// Trunc cuts an already clean string to at most w display cells
// (grapheme aware). It ends in "…" when it was cut.
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

// stripStyle removes styling from our own (already clean) text. It is for
// rows restyled as a whole, such as the selected row.
func stripStyle(s string) string { return ansi.Strip(s) }
