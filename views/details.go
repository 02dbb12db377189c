package views

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"domscope/dom"
	"domscope/themes"
)

// DetailsData is what the details pane shows about the selection.
type DetailsData struct {
	Node     *dom.VirtualNode
	Decision dom.Decision
	Decided  bool
	// IntoName describes the node a hoisted/dropped node's children went to.
	IntoName string
	Frame    string // frame URL or "main"
	Last     *dom.ActionResult
	LastDesc string // what the last action was: `type "a@b.c\n" on node_6`
	Changes  string // "+3 added ~1 renamed −2 removed (d lists them)"
	ReadOnly string // non-empty for a saved capture: its file
	Origin   string // the page's "scheme://host", dropped from its own requests' URLs
}

// Details renders the details pane body (up to h lines of w cells).
func Details(st themes.Styles, d DetailsData, w, h int) []string {
	var lines []string
	add := func(s string) { lines = append(lines, s) }
	n := d.Node
	if n == nil {
		add(st.Dim.Render("no node selected"))
	} else {
		tag, hints, name, badges := label(n)
		l1 := st.Bold.Render(n.ID) + " · " + TierInk(st, n.Tier, n.Hidden != "").Render(tag) + hints
		if t := n.Attr("type"); t != "" {
			l1 += " type=" + Trunc(Clean(t), 20)
		}
		if n.Role != "" {
			l1 += " · role " + Trunc(Clean(n.Role), 24)
		}
		if name != "" {
			l1 += " · " + name
		}
		if badges != "" {
			l1 += " " + st.Badge.Render(badges)
		}
		add(l1)

		why := n.Why
		if why == "" {
			why = "no rule"
		}
		l2 := "tier " + TierInk(st, n.Tier, false).Render(TierLabel(&dom.VirtualNode{Tier: n.Tier})) + " (" + Clean(why) + ")"
		if n.Hidden != "" {
			l2 += " · " + st.Hidden.Render("hidden: "+Clean(n.Hidden))
		}
		if d.Decided {
			l2 += " · flatten: " + decision(st, d)
		}
		add(l2)

		add("attrs " + attrs(n, w))

		var facts []string
		if s := states(n); s != "" {
			facts = append(facts, "states "+s)
		}
		b := n.Bounds
		facts = append(facts, fmt.Sprintf("box %.0f,%.0f %.0f×%.0f", b.X, b.Y, b.W, b.H))
		if !n.InViewport && n.Hidden == "" && n.NodeType == dom.ElementNode {
			facts = append(facts, "offscreen")
		}
		facts = append(facts, fmt.Sprintf("backend %d", n.BackendID))
		frame := d.Frame
		if frame == "" {
			frame = "main"
		}
		facts = append(facts, "frame "+Trunc(Clean(frame), 40))
		add(st.Dim.Render(strings.Join(facts, " · ")))
	}
	if d.ReadOnly != "" {
		add(st.Warn.Render("saved capture " + Clean(d.ReadOnly) + " · no browser: actions are disabled"))
	}
	if d.Last != nil {
		add(LastAction(st, d.LastDesc, d.Last))
		for _, l := range HappenedLines(d.Last) {
			add(st.Dim.Render(Clean(l)))
		}
		if len(d.Last.Network) > 0 {
			// The node's lines past its first give way to what the action
			// sent (fitDetails drops them). Count only those that stay.
			used := len(lines)
			if n != nil {
				used -= nodeLines - 1
			}
			room := max(1, networkRoom(h, used, d.Changes != ""))
			lines = append(lines, NetworkLines(st, d.Last.Network, d.Origin, w, room)...)
		}
	}
	if d.Changes != "" {
		add(d.Changes)
	}
	lines = fitDetails(lines, n != nil, h)
	out := make([]string, 0, h)
	for i := 0; i < len(lines) && i < h; i++ {
		out = append(out, Pad(lines[i], w))
	}
	return out
}

func decision(st themes.Styles, d DetailsData) string {
	k := d.Decision.Kind
	rule := Clean(d.Decision.Rule)
	switch k {
	case dom.Keep:
		return st.OK.Render("keep") + " (" + rule + ")"
	case dom.Hoist:
		s := st.Warn.Render("hoisted") + " (" + rule + ")"
		if d.Decision.Into != "" {
			s += ", its children went to " + d.IntoName
		}
		return s
	default:
		s := st.Error.Render("dropped") + " (" + rule + ")"
		if d.Decision.Into != "" {
			s += ", would sit under " + d.IntoName
		}
		return s
	}
}

