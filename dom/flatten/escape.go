package flatten

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// quote writes s in double quotes with Go escapes for quotes, backslashes
// and every control or non-printing character. So a page string can never
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

// jsonUnsafe reports whether r, written raw into JSON output, could do harm.
// It could act on a terminal the output is piped to. It could also hide or
// reorder the text around it. These runes are unsafe:
//   - C0 and C1 controls (U+009B is a one-byte CSI) and DEL.
//   - Format characters (bidi overrides and isolates, zero-width
//     characters, the BOM).
//   - The line and paragraph separators.
//
// Ordinary spaces and letters stay raw.
func jsonUnsafe(r rune) bool {
	return r < 0x20 || (r >= 0x7f && r <= 0x9f) || r == 0x2028 || r == 0x2029 || unicode.Is(unicode.Cf, r)
}

// EscapeJSON rewrites each jsonUnsafe rune (and each invalid UTF-8 byte)
// of encoded JSON as a \uXXXX escape. The bytes then hold none of them,
// and the JSON still decodes to the same strings. Every JSON output goes
// through it. Outside strings valid JSON is ASCII, so only bytes >= 0x7f
// are looked at; the C0 controls inside strings are escaped by any encoder.
func EscapeJSON(b []byte) []byte {
	i := 0
	for i < len(b) && b[i] < 0x7f {
		i++
	}
	if i == len(b) {
		return b
	}
	out := make([]byte, 0, len(b)+32)
	out = append(out, b[:i]...)
	for i < len(b) {
		c := b[i]
		if c < 0x7f {
			out = append(out, c)
			i++
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			out = append(out, `\ufffd`...)
		case jsonUnsafe(r):
			if r > 0xffff {
				r1, r2 := utf16.EncodeRune(r)
				out = appendU(appendU(out, r1), r2)
			} else {
				out = appendU(out, r)
			}
		default:
			out = append(out, b[i:i+size]...)
		}
		i += size
	}
	return out
}

func appendU(b []byte, r rune) []byte {
	const hex = "0123456789abcdef"
	return append(b, '\\', 'u', hex[r>>12&0xf], hex[r>>8&0xf], hex[r>>4&0xf], hex[r&0xf])
}
