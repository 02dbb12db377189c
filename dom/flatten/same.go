package flatten

import "domscope/dom"

// SameTree is a text view of s made from v, a view of an earlier snapshot
// whose tree s repeats node for node (IDs, fields, shape). A click that
// changes nothing re-snapshots a page as it was: flattening it again
// would only make the same lines, at 100 ms for 50,000 elements. The
// header (URL, title, time, frames) is s's own: Serialized flattens s.
// It is nil for a JSON view, whose lines hold that header. The caller
// vouches for the tree.
func (v *View) SameTree(s *dom.Snapshot) *View {
	if v == nil || v.JSON || s == nil || s.Root == nil {
		return nil
	}
	nv := &View{Snap: s, Opts: v.Opts, NodeCount: v.NodeCount, Dec: v.Dec, Text: v.Text, Lines: v.Lines}
	nv.CountAfter(v)
	return nv
}
