package flatten

import "domscope/dom"

// preorder lists the tree under root in document order; n is a hint
// of its size.
func preorder(root *dom.VirtualNode, n int) []*dom.VirtualNode {
	out := make([]*dom.VirtualNode, 0, n)
	dom.Walk(root, func(v *dom.VirtualNode) { out = append(out, v) })
	return out
}

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
	// The decisions name nodes: s's own, so v's tree can go.
	dec, ok := v.Dec.WithNodes(preorder(s.Root, v.Dec.Size()))
	if !ok {
		return nil
	}
	nv := &View{Snap: s, Opts: v.Opts, NodeCount: v.NodeCount, Dec: dec, Text: v.Text, Lines: v.Lines, Marks: v.Marks, Scrolls: v.Scrolls}
	nv.CountAfter(v)
	return nv
}
