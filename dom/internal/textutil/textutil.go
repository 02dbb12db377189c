// Package textutil holds the two text rules every stage of the engine
// shares. White space is collapsed, and long text cut with an ellipsis.
package textutil

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Collapse trims s and turns every run of white space into one space.
func Collapse(s string) string {
	// Most texts are ASCII with single spaces, often with white space
	// around them. Those come back as a part of s, with no copy.
	isSpace := func(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v' }
	i, j := 0, len(s)
	for i < j && isSpace(s[i]) {
		i++
	}
	for j > i && isSpace(s[j-1]) {
		j--
	}
	simple := true
	for k := i; k < j; k++ {
		c := s[k]
		if c >= utf8.RuneSelf || isSpace(c) && (c != ' ' || isSpace(s[k+1])) {
			simple = false
			break
		}
	}
	if simple {
		return s[i:j]
	}
	var b strings.Builder
	b.Grow(len(s))
	space := false
	for _, r := range s {
		if unicode.IsSpace(r) {
			space = b.Len() > 0
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteRune(r)
	}
	return b.String()
}

// Truncate cuts s to at most max runes, the last being an ellipsis.
func Truncate(s string, max int) string {
	if len(s) <= max {
		return s
	}
	n := 0
	for i := range s {
		if n == max-1 {
			if utf8.RuneCountInString(s[i:]) <= 1 {
				return s
			}
			return s[:i] + "…"
		}
		n++
	}
	return s
}
