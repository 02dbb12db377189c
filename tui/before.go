package tui

import (
	"domscope/dom"
	"domscope/dom/flatten"
)

// beforeView is what the diff list shows of the snapshot before the current
// one. It holds the old names of renamed nodes and the tag and name of
// removed ones. It also holds that snapshot's flat view's text (not its
// tree) with the rules it was made with.
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
