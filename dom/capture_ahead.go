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
	d       *draft
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
	d, err := newDraft(&decoded{raw: m.raw, targets: []*targetIndex{m.ti}}, opts, start)
	if err != nil {
		return nil
	}
	return &ahead{d: d, version: m.version, vp: m.raw.Viewport, took: time.Since(start)}
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
	if !a.d.redescribe(m.ti, fetched, states) {
		return nil, false
	}
	// the draft reads the new viewport: its capture's metadata is m.raw
	scrolled := m.raw.Viewport != a.vp
	if moved := !sameBounds(old, m.ti.layout); moved || scrolled {
		if !a.d.rebound(m.ti, moved) {
			return nil, false
		}
	}
	s := a.d.snapshot()
	s.Title = m.raw.Title
	s.BuiltAhead = true
	s.Raw, s.Source = nil, &modelSource{m: m, version: m.version}
	s.Stamp = m.raw.Timestamp
	s.BuildTime = a.took + time.Since(start)
	return s, true
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
