package dom

import (
	"encoding/json"
	"errors"
	"slices"
	"time"
)

// ErrPageChanged is why a snapshot of the live model cannot be written out
// as a capture any more: the model has followed the page since. Take a new
// snapshot (an incremental one is cheap) and export or rebuild that.
var ErrPageChanged = errors.New("the page changed after this snapshot")

// modelSource is where a snapshot built from a live model gets its
// capture: the model, while it is as it was when the snapshot was built.
type modelSource struct {
	m       *LiveModel
	version uint64
}

// Capture returns the raw capture the snapshot was built from: Raw, or for
// a snapshot of a live model (which keeps no CDP JSON) the model written
// out in the same form, while the model has not changed since (else an
// error wrapping ErrPageChanged).
func (s *Snapshot) Capture() (*RawCapture, error) {
	switch {
	case s == nil:
		return nil, Errorf(ValidationError, nil, "there is no snapshot")
	case s.Raw != nil:
		return s.Raw, nil
	case s.src == nil:
		return nil, Errorf(SnapshotFailed, nil, "this snapshot has no raw capture")
	}
	m := s.src.m
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := s.src.outdated(); err != nil {
		return nil, err
	}
	raw, err := m.encodeRaw()
	if err != nil {
		return nil, Errorf(SnapshotFailed, err, "writing the live model as a capture")
	}
	raw.Timestamp = s.stamp
	return raw, nil
}

// HasCapture reports whether Capture can give the snapshot's capture (or
// could, before the page changed).
func (s *Snapshot) HasCapture() bool {
	return s != nil && (s.Raw != nil || s.src != nil)
}

// WithoutCapture is a copy of the snapshot that keeps no capture and no
// hold on a live model: for a snapshot kept only to compare against.
func (s *Snapshot) WithoutCapture() *Snapshot {
	c := *s
	c.Raw, c.src = nil, nil
	return &c
}

// rebuild builds the model again with other options, while it is as it was
// when the snapshot was built.
func (src *modelSource) rebuild(s *Snapshot, opts BuildOptions) (*Snapshot, error) {
	src.m.mu.Lock()
	defer src.m.mu.Unlock()
	if err := src.outdated(); err != nil {
		return nil, err
	}
	return src.m.buildLocked(opts, time.Now())
}

// outdated is the error of a source the model has moved on from (nil when
// it has not). Callers hold the model's lock.
func (src *modelSource) outdated() error {
	if src.m.version != src.version {
		return Errorf(SnapshotFailed, ErrPageChanged, "this snapshot cannot be written out (take a new one)")
	}
	return nil
}

// encodeLayout writes a target's layout facts as one DOMSnapshot document
// that indexLayout reads back to the same facts: the boxes (already in the
// target's top document coordinates, so no shifts), their styles, the live
// values and the selected and checked marks, and every node the layout
// listed (layout_cover.go). The document node comes first, as its box is
// the viewport.
func encodeLayout(ti *targetIndex) (json.RawMessage, error) {
	var d snapDocument
	strs := slices.Clone(ti.strings)
	seen := map[int64]bool{}
	var ids []int64
	add := func(id int64) {
		if id != 0 && !seen[id] {
			seen[id] = true
			ids = append(ids, id)
		}
	}
	var rest []int64
	for id := range ti.boxes {
		rest = append(rest, id)
	}
	for id := range ti.values {
		rest = append(rest, id)
	}
	for id := range ti.selected {
		rest = append(rest, id)
	}
	for id := range ti.checked {
		rest = append(rest, id)
	}
	ti.listed.each(func(id int64) { rest = append(rest, id) })
	slices.Sort(rest)
	if ti.root != nil {
		add(ti.root.BackendNodeID)
	}
	for _, id := range rest {
		add(id)
	}
	d.Nodes.BackendNodeID = ids
	if ti.listed != nil {
		// every node is listed, laid out or not, as in Chrome's reply
		d.Nodes.ParentIndex = parentIndexes(ti.root, ids)
	}
	for ni, id := range ids {
		if b := ti.boxes[id]; b != nil {
			d.Layout.NodeIndex = append(d.Layout.NodeIndex, ni)
			d.Layout.Bounds = append(d.Layout.Bounds, []float64{b.bounds.X, b.bounds.Y, b.bounds.W, b.bounds.H})
			st := make([]int, b.n)
			for k := range st {
				st[k] = int(b.styles[k])
			}
			d.Layout.Styles = append(d.Layout.Styles, st)
		}
		if v, ok := ti.values[id]; ok {
			si := -1 // an empty value is string index -1
			if v != "" {
				si = len(strs)
				strs = append(strs, v)
			}
			d.Nodes.InputValue.Index = append(d.Nodes.InputValue.Index, ni)
			d.Nodes.InputValue.Value = append(d.Nodes.InputValue.Value, si)
		}
		if ti.selected[id] {
			d.Nodes.OptionSelected.Index = append(d.Nodes.OptionSelected.Index, ni)
		}
		if ti.checked[id] {
			d.Nodes.InputChecked.Index = append(d.Nodes.InputChecked.Index, ni)
		}
	}
	return json.Marshal(snapCapture{Documents: []snapDocument{d}, Strings: strs})
}

// parentIndexes gives, for each node of ids, the index in ids of its
// parent in the tree under root (-1 for none).
func parentIndexes(root *cdpNode, ids []int64) []int {
	at := make(map[int64]int, len(ids))
	for i, id := range ids {
		at[id] = i
	}
	out := make([]int, len(ids))
	for i := range out {
		out[i] = -1
	}
	type pair struct{ n, p *cdpNode }
	stack := []pair{{root, nil}}
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if x.n == nil {
			continue
		}
		if i, ok := at[x.n.BackendNodeID]; ok && x.p != nil {
			if j, ok := at[x.p.BackendNodeID]; ok {
				out[i] = j
			}
		}
		for _, c := range x.n.Children {
			stack = append(stack, pair{c, x.n})
		}
		for _, c := range x.n.ShadowRoots {
			stack = append(stack, pair{c, x.n})
		}
		stack = append(stack, pair{x.n.ContentDocument, x.n}, pair{x.n.TemplateContent, x.n})
	}
	return out
}
