package tui

import (
	"fmt"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"

	"domscope/dom"
	"domscope/dom/flatten"
	"domscope/keymap"
	"domscope/views"
)

// diffLayer lists what changed between the last two snapshots. Choosing a
// node jumps to it.
type diffLayer struct{ list }

// newDiffLayer lists the changes. last is the last action's result; its
// requests are listed too.
func newDiffLayer(x *layerCtx, last *dom.ActionResult) *diffLayer {
	o := &diffLayer{list{title: "Changes since the previous snapshot", foot: "enter jumps to the node · esc close"}}
	if x.doc.newDoc {
		o.header("The page is a new document (navigation or reload): every node is new.")
		o.network(x, last)
		return o
	}
	if !x.doc.hasDiff {
		o.header("No previous snapshot of this tab to compare with yet.")
		o.network(x, last)
		return o
	}
	d := x.doc.diff
	o.header(fmt.Sprintf("Added (%d)", len(d.Added)))
	for _, id := range d.Added {
		o.add(x.st.Added.Render("+ ")+x.nodeName(id), id)
	}
	o.header(fmt.Sprintf("Renamed (%d)", len(d.Renamed)))
	for _, id := range d.Renamed {
		was := ""
		if name, ok := x.doc.before.names[id]; ok {
			was = " (was " + views.Quote(name, 30) + ")"
		}
		o.add(x.st.Renamed.Render("~ ")+x.nodeName(id)+x.st.Dim.Render(was), id)
	}
	changed := 0
	for _, c := range d.Changed {
		if c.Kind != "name" { // the renamed list has those
			changed++
		}
	}
	o.header(fmt.Sprintf("Changed: states, visibility, moves (%d)", changed))
	for _, c := range d.Changed {
		if c.Kind != "name" {
			o.add(x.st.Renamed.Render("~ ")+x.nodeName(c.ID)+" "+x.st.Dim.Render(changeText(c)), c.ID)
		}
	}
	o.header(fmt.Sprintf("Removed (%d)", len(d.Removed)))
	for _, id := range d.Removed {
		name := id
		if p, ok := x.doc.before.removed[id]; ok {
			name = id + " " + views.Clean(p.tag)
			if p.name != "" {
				name += " " + views.Quote(p.name, 30)
			}
		}
		o.add(x.st.Removed.Render("- ")+name, "")
	}
	var lines []string
	if x.doc.before.had && x.doc.view != nil {
		lines = flatten.LineDiff(x.doc.before.text, x.doc.view.Text)
	}
	o.header(fmt.Sprintf("What the LLM reads differently: the flat view's lines (%d)", len(lines)))
	if !sameSet(x.doc.before.off, x.doc.flatOpts.Disabled) {
		o.add(x.st.Dim.Render("(the flattening rules changed since the previous snapshot: some lines differ by that)"), "")
	}
	for _, l := range lines {
		st := x.st.Added
		if strings.HasPrefix(l, "- ") {
			st = x.st.Removed
		}
		o.add(st.Render(views.Clean(l)), "")
	}
	o.network(x, last)
	o.first()
	return o
}

func sameSet(a, b map[string]bool) bool {
	for k, v := range a {
		if v != b[k] {
			return false
		}
	}
	for k, v := range b {
		if v != a[k] {
			return false
		}
	}
	return true
}

// changeText says what changed, in a few words. Examples:
// `checked: false → true`, `shown (was display:none)`,
// `moved from node_3 to node_9`.
func changeText(c dom.Change) string {
	q := func(v string) string {
		if v == "" {
			return "unset"
		}
		return views.Quote(v, 30)
	}
	switch c.Kind {
	case "state":
		return c.What + ": " + q(c.From) + " → " + q(c.To)
	case "shown":
		return "shown (was " + c.What + ")"
	case "hidden":
		return "hidden (" + c.What + ")"
	case "moved":
		return "moved from " + c.From + " to " + c.To
	}
	return c.Kind
}

func (o *diffLayer) handle(x *layerCtx, c keymap.Command, msg tea.Msg) (action, bool) {
	if c == keymap.Accept {
		return jumpTo{o.key()}, true
	}
	return o.common(x, o, c, msg)
}

func (o *diffLayer) render(x *layerCtx, s screen) drawn { return o.draw(x, s) }

// changeNotes says per node what changed, in the words d lists it under:
// "~ renamed" for a name, the state's name for a state ("~ focused,
// value"), "shown", "hidden" or "moved". A focus change is not a rename.
func changeNotes(d flatten.SnapshotDiff) map[string]string {
	whats := make(map[string][]string, len(d.Renamed)+len(d.Changed))
	add := func(id, w string) {
		if !slices.Contains(whats[id], w) {
			whats[id] = append(whats[id], w)
		}
	}
	for _, id := range d.Renamed {
		add(id, "renamed")
	}
	for _, c := range d.Changed {
		switch c.Kind {
		case "name":
			add(c.ID, "renamed")
		case "state":
			add(c.ID, views.Clean(c.What))
		default:
			add(c.ID, c.Kind)
		}
	}
	notes := make(map[string]string, len(whats))
	for id, ws := range whats {
		notes[id] = "~ " + strings.Join(ws, ", ")
	}
	return notes
}
