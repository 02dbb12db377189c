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
// at the right edge. A selected line too long for the pane loses its
// middle, not its end: the end is where a typed value shows.
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
	if sel != NotSelected && x == 0 {
		line = KeepEnd(line, lw)
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

// KeepEnd fits an already clean line into w cells by cutting its middle.
// The tail starts at a word where it can, so an attribute shows whole:
// `[72] textbox "Email" type=em… required value="a@b.co"`.
func KeepEnd(line string, w int) string {
	lw := Width(line)
	if lw <= w || w < 12 {
		return line
	}
	tw := w / 2
	tail := ansi.TruncateLeft(line, lw-tw, "")
	// the longest run of whole words that fits half; else the shortest
	// that leaves the head a third
	short, long := "", ""
	for i := len(line) - 1; i > 0; i-- {
		if line[i-1] != ' ' || line[i] == ' ' {
			continue
		}
		tw2 := Width(line[i:])
		if tw2 <= tw {
			short = line[i:]
		} else {
			if tw2 <= w-w/3-1 {
				long = line[i:]
			}
			break
		}
	}
	switch {
	case short != "" && Width(short) >= tw/3:
		tail = short
	case long != "":
		tail = long
	case short != "":
		tail = short
	}
	return ansi.Truncate(line, w-Width(tail)-1, "…") + " " + tail
}
