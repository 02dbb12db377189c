package dom

import "time"

// A refresh spends most of its time waiting for Chrome's layout
// (DOMSnapshot), and building the tree was most of what came after it. So
// the tree is built while Chrome makes the layout, from the model as it
// is (its AX facts and layout from the last read), and put right once the
// layout and the AX facts come: the nodes whose AX facts were fetched
// again or whose control state changed are described again, bounds and
// whether in the viewport are updated. It stands only if that changes no
// node's tier (what its visibility and its ancestors' names follow from)
// and no box appeared, went, changed style or became or stopped being
// zero-size; else the tree is built again, as it would have been.

// ahead is a tree built before the refresh's layout came.
type ahead struct {
	b       *builder
	version uint64 // the model's version it was built at
	vp      Rect   // the viewport it was built with
	took    time.Duration
}

// buildAhead builds from the model as it is. It returns nil when that
// tree could not stand (out-of-process frames are read whole at every
// refresh, sensitive values are still to be scrubbed).
func (m *LiveModel) buildAhead(opts BuildOptions) *ahead {
	start := time.Now()
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.broken != "" || len(m.frames) > 0 || len(m.secrets) > 0 {
		return nil
	}
	b, err := buildKeep(m.raw, []*targetIndex{m.ti}, opts, start)
	if err != nil {
		return nil
	}
	return &ahead{b: b, version: m.version, vp: m.raw.Viewport, took: time.Since(start)}
}

// finish makes the tree built ahead the refresh's snapshot, once the model
// holds the new layout (which replaced old; no box appeared, went or
// changed style), AX facts, title and viewport: the nodes whose AX facts
// were fetched (fetched), and those whose value, checked or selected
// state changed (states) with their ancestors (a <select> shows its
// option's), are described again; each node's bounds are the new ones,
// and whether it is in the viewport is worked out again. It reports false
// when that changes a node's tier, or the bounds change what the build
// decided (a box that became or stopped being zero-size); the caller then
// builds again.
func (a *ahead) finish(m *LiveModel, old []box, fetched, states []int64) (*Snapshot, bool) {
	start := time.Now()
	b := a.b
	if !a.laidOut(m) || !a.redescribe(m, fetched, states) {
		return nil, false
	}
	scrolled := m.raw.Viewport != a.vp // b.raw is m.raw: inViewport reads the new one
	if moved := !sameBounds(old, m.ti.layout); moved || scrolled {
		for i, n := range b.nodes {
			if f := &b.facts[i]; moved && f.box != nil {
				nb := m.ti.boxes[f.box.id]
				if nb == nil {
					return nil, false
				}
				if nb.bounds != n.Bounds {
					// zero-size is judged on a node and what it holds
					// (an ancestor is hidden only if none of it is drawn)
					if (n.NodeType == ElementNode || n.NodeType == TextNode) && zeroSize(n.Bounds) != zeroSize(nb.bounds) {
						return nil, false
					}
					n.Bounds = nb.bounds
				}
			}
			if n.Visible {
				n.InViewport = b.inViewport(n)
			}
		}
	}
	s := b.snap
	s.Title = m.raw.Title
	s.BuiltAhead = true
	s.Raw, s.src = nil, &modelSource{m: m, version: m.version}
	s.stamp = m.raw.Timestamp
	s.BuildTime = a.took + time.Since(start)
	return s, true
}

// laidOut reports whether the nodes the old layout did not list (inserted
// since: layout_cover.go), judged as their parents, are judged as the new
// layout would: hidden through a hidden parent, listed there with no box,
// and not what keeps an ancestor from being zero-size.
func (a *ahead) laidOut(m *LiveModel) bool {
	b := a.b
	if b.unlaid == 0 {
		return true
	}
	for i, n := range b.nodes {
		f := &b.facts[i]
		if !f.unlaid {
			continue
		}
		if n.Hidden != HiddenInherited || m.ti.boxes[n.BackendID] != nil || !m.ti.listed.has(n.BackendID) {
			return false
		}
		if p := f.parent; n.NodeType == ElementNode && (p < 0 || b.nodes[p].NodeType != ElementNode || b.facts[p].box != nil) {
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

// redescribe describes again, with the new AX facts and control states,
// the nodes fetched, and those of states with their ancestors. It reports
// false if a node's tier changed, or whether it is named after its text.
func (a *ahead) redescribe(m *LiveModel, fetched, states []int64) bool {
	if len(fetched) == 0 && len(states) == 0 {
		return true
	}
	b := a.b
	t := b.targets[0]
	t.values, t.selected, t.checked = m.ti.values, m.ti.selected, m.ti.checked
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
		f.ax = m.ti.ax[n.BackendID]
		name, tier, textName := n.Name, n.Tier, f.textName
		n.Name, n.States, f.textName = "", nil, false
		b.describe(i)
		// Role, name, states and reason are the node's own. Its tier
		// decides its visibility and its ancestors' names (through
		// trimContainerNames, with whether it is named after its text):
		// those must stay.
		if n.Tier != tier || f.textName != textName {
			return false
		}
		if textName && name == "" {
			n.Name = "" // trimContainerNames cleared it, and would again
		}
	}
	return true
}

// sameBounds reports whether two layouts hold the same boxes in the same
// order with the same bounds.
func sameBounds(old, fresh []box) bool {
	if len(old) != len(fresh) {
		return false
	}
	for i := range old {
		if old[i].id != fresh[i].id || old[i].bounds != fresh[i].bounds {
			return false
		}
	}
	return true
}

// zeroSize is the bounds test of visibility (HiddenZeroSize).
func zeroSize(r Rect) bool { return r.W < 1 || r.H < 1 }
