package views

import (
	"strconv"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"

	"domscope/keymap"
	"domscope/themes"
)

// helpView is the bubbles help view in our styles, limited to w cells.
func helpView(st themes.Styles, w int) help.Model {
	h := help.New()
	h.Styles = st.Help
	h.ShortSeparator = "  "
	h.SetWidth(w)
	return h
}

// Hints renders key hints "c click  t type …" at exactly w cells. Hints
// that do not fit are cut from the middle, with an ellipsis. The last two
// (help and quit, in the table's order) always show, as at 80 columns.
func Hints(st themes.Styles, bs []key.Binding, w int) string {
	if len(bs) > 2 && Width(helpView(st, 0).ShortHelpView(bs)) > w {
		tail := helpView(st, 0).ShortHelpView(bs[len(bs)-2:])
		if hw := w - Width(tail) - 2; hw >= 10 {
			return Pad(helpView(st, hw).ShortHelpView(bs[:len(bs)-2])+"  "+tail, w)
		}
	}
	return Pad(helpView(st, w).ShortHelpView(bs), w)
}

// HintLine is the footer's hint line, kept between frames. ShortHelpView
// renders each item through lipgloss: about 60 µs for a footer, five times
// the rest of the footer's cost. Yet the line only changes with the
// bindings shown, the width and the styles.
type HintLine struct {
	key  string
	line string
}

// Render is Hints, computed again only when its input changed.
func (h *HintLine) Render(st themes.Styles, bs []key.Binding, w int) string {
	var b strings.Builder
	b.WriteString(st.Key.Render("k"))
	b.WriteString(st.KeyDesc.Render("d"))
	b.WriteString(strconv.Itoa(w))
	for _, k := range bs {
		hk := k.Help()
		b.WriteString("\x00" + hk.Key + "\x00" + hk.Desc)
	}
	if b.String() != h.key || h.line == "" {
		h.key, h.line = b.String(), Hints(st, bs, w)
	}
	return h.line
}

// helpGap separates help columns.
const helpGap = "    "

// Help lays out the help screen in at most w cells. There is one column
// per key section, then the tier and mark legend. They are packed into as
// many columns as fit side by side, and stacked below when they do not.
// bubbles' FullHelpView renders each key column. It would also place
// columns side by side, but only in one row. It drops those that do not
// fit, at 80 columns most of them. So the packing into rows is done here.
func Help(st themes.Styles, groups []keymap.Group, w int) []string {
	hv := helpView(st, 0)
	var cols [][]string
	for _, g := range groups {
		body := strings.Split(hv.FullHelpView([][]key.Binding{g.Bindings}), "\n")
		cols = append(cols, append([]string{st.Title.Render(g.Title)}, body...))
	}
	cols = append(cols, legend(st, "Tiers (colour and word)", [][3]string{
		{"semantic", "a role that means something", "semantic"},
		{"non-sem.", "no role, but a heuristic fires", "non-semantic"},
		{"struct.", "wrappers, text, documents", "structural"},
		{"hidden", "not visible, dimmed", "hidden"},
	}), legend(st, "Marks", [][3]string{
		{"+ ~", "added / changed (d lists them)", ""},
		{"*", "search match", ""},
		{"keep", "in the flat view", ""},
		{"hoist", "left out, children lifted up", ""},
		{"drop", "left out of the flat view", ""},
		{"scroll 40% ↑↓", "a scroll box: where, what's more", ""},
		{"covered by [N]", "a click would hit [N]", ""},
		{"open modal", "the view starts here", ""},
		{"folded like [N]", "one of a fold's hidden repeats", ""},
	}))
	return packColumns(cols, w)
}

// legend is a help column whose keys are drawn in the style they explain.
func legend(st themes.Styles, title string, rows [][3]string) []string {
	kw := 0
	for _, r := range rows {
		kw = max(kw, Width(r[0]))
	}
	out := []string{st.Title.Render(title)}
	for _, r := range rows {
		k := st.Key
		switch r[2] {
		case "semantic":
			k = st.Semantic
		case "non-semantic":
			k = st.NonSemantic
		case "structural":
			k = st.Structural
		case "hidden":
			k = st.Hidden
		}
		out = append(out, k.Render(r[0])+strings.Repeat(" ", kw-Width(r[0]))+" "+r[1])
	}
	return out
}

// packColumns places columns left to right while they fit in w cells.
// When the next does not fit, it starts a new row after a blank line.
func packColumns(cols [][]string, w int) []string {
	var out, row [][]string
	used := 0
	flush := func() {
		if len(row) == 0 {
			return
		}
		if len(out) > 0 {
			out = append(out, []string{""})
		}
		out = append(out, joinColumns(row))
		row, used = nil, 0
	}
	for _, c := range cols {
		cw := blockWidth(c)
		need := cw
		if len(row) > 0 {
			need += len(helpGap)
		}
		if len(row) > 0 && used+need > w {
			flush()
			need = cw
		}
		row = append(row, c)
		used += need
	}
	flush()
	var lines []string
	for _, b := range out {
		lines = append(lines, b...)
	}
	return lines
}

// joinColumns writes columns side by side, each padded to its own width.
func joinColumns(cols [][]string) []string {
	h := 0
	for _, c := range cols {
		h = max(h, len(c))
	}
	lines := make([]string, h)
	for ci, c := range cols {
		cw := blockWidth(c)
		for i := range h {
			l := ""
			if i < len(c) {
				l = c[i]
			}
			if ci < len(cols)-1 {
				l = Pad(l, cw) + helpGap
			}
			lines[i] += l
		}
	}
	for i := range lines {
		lines[i] = strings.TrimRight(lines[i], " ")
	}
	return lines
}

func blockWidth(lines []string) int {
	w := 0
	for _, l := range lines {
		w = max(w, Width(l))
	}
	return w
}
