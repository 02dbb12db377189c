package dom

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// quote writes s in double quotes with Go escapes for quotes, backslashes
// and every control or non-printing character, so a page string can never
// break a line or carry a terminal escape sequence.
func quote(s string) string {
	if safeRun(s, true) {
		return `"` + s + `"`
	}
	return strconv.Quote(s)
}

// escapeLine escapes control and non-printing characters (and backslashes)
// but adds no quotes.
func escapeLine(s string) string {
	if safeRun(s, false) {
		return s
	}
	q := strconv.Quote(s)
	q = q[1 : len(q)-1]
	return strings.ReplaceAll(q, `\"`, `"`)
}

// safeRun reports whether s needs no escaping.
func safeRun(s string, quoted bool) bool {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c < 0x20 || c == 0x7f || c == '\\' || (quoted && c == '"') {
				return false
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError || !unicode.IsPrint(r) {
			return false
		}
		i += size
	}
	return true
}
