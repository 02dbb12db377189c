package build

import (
	"maps"
	"time"

	"domscope/dom"
	"domscope/dom/cdpjson"
)

// Draft is a tree built ahead of a refresh's layout, kept open to be put
// right once the layout comes. Its builder still knows the layout box and
// the AX facts each node was built with.
type Draft struct {
	b *builder
	// cloned: the draft is a copy of another's tree (Clone). changed:
	// putting it right changed a node of it.
	cloned, changed bool
}

// Same reports whether the draft is a copy of the snapshot it was cloned
// for (Clone's opts.Prev), node for node, even after being put right.
func (d *Draft) Same() bool { return d.cloned && !d.changed }

// NewDraft builds c and keeps the build open.
func NewDraft(c *cdpjson.Capture, opts Options, start time.Time) (*Draft, error) {
	b, err := buildKeep(c, opts, start)
	if err != nil {
		return nil, err
	}
	return &Draft{b: b}, nil
}

// Snapshot is the draft's tree.
func (d *Draft) Snapshot() *dom.Snapshot { return d.b.snap }

// Redescribe describes again, with cur's AX facts and control states, the
// nodes fetched and those of states with their ancestors. It reports false
// if a node's tier changed, or whether it is named after its text.
func (d *Draft) Redescribe(cur *cdpjson.Target, fetched, states []int64) bool {
	if len(fetched) == 0 && len(states) == 0 {
		return true
	}
	b := d.b
	t := b.targets[0]
	t.Values, t.Selected, t.Checked = cur.Values, cur.Selected, cur.Checked
	want := map[int64]int{} // 1: the node, 2: the node and its ancestors
	for _, id := range fetched {
		want[id] = 1
	}
	for _, id := range states {
		want[id] = 2
	}
	redo, up := map[int]bool{}, map[int]bool{}
	for i, n := range b.nodes {
		if b.facts[i].target != 0 {
			continue
		}
		switch want[n.BackendID] {
		case 1:
			redo[i] = true
		case 2:
			for j := i; j >= 0 && !up[j]; j = int(b.facts[j].parent) {
				up[j], redo[j] = true, true
			}
		}
	}
	for i := range redo {
		n, f := b.nodes[i], &b.facts[i]
		was := *n
		f.ax = cur.AX[n.BackendID]
		name, tier, textName := n.Name, n.Tier, f.textName
		n.Name, n.States, f.textName = "", nil, false
		b.describe(i)
		// Role, name, states and reason are the node's own. Its tier
		// decides its visibility and its ancestors' names, through
		// trimContainerNames with whether it is named after its text.
		// Those must stay.
		if n.Tier != tier || f.textName != textName {
			return false
		}
		if textName && name == "" {
			n.Name = "" // trimContainerNames cleared it, and would again
		}
		if !sameNode(&was, n) {
			d.changed = true
		}
	}
	return true
}

// sameNode reports whether two nodes hold the same values, children and
// parent aside.
func sameNode(a, b *dom.VirtualNode) bool {
	return a.ID == b.ID && a.BackendID == b.BackendID && a.FrameID == b.FrameID && a.TargetID == b.TargetID &&
		a.Tag == b.Tag && a.Role == b.Role && a.Name == b.Name && a.Text == b.Text && a.ShadowType == b.ShadowType &&
		a.Bounds == b.Bounds && a.Hidden == b.Hidden && a.Why == b.Why && a.NodeType == b.NodeType &&
		a.Tier == b.Tier && a.Visible == b.Visible && a.InViewport == b.InViewport &&
		a.Scrolls == b.Scrolls &&
		maps.Equal(a.Attrs, b.Attrs) && maps.Equal(a.States, b.States)
}

// LaidOut reports whether cur's layout would judge the unlisted nodes as
// the draft did. Those are nodes the draft's layout did not list
// (inserted since: cdpjson/cover.go), judged as their parents. They must
// be hidden through a hidden parent, listed there with no box, and not
// what keeps an ancestor from being zero-size.
func (d *Draft) LaidOut(cur *cdpjson.Target) bool {
	b := d.b
	if b.unlaid == 0 {
		return true
	}
	for i, n := range b.nodes {
		f := &b.facts[i]
		if !f.unlaid {
			continue
		}
		if n.Hidden != dom.HiddenInherited || cur.Boxes[n.BackendID] != nil || !cur.Listed.Has(n.BackendID) {
			return false
		}
		if p := f.parent; n.NodeType == dom.ElementNode && (p < 0 || b.nodes[p].NodeType != dom.ElementNode || b.facts[p].box != nil) {
			return false // a hidden parent with a box hides it otherwise
		}
		for j := f.parent; j >= 0; j = b.facts[j].parent {
			if b.facts[j].box != nil && zeroSize(b.nodes[j].Bounds) {
				return false
			}
		}
	}
	return true
}

// Rebound gives each node the bounds of its box in cur, when the boxes
// moved. It works out again whether the node is in the viewport. It
// reports false when a box went, or became or stopped being zero-size.
// Then what the build decided from it no longer holds.
func (d *Draft) Rebound(cur *cdpjson.Target, moved bool) bool {
	b := d.b
	for i, n := range b.nodes {
		if f := &b.facts[i]; moved && f.box != nil {
			nb := cur.Boxes[f.box.ID]
			if nb == nil {
				return false
			}
			n.Scrolls = cur.Scrolls(nb)
			if nb.Bounds != n.Bounds {
				// zero-size is judged on a node and what it holds. An
				// ancestor is hidden only if none of it is drawn.
				if (n.NodeType == dom.ElementNode || n.NodeType == dom.TextNode) && zeroSize(n.Bounds) != zeroSize(nb.Bounds) {
					return false
				}
				n.Bounds = nb.Bounds
				d.changed = true
			}
		}
		if n.Visible {
			if in := b.inViewport(n); in != n.InViewport {
				n.InViewport = in
				d.changed = true
			}
		}
	}
	return true
}
