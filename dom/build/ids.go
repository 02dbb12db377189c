package build

import (
	"strconv"

	"github.com/bits-and-blooms/bitset"

	"domscope/dom"
)

// idAssigner gives node IDs. A node that survives from the previous
// snapshot keeps its ID: the same frame, document and backend node id.
// Others get new numbers. It runs on every node of every re-snapshot. So
// lookups go by frame first (a frame's nodes come together in preorder),
// then by an integer.
type idAssigner struct {
	nodes  []*dom.VirtualNode
	frames map[string]*frameIDs
	last   *frameIDs // the frame of the node before
	// used marks the IDs given so far, a bit per number. An ID is given
	// once, even if hostile input names a backend node twice. Other given
	// IDs (not node_N, or numbers past the set's end) are in usedOther.
	used      bitset.BitSet
	usedOther map[string]bool
	next      int
	// dense indexes the previous snapshot's nodes (denseNodes) by backend
	// id, number+1; nil when frames holds them in maps (indexDense).
	dense      []int32
	denseNodes []*dom.VirtualNode
}

// maxUsedBits bounds the set of given ID numbers; a file may claim any
// next number. 1<<26 bits are 8 MB.
const maxUsedBits = 1 << 26

// frameIDs are one frame's IDs in the previous snapshot.
type frameIDs struct {
	frame string
	ids   map[int64]prevID
	// prevDoc and curDoc are the backend ids of the frame's #document in
	// the previous snapshot and this one. A new document must not inherit
	// the old IDs (a navigation, a new renderer that reuses backend ids).
	prevDoc, curDoc int64
	hasDoc, hasCur  bool
}

type prevID struct {
	id  string
	num int // -1 when id is not node_N
	// attrs and states are the node's maps. A node whose attributes or
	// states did not change shares them; a build never changes a shared
	// map (it copies one first).
	attrs, states map[string]string
}

// newIDAssigner reads the previous snapshot's IDs. The walk looks nodes
// up in it (prevOf); current reads the new documents once it is done.
func newIDAssigner(prev *dom.Snapshot) *idAssigner { return newIDAssignerDense(prev, true) }

// newIDAssignerDense is newIDAssigner, with the dense index tried or not.
func newIDAssignerDense(prev *dom.Snapshot, tryDense bool) *idAssigner {
	a := &idAssigner{next: 1}
	if prev == nil || prev.Root == nil {
		return a
	}
	a.frames = map[string]*frameIDs{}
	a.next = prev.NextID
	// The previous tree is read in preorder, the order its nodes were
	// made in. Going through ByID visits them at random, and waiting for
	// memory was most of the time this took.
	nodes := make([]*dom.VirtualNode, 0, len(prev.ByID))
	stack := []*dom.VirtualNode{prev.Root}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for i := len(n.Children) - 1; i >= 0; i-- {
			stack = append(stack, n.Children[i])
		}
		if n.ID == "" {
			continue
		}
		if num, ok := dom.IDNumber(n.ID); ok && num >= a.next {
			a.next = num + 1
		}
		if n.BackendID == 0 {
			continue
		}
		nodes = append(nodes, n)
		if n.NodeType == dom.DocumentNode {
			if f := a.frame(n.FrameID); !f.hasDoc {
				f.prevDoc, f.hasDoc = n.BackendID, true
			}
		}
	}
	if tryDense && a.indexDense(nodes) {
		return a
	}
	for _, n := range nodes {
		f := a.frame(n.FrameID)
		if f.ids == nil {
			size := 0
			if n.FrameID == prev.Root.FrameID {
				size = len(prev.ByID) // most nodes are the page's own
			}
			f.ids = make(map[int64]prevID, size)
		}
		f.ids[n.BackendID] = prevOfNode(n)
	}
	return a
}

// indexDense indexes nodes by backend id in a slice, when no two share
// one and the ids are not far above their count: a page in one renderer.
// A lookup is then an index, not a hash, and the table a tenth the size.
// Else (out-of-process frames, hostile input) it reports false.
func (a *idAssigner) indexDense(nodes []*dom.VirtualNode) bool {
	limit := int64(4*len(nodes) + 1024)
	top := int64(0)
	for _, n := range nodes {
		if n.BackendID < 0 || n.BackendID > limit {
			return false
		}
		top = max(top, n.BackendID)
	}
	dense := make([]int32, top+1)
	for i, n := range nodes {
		if dense[n.BackendID] != 0 {
			return false
		}
		dense[n.BackendID] = int32(i + 1)
	}
	a.dense, a.denseNodes = dense, nodes
	return true
}

// prevOfNode is what a node of the previous snapshot gives its successor.
func prevOfNode(n *dom.VirtualNode) prevID {
	num, ok := dom.IDNumber(n.ID)
	if !ok {
		num = -1
	}
	return prevID{n.ID, num, n.Attrs, n.States}
}

// prevOf is what the previous snapshot knew of a node, by frame and
// backend node id, whatever its document.
func (a *idAssigner) prevOf(frame string, backendID int64) (prevID, bool) {
	if a.frames == nil || backendID == 0 {
		return prevID{}, false
	}
	if a.dense != nil {
		if backendID < 0 || backendID >= int64(len(a.dense)) || a.dense[backendID] == 0 {
			return prevID{}, false
		}
		n := a.denseNodes[a.dense[backendID]-1]
		if n.FrameID != frame {
			return prevID{}, false
		}
		return prevOfNode(n), true
	}
	p, ok := a.frame(frame).ids[backendID]
	return p, ok
}

// current takes the walk's nodes: the documents they hold say which
// frames kept theirs.
func (a *idAssigner) current(nodes []*dom.VirtualNode) {
	a.nodes = nodes
	if a.frames == nil {
		return
	}
	for _, n := range nodes {
		if n.NodeType == dom.DocumentNode {
			if f := a.frame(n.FrameID); !f.hasCur {
				f.curDoc, f.hasCur = n.BackendID, true
			}
		}
	}
	if a.next < 1 {
		a.next = 1
	}
	a.used = *bitset.New(uint(min(a.next+len(nodes), maxUsedBits)))
}

// frame returns the IDs of frame id, made on first use.
func (a *idAssigner) frame(id string) *frameIDs {
	if a.last != nil && a.last.frame == id {
		return a.last
	}
	f := a.frames[id]
	if f == nil {
		f = &frameIDs{frame: id}
		a.frames[id] = f
	}
	a.last = f
	return f
}

// assign returns the ID of node i. p is what prevOf found for it (ok).
func (a *idAssigner) assign(i int, p prevID, ok bool) string {
	n := a.nodes[i]
	if ok && a.frames != nil && n.BackendID != 0 {
		if f := a.frame(n.FrameID); f.hasDoc && f.hasCur && f.prevDoc == f.curDoc && a.take(p) {
			return p.id
		}
	}
	id := "node_" + strconv.Itoa(a.next)
	if a.frames != nil {
		a.take(prevID{id: id, num: a.next})
	}
	a.next++
	return id
}

// take marks a previous ID as given, reporting false if it was already.
func (a *idAssigner) take(p prevID) bool {
	if p.num >= 0 && p.num < maxUsedBits {
		if a.used.Test(uint(p.num)) {
			return false
		}
		a.used.Set(uint(p.num))
		return true
	}
	if a.usedOther == nil {
		a.usedOther = map[string]bool{}
	}
	if a.usedOther[p.id] {
		return false
	}
	a.usedOther[p.id] = true
	return true
}
