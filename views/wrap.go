package views

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// Wrap breaks s into lines of at most w cells. It breaks at spaces, and
// inside a word longer than a line (a URL, a path) after a slash, else
// where it must. It never breaks at a hyphen: ansi.Wrap does, and split
// a command's flag ("--" on one line, "url" on the next).
func Wrap(s string, w int) []string {
	if w < 1 {
		w = 1
	}
	var out []string
	for _, para := range strings.Split(s, "\n") {
		line, lw := "", 0
		flush := func() {
			out = append(out, line)
			line, lw = "", 0
		}
		for _, word := range strings.Split(para, " ") {
			ww := Width(word)
			if lw > 0 && lw+1+ww <= w {
				line, lw = line+" "+word, lw+1+ww
				continue
			}
			if lw > 0 {
				flush()
			}
			for _, piece := range splitLong(word, w) {
				if lw > 0 {
					flush()
				}
				line, lw = piece, Width(piece)
			}
		}
		flush()
	}
	return out
}

// splitLong cuts a word wider than w after its slashes, and hard where a
// part between slashes is still too wide.
func splitLong(word string, w int) []string {
	if Width(word) <= w {
		return []string{word}
	}
	var out []string
	cur := ""
	for _, part := range strings.SplitAfter(word, "/") {
		if cur != "" && Width(cur)+Width(part) > w {
			out = append(out, cur)
			cur = ""
		}
		cur += part
		for Width(cur) > w {
			out = append(out, ansi.Cut(cur, 0, w))
			cur = ansi.Cut(cur, w, Width(cur))
		}
	}
	if cur != "" || len(out) == 0 {
		out = append(out, cur)
	}
	return out
}
