package tui

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"domscope/dom"
	"domscope/dom/flatten"
	"domscope/keymap"
	"domscope/views"
)

// diffLayer lists what changed between the last two snapshots; choosing a
// node jumps to it.
type diffLayer struct{ list }

func newDiffLayer(m *Model) *diffLayer {
	o := &diffLayer{list{title: "Changes since the previous snapshot", foot: "enter jumps to the node · esc close"}}
	if m.doc.newDoc {
		o.header("The page is a new document (navigation or reload): every node is new.")
		o.network(m)
		return o
	}
	if !m.doc.hasDiff {
		o.header("No previous snapshot of this tab to compare with yet.")
		o.network(m)
		return o
	}
	d := m.doc.diff
	o.header(fmt.Sprintf("Added (%d)", len(d.Added)))
	for _, id := range d.Added {
		o.add(m.st.Added.Render("+ ")+m.nodeName(id), id)
	}
	o.header(fmt.Sprintf("Renamed (%d)", len(d.Renamed)))
	for _, id := range d.Renamed {
		was := ""
		if name, ok := m.doc.before.names[id]; ok {
			was = " (was " + views.Quote(name, 30) + ")"
		}
		o.add(m.st.Renamed.Render("~ ")+m.nodeName(id)+m.st.Dim.Render(was), id)
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
			o.add(m.st.Renamed.Render("~ ")+m.nodeName(c.ID)+" "+m.st.Dim.Render(changeText(c)), c.ID)
		}
	}
	o.header(fmt.Sprintf("Removed (%d)", len(d.Removed)))
	for _, id := range d.Removed {
		name := id
		if p, ok := m.doc.before.removed[id]; ok {
			name = id + " " + views.Clean(p.tag)
			if p.name != "" {
				name += " " + views.Quote(p.name, 30)
			}
		}
		o.add(m.st.Removed.Render("- ")+name, "")
	}
	var lines []string
	if m.doc.before.had && m.doc.view != nil {
		lines = flatten.LineDiff(m.doc.before.text, m.doc.view.Text)
	}
	o.header(fmt.Sprintf("What the LLM reads differently: the flat view's lines (%d)", len(lines)))
	if !sameSet(m.doc.before.off, m.doc.flatOpts.Disabled) {
		o.add(m.st.Dim.Render("(the flattening rules changed since the previous snapshot: some lines differ by that)"), "")
	}
	for _, l := range lines {
		st := m.st.Added
		if strings.HasPrefix(l, "- ") {
			st = m.st.Removed
		}
		o.add(st.Render(views.Clean(l)), "")
	}
	o.network(m)
	o.first()
	return o
}

// beforeView is what the diff list shows of the snapshot before the current
// one: the old names of renamed nodes, the tag and name of removed ones,
// and its flat view's text (not its tree) with the rules it was made with.
type beforeView struct {
	names   map[string]string
	removed map[string]removedNode
	text    string
	had     bool // there was a flat view
	off     map[string]bool
}

type removedNode struct{ tag, name string }

// keepBefore takes from old what the diff list d needs; the flat view on
// screen is still old's.
func (m *Model) keepBefore(old *dom.Snapshot, d flatten.SnapshotDiff) beforeView {
	b := beforeView{
		names:   make(map[string]string, len(d.Renamed)),
		removed: make(map[string]removedNode, len(d.Removed)),
		off:     dom.CopyRules(m.doc.flatOpts.Disabled),
	}
	if m.doc.view != nil {
		b.text, b.had = m.doc.view.Text, true
	}
	for _, id := range d.Renamed {
		if p := old.Node(id); p != nil {
			b.names[id] = p.Name
		}
	}
	for _, id := range d.Removed {
		if p := old.Node(id); p != nil {
			b.removed[id] = removedNode{p.Tag, p.Name}
		}
	}
	return b
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

// changeText says what changed, in a few words: `checked: false → true`,
// `shown (was display:none)`, `moved from node_3 to node_9`.
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

func (o *diffLayer) handle(m *Model, c keymap.Command, msg tea.Msg) (tea.Cmd, bool) {
	if c == keymap.Accept {
		if k := o.key(); k != "" && m.panes.tree.Reveal(k) {
			m.pop(o)
			m.panes.focus = treeFocus
			m.syncFromTree()
		}
		return nil, true
	}
	return o.common(m, o, c, msg)
}

func (o *diffLayer) render(m *Model, s screen) drawn { return o.draw(m, s) }
