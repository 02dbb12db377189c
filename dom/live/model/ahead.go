package model

import (
	"time"
	"weak"

	"domscope/dom"
	"domscope/dom/build"
	"domscope/dom/cdpjson"
)

// A refresh spends most of its time waiting for Chrome's layout
// (DOMSnapshot), and building the tree was most of what came after it.
// So the tree is built while Chrome makes the layout. It is built from
// the model as it is, with its AX facts and layout from the last read.
// It is put right once the layout and the AX facts come:
//   - nodes whose AX facts were fetched again are described again.
//   - so are nodes whose control state changed.
//   - bounds and whether in the viewport are updated.
//
// It stands only if that changes no node's tier (what its visibility
// and its ancestors' names follow from). No box may appear, go, change
// style, or become or stop being zero-size. Else the tree is built
// again, as it would have been.

// ahead is a tree built before the refresh's layout came.
type ahead struct {
	d       *build.Draft
	version uint64   // the model's version it was built at
	vp      dom.Rect // the viewport it was built with
	took    time.Duration
	cloned  bool          // a copy of the last tree (build.Draft.Clone)
	prev    *dom.Snapshot // the snapshot it is a copy of
}

// buildAhead builds from the model as it is. It returns nil when that
// tree could not stand. Out-of-process frames are read whole at every
// refresh, and sensitive values are still to be scrubbed.
func (m *Model) buildAhead(opts build.Options) *ahead {
	start := time.Now()
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.broken != "" || len(m.frames) > 0 || len(m.secrets) > 0 {
		return nil
	}
	d, err := build.NewDraft(&cdpjson.Capture{Raw: m.raw, Targets: []*cdpjson.Target{m.ti}}, opts, start)
	if err != nil {
		return nil
	}
	return &ahead{d: d, version: m.version, vp: m.raw.Viewport, took: time.Since(start)}
}

// cloneAhead is buildAhead when nothing changed since the last tree was
// built: a copy of it is what a build would make (build.Draft.Clone). It
// returns nil when it cannot copy. The copy reads only the last tree, so
// it does not hold m.mu. A change meanwhile changes m.version, and
// refresh then drops the copy.
func (m *Model) cloneAhead(opts build.Options) *ahead {
	start := time.Now()
	m.mu.Lock()
	d, version, vp := m.draft, m.version, m.raw.Viewport
	ok := d != nil && m.draftVersion == version && m.broken == "" && len(m.frames) == 0 && len(m.secrets) == 0
	m.mu.Unlock()
	if !ok {
		return nil
	}
	c, ok := d.Clone(opts, start)
	if !ok {
		return nil
	}
	return &ahead{d: c, version: version, vp: vp, took: time.Since(start), cloned: true, prev: opts.Prev}
}

// finish makes the tree built ahead the refresh's snapshot. It runs once
// the model holds the new layout, AX facts, title and viewport. The new
// layout replaced old; no box appeared, went or changed style.
// These nodes are described again:
//   - those whose AX facts were fetched (fetched).
//   - those whose value, checked or selected state changed (states).
//   - their ancestors, since a <select> shows its option's.
//
// Each node gets its new bounds, and whether it is in the viewport is
// worked out again. It reports false when that changes a node's tier.
// It also does when the bounds change what the build decided: a box
// that became or stopped being zero-size. The caller then builds again.
func (a *ahead) finish(m *Model, old []cdpjson.Box, fetched, states []int64) (*dom.Snapshot, bool) {
	start := time.Now()
	if !a.d.LaidOut(m.ti) || !a.d.Redescribe(m.ti, fetched, states) {
		return nil, false
	}
	// the draft reads the new viewport: its capture's metadata is m.raw
	scrolled := m.raw.Viewport != a.vp
	if moved := !sameBounds(old, m.ti.Layout); moved || scrolled {
		if !a.d.Rebound(m.ti, moved) {
			return nil, false
		}
	}
	s := a.d.Snapshot()
	m.keepDraft(a.d)
	if a.cloned && a.d.Same() {
		m.sameNext, m.samePrev = weak.Make(s), weak.Make(a.prev)
	}
	s.Title = m.raw.Title
	s.BuiltAhead = true
	s.Raw, s.Source = nil, &modelSource{m: m, version: m.version}
	s.Stamp = m.raw.Timestamp
	s.BuildTime = a.took + time.Since(start)
	return s, true
}

// sameBounds reports whether two layouts hold the same boxes in the same
// order with the same bounds.
func sameBounds(old, fresh []cdpjson.Box) bool {
	if len(old) != len(fresh) {
		return false
	}
	for i := range old {
		if old[i].ID != fresh[i].ID || old[i].Bounds != fresh[i].Bounds {
			return false
		}
	}
	return true
}
