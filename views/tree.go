package views

import (
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"domscope/dom"
	"domscope/themes"
)

// Sel says how a row is selected.
type Sel int

// Row selection states.
const (
	NotSelected Sel = iota
	Focused         // the cursor, in the pane that has the keyboard
	Blurred         // the counterpart, in the other pane
)

// Mark is a change since the previous snapshot.
type Mark byte

// Change marks.
const (
	Unchanged Mark = 0
	Added     Mark = '+'
	Renamed   Mark = '~'
)

// TreeRow is what the tree pane knows about one visible row.
type TreeRow struct {
	Node     *dom.VirtualNode
	Depth    int
	Open     bool
	Mark     Mark
	Match    bool // a search hit
	Decision dom.Decision
	Decided  bool // Decision is set (a flatten result exists)
	Marks    TreeMarks
}

// TreeMarks are what the engine's flat view says of a node besides its
// tier and decision (flatten.View's Marks and Scrolls). The model hands
// them over; the row only draws them.
type TreeMarks struct {
	Scroll     string // where a scroll container stands: "scroll 40% ↑↓"
	CoveredBy  string // the ID of the element drawn over this control
	Modal      bool   // the open modal dialog the view starts with
	FoldedLike string // a folded item: the ID of the first of its run
}

// parts are the marks as plain words and styled, in the order drawn.
func (m TreeMarks) parts(st themes.Styles) (plain, styled string) {
	add := func(w string, ink themes.Ink) {
		if plain != "" {
			plain += " "
			styled += " "
		}
		plain += w
		styled += ink.Render(w)
	}
	if m.Modal {
		add("open modal", st.ModalMark)
	}
	if m.CoveredBy != "" {
		add("covered by ["+Clean(shortID(m.CoveredBy))+"]", st.CoveredMark)
	}
	if m.Scroll != "" {
		add(Clean(m.Scroll), st.ScrollMark)
	}
	if m.FoldedLike != "" {
		add("folded like ["+Clean(shortID(m.FoldedLike))+"]", st.FoldMark)
	}
	return plain, styled
}

// shortID is an ID as the text format writes it: node_12 → 12.
func shortID(id string) string { return strings.TrimPrefix(id, "node_") }

// withMarks ends a row's left part with its marks. When they do not fit,
// the description is cut first: the marks are what the row has to say.
func withMarks(prefix, body string, plainMarks, marks string, w int) string {
	if plainMarks == "" {
		return prefix + body
	}
	room := w - Width(prefix) - 1 - Width(plainMarks)
	if room < 4 {
		// too narrow for both: the marks win, the tag stays readable
		return Pad(prefix+body, max(w-1-Width(plainMarks), Width(prefix)+4)) + " " + marks
	}
	if Width(body) > room {
		body = ansi.Truncate(body, room, "…")
	}
	return prefix + body + " " + marks
}

// TierLabel is the tier written out. So colour is never the only signal.
func TierLabel(n *dom.VirtualNode) string {
	if n.Hidden != "" {
		return "hidden"
	}
	switch n.Tier {
	case dom.Semantic:
		return "semantic"
	case dom.NonSemantic:
		return "non-sem."
	}
	return "struct."
}

