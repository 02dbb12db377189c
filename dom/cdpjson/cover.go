package cdpjson

import "domscope/dom"

// A DOMSnapshot reply lists every node of its documents in its "nodes"
// table, laid out or not. It gives a layout box to those that are drawn.
// It describes the page at the moment Chrome made it. The page may insert
// a node after that moment. The DOM or the live model may read it before
// the build. Then it is not in the list at all. Such a node is
// "unlaid". Its lack of a box says nothing, so it is not judged hidden
// for it. A live refresh reads the layout of each such node by itself
// (the live model's unlaid.go). A full capture may read its DOM and
// layout a tick apart. It shows such a node as its parent is shown.

// IDSet is a set of backend node ids. Chrome numbers a renderer's nodes
// from 1 up, so a bitmap holds them in a few kilobytes. A renderer that
// lived long may pass maxBitmapID; ids beyond it go in a map.
type IDSet struct {
	bits []uint64
	big  map[int64]bool
}

// maxBitmapID bounds the bitmap at 2 MB.
const maxBitmapID = 1 << 24

// Add puts id in the set.
func (s *IDSet) Add(id int64) {
	if id < 0 || id >= maxBitmapID {
		if s.big == nil {
			s.big = map[int64]bool{}
		}
		s.big[id] = true
		return
	}
	w := int(id >> 6)
	if w >= len(s.bits) {
		s.bits = append(s.bits, make([]uint64, w+1-len(s.bits))...)
	}
	s.bits[w] |= 1 << (uint(id) & 63)
}

// Has reports whether id is in the set (never, for a nil set).
func (s *IDSet) Has(id int64) bool {
	if s == nil {
		return false
	}
	if id < 0 || id >= maxBitmapID {
		return s.big[id]
	}
	w := int(id >> 6)
	return w < len(s.bits) && s.bits[w]&(1<<(uint(id)&63)) != 0
}

// Each calls f for every id in the set, the bitmap's in order.
func (s *IDSet) Each(f func(id int64)) {
	if s == nil {
		return
	}
	for w, word := range s.bits {
		for b := 0; word != 0; b++ {
			if word&1 != 0 {
				f(int64(w)<<6 | int64(b))
			}
			word >>= 1
		}
	}
	for id := range s.big {
		f(id)
	}
}

// listNodes makes the set of nodes a layout lists. It is nil when some
// document does not say it lists them all. A layout written by an older
// domscope listed only its boxes. There, no box meant not drawn.
func listNodes(snap *DOMSnapshot) *IDSet {
	s := &IDSet{}
	for d := range snap.Documents {
		nodes := &snap.Documents[d].Nodes
		if len(nodes.ParentIndex) != len(nodes.BackendNodeID) || len(nodes.BackendNodeID) == 0 {
			return nil
		}
		for _, id := range nodes.BackendNodeID {
			s.Add(id)
		}
	}
	return s
}

// Unlaid reports whether node r of the target, with no layout box, came
// after its layout was made. ua says r is inside a user-agent shadow
// root. DOMSnapshot lists only elements and texts outside user-agent
// shadow roots that way.
func (ti *Target) Unlaid(r *Node, ua bool) bool {
	if ti.Listed == nil || ua || (r.NodeType != dom.ElementNode && r.NodeType != dom.TextNode) {
		return false
	}
	return !ti.Listed.Has(r.BackendNodeID)
}
