package views

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"domscope/themes"
)

// Box frames body lines in a w×h box with a title on the top border (and
// an optional right-hand title). Every returned line is exactly w cells.
// Lines are padded and cut here, one by one, with ansi-aware width.
// Giving lipgloss a width for a whole block is what makes big frames slow.
func Box(st themes.Styles, title, right string, body []string, w, h int, focused bool) []string {
	if w < 4 || h < 2 {
		out := make([]string, max(h, 0))
		for i := range out {
			out[i] = strings.Repeat(" ", max(w, 0))
		}
		return out
	}
	bs := st.BorderStyle
	ts := st.DimBold
	if focused {
		bs = st.Accent
		ts = st.Title
	}
	inner := w - 2
	t := ""
	if title != "" {
		t = " " + Trunc(title, max(inner-4, 1)) + " "
	}
	rt := ""
	if avail := w - 3 - Width(t) - 2; right != "" && avail > 3 {
		rt = " " + Trunc(right, avail) + " "
	}
	fill := max(w-3-Width(t)-Width(rt), 0)
	out := make([]string, 0, h)
	out = append(out, bs.Render("┌")+ts.Render(t)+bs.Render(strings.Repeat("─", fill))+ts.Render(rt)+bs.Render("─┐"))
	side := bs.Render("│")
	for i := 0; i < h-2; i++ {
		l := ""
		if i < len(body) {
			l = body[i]
		}
		out = append(out, side+Pad(l, inner)+side)
	}
	out = append(out, bs.Render("└"+strings.Repeat("─", inner)+"┘"))
	return out
}

// SideBySide joins two equally tall column blocks line by line.
func SideBySide(left, right []string) []string {
	n := max(len(left), len(right))
	out := make([]string, n)
	for i := range n {
		var l, r string
		if i < len(left) {
			l = left[i]
		}
		if i < len(right) {
			r = right[i]
		}
		out[i] = l + r
	}
	return out
}

// Place draws box (lines of equal width) over bg (lines of width w). Its
// top left corner goes at column x of line y. It changes bg's lines in
// place.
func Place(bg, box []string, x, y, w int) []string {
	if len(box) == 0 {
		return bg
	}
	bw := Width(box[0])
	for i, l := range box {
		if y+i < 0 || y+i >= len(bg) {
			continue
		}
		row := bg[y+i]
		bg[y+i] = ansi.Cut(row, 0, x) + l + ansi.Cut(row, x+bw, w)
	}
	return bg
}
