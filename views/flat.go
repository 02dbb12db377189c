package views

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"domscope/dom"
	"domscope/themes"
)

// FlatLineAt renders one (already clean) line of the flattened view at w
// cells from column x on. It is coloured by the tier of its node (nil for
// none). note is a right-hand annotation such as "◄ selected"; it stays
// at the right edge.
func FlatLineAt(st themes.Styles, line string, n *dom.VirtualNode, w, x int, sel Sel, note string) string {
	if x > 0 {
		line = ansi.Cut(line, x, x+w+1)
	}
	if note != "" {
		note = " " + note
	}
	lw := w - Width(note)
	if lw < 8 {
		note, lw = "", w
	}
	if sel == Focused {
		return st.Selected.Render(Pad(line, lw) + note)
	}
	if sel == Blurred {
		return st.SelectedBlur.Render(Pad(line, lw)) + st.Accent.Render(note)
	}
	body := line
	if n != nil {
		// dim the id prefix, colour the rest by tier
		trim := strings.TrimLeft(line, " ")
		ind := line[:len(line)-len(trim)]
		if strings.HasPrefix(trim, "[") {
			if i := strings.IndexByte(trim, ']'); i > 0 {
				body = ind + st.Dim.Render(trim[:i+1]) + TierInk(st, n.Tier, n.Hidden != "").Render(trim[i+1:])
			}
		} else {
			body = TierInk(st, n.Tier, n.Hidden != "").Render(line)
		}
	} else {
		body = st.Dim.Render(line)
	}
	return Pad(body, lw) + st.Accent.Render(note)
}