func attrs(n *dom.VirtualNode, w int) string {
	if len(n.Attrs) == 0 {
		return "—"
	}
	keys := make([]string, 0, len(n.Attrs))
	for k := range n.Attrs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for i, k := range keys {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(Trunc(Clean(k), 30) + "=" + Quote(n.Attrs[k], 40))
		if b.Len() > w*2 {
			break
		}
	}
	return b.String()
}

func states(n *dom.VirtualNode) string {
	if len(n.States) == 0 {
		return ""
	}
	keys := make([]string, 0, len(n.States))
	for k := range n.States {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, 0, len(keys))
	for _, k := range keys {
		v := n.States[k]
		if v == "" || v == "true" {
			parts = append(parts, Clean(k))
		} else {
			parts = append(parts, Clean(k)+"="+Trunc(Clean(v), 20))
		}
	}
	return strings.Join(parts, ", ")
}

// LastAction is the one-line summary of an action result.
func LastAction(st themes.Styles, desc string, r *dom.ActionResult) string {
	s := "last action: " + desc + " → "
	if r.Effect != "" {
		s = "last action: " + st.Accent.Render(strings.ReplaceAll(string(r.Effect), "_", " ")) + " · " + desc + " → "
	}
	if r.Success {
		s += st.OK.Render("ok")
	} else if r.Error != nil {
		s += st.Error.Render(string(r.Error.Code)) + " " + Clean(r.Error.Message)
	} else {
		s += st.Error.Render("failed")
	}
	s += " · " + Millis(r.Duration)
	if r.SnapshotInvalidated {
		s += " · snapshot invalidated"
	}
	if r.Changes.Navigated {
		s += " · navigated"
		if r.Changes.NewURL != "" {
			s += " to " + Trunc(Clean(r.Changes.NewURL), 60)
		}
	} else {
		s += " · navigated: no"
	}
	if r.Dialog != nil {
		s += " · " + st.Warn.Render("dialog open")
	}
	return s
}

// Millis formats a duration for people: "143 ms", "2.1 s".
func Millis(d time.Duration) string {
	if d < time.Second {
		return fmt.Sprintf("%d ms", d.Milliseconds())
	}
	return fmt.Sprintf("%.1f s", d.Seconds())
}

// nodeLines is how many lines Details writes about a node.
const nodeLines = 4

// fitDetails makes room in a short pane (80×24) for what follows the
// node's lines: the last action and the changes. They say what just
// happened. So the node's attrs give way first. Then its box and ids go,
// then its tier line.
func fitDetails(lines []string, hasNode bool, h int) []string {
	if !hasNode || len(lines) <= h || len(lines) <= nodeLines {
		return lines
	}
	drop := map[int]bool{}
	for _, i := range []int{2, 3, 1} {
		if len(lines)-len(drop) <= h {
			break
		}
		drop[i] = true
	}
	out := make([]string, 0, len(lines)-len(drop))
	for i, l := range lines {
		if !drop[i] {
			out = append(out, l)
		}
	}
	return out
}

// HappenedLines say what an action's verdict rests on besides its diff:
// what flashed, what the last action did late, the errors seen.
func HappenedLines(r *dom.ActionResult) []string {
	var out []string
	flashes := func(fs []dom.Flash) string {
		var parts []string
		for _, f := range fs {
			parts = append(parts, strings.TrimSpace(f.Role+" "+strconv.Quote(Trunc(f.Text, 60)))+fmt.Sprintf(" (%.1f s)", f.Ms/1000))
		}
		return strings.Join(parts, ", ")
	}
	if l := r.Later; l != nil {
		s := fmt.Sprintf("since the last action (%.1f s after it): %d lines changed", l.AfterMs/1000, len(l.Flat)+l.FlatMore)
		if len(l.Flashed) > 0 {
			s += "; flashed " + flashes(l.Flashed)
		}
		out = append(out, s)
	}
	if len(r.Flashed) > 0 {
		out = append(out, "flashed: "+flashes(r.Flashed))
	}
	if len(r.ErrorsSeen) > 0 {
		out = append(out, "errors seen: "+strings.Join(r.ErrorsSeen, "; "))
	}
	return out
}