// TreeLine renders one row of the tree pane at exactly w cells.
func TreeLine(st themes.Styles, r TreeRow, w int, sel Sel) string {
	n := r.Node
	mark := " "
	if r.Mark != Unchanged {
		mark = string(r.Mark)
	}
	if r.Match {
		mark = "*"
		if r.Mark != Unchanged {
			mark = string(r.Mark)
		}
	}
	indent := r.Depth * 2
	depthTag := ""
	if maxIndent := w / 3; indent > maxIndent {
		depthTag = "⋯" + strconv.Itoa(r.Depth) + " "
		indent = max(maxIndent-Width(depthTag), 0)
	}
	arrow := "  "
	if len(n.Children) > 0 {
		if r.Open {
			arrow = "▾ "
		} else {
			arrow = "▸ "
		}
	}
	tag, hints, name, badges := label(n)
	if n.Role != "" && n.Tier == dom.Semantic && !strings.EqualFold(n.Role, n.Tag) {
		role := "role=" + Trunc(Clean(n.Role), 20)
		if badges == "" {
			badges = role
		} else {
			badges = role + " " + badges
		}
	}

	right := ""
	if w >= 50 {
		dec := ""
		if r.Decided {
			dec = r.Decision.Kind.String()
		}
		right = padRight(dec, 5) + " " + padRight(TierLabel(n), 8)
	} else if w >= 20 {
		right = " " + tierCode(n)
	}
	leftW := w - Width(right)
	if right != "" {
		leftW-- // keep a gap before the right column
	}
	prefix := mark + " " + strings.Repeat(" ", indent) + depthTag + arrow

	if sel != NotSelected {
		if sel == Focused {
			prefix = "▶" + prefix[len(mark):]
		} else {
			prefix = "▷" + prefix[len(mark):]
		}
		plain := tag + hints
		if name != "" {
			plain += " " + name
		}
		if badges != "" {
			plain += " " + badges
		}
		pm, _ := r.Marks.parts(st)
		line := Pad(withMarks(prefix, plain, pm, pm, leftW), leftW) + gap(right) + right
		if sel == Focused {
			return st.Selected.Render(line)
		}
		return st.SelectedBlur.Render(line)
	}

	ts := TierInk(st, n.Tier, n.Hidden != "")
	var b strings.Builder
	switch r.Mark {
	case Added:
		b.WriteString(st.Added.Render(mark))
	case Renamed:
		b.WriteString(st.Renamed.Render(mark))
	default:
		if r.Match {
			b.WriteString(st.Warn.Render(mark))
		} else {
			b.WriteString(mark)
		}
	}
	b.WriteString(" ")
	b.WriteString(strings.Repeat(" ", indent))
	b.WriteString(st.Dim.Render(depthTag + arrow))
	body := ts.Render(tag) + st.Dim.Render(hints)
	if name != "" {
		if n.Hidden != "" {
			body += " " + st.Hidden.Render(name)
		} else {
			body += " " + name
		}
	}
	if badges != "" {
		body += " " + st.Badge.Render(badges)
	}
	if r.Match {
		body = st.Match.Render(body)
	}
	pm, sm := r.Marks.parts(st)
	line := Pad(withMarks(b.String(), body, pm, sm, leftW), leftW) + gap(right)
	if right != "" {
		decStyle := st.Dim
		if r.Decided && r.Decision.Kind == dom.Keep {
			decStyle = st.OK
		}
		if len(right) > 8 {
			line += decStyle.Render(right[:6]) + ts.Render(right[6:])
		} else {
			line += ts.Render(right)
		}
	}
	return line
}

func tierCode(n *dom.VirtualNode) string {
	if n.Hidden != "" {
		return "h"
	}
	switch n.Tier {
	case dom.Semantic:
		return "S"
	case dom.NonSemantic:
		return "N"
	}
	return "·"
}

func padRight(s string, w int) string {
	if d := w - Width(s); d > 0 {
		return s + strings.Repeat(" ", d)
	}
	return s
}

// label splits a node's one-line description into its parts. They are the
// tag, #id/.class hints, the quoted name, and badges for shadow roots,
// frames and hidden nodes. All page-controlled parts are cleaned.
func label(n *dom.VirtualNode) (tag, hints, name, badges string) {
	tag = Clean(n.Tag)
	switch n.NodeType {
	case dom.TextNode:
		return "#text", "", Quote(n.Text, 80), ""
	case dom.CommentNode:
		return "#comment", "", "", ""
	}
	if id := n.Attr("id"); id != "" {
		hints += "#" + Trunc(Clean(id), 24)
	}
	if cls := strings.Fields(n.Attr("class")); len(cls) > 0 {
		for i, c := range cls {
			if i == 2 {
				hints += "…"
				break
			}
			hints += "." + Trunc(Clean(c), 20)
		}
	}
	if n.Name != "" && n.Tag != "#document" {
		name = Quote(n.Name, 60)
	}
	var bs []string
	switch {
	case n.Tag == "#shadow-root":
		st := n.ShadowType
		if st == "" {
			st = "open"
		}
		bs = append(bs, "[shadow:"+Clean(st)+"]")
	case n.Tag == "iframe" || n.Tag == "frame":
		bs = append(bs, "[frame]")
	case n.Tag == "#document" && n.Parent != nil:
		bs = append(bs, "[frame doc]")
	}
	if n.Hidden != "" && (n.Parent == nil || n.Parent.Hidden == "") {
		bs = append(bs, "("+Trunc(Clean(n.Hidden), 20)+")")
	}
	return tag, hints, name, strings.Join(bs, " ")
}

func gap(right string) string {
	if right == "" {
		return ""
	}
	return " "
}
