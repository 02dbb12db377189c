package tui

import (
	"fmt"

	tea "charm.land/bubbletea/v2"

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
		if p := m.doc.prev.Node(id); p != nil {
			was = " (was " + views.Quote(p.Name, 30) + ")"
		}
		o.add(m.st.Renamed.Render("~ ")+m.nodeName(id)+m.st.Dim.Render(was), id)
	}
	o.header(fmt.Sprintf("Removed (%d)", len(d.Removed)))
	for _, id := range d.Removed {
		name := id
		if p := m.doc.prev.Node(id); p != nil {
			name = id + " " + views.Clean(p.Tag)
			if p.Name != "" {
				name += " " + views.Quote(p.Name, 30)
			}
		}
		o.add(m.st.Removed.Render("- ")+name, "")
	}
	o.network(m)
	o.first()
	return o
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
