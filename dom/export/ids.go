package export

import (
	"sort"
	"strconv"

	"domscope/dom"
)

// SavedIDs is what a saved capture needs to give every rebuilt node the
// ID the live page showed. IDs follow a node by its frame and backend
// node id across re-snapshots (see dom/build). So a capture taken after
// some actions has IDs a fresh build would number differently.
//
// Frames maps a frame id to runs of [backend id, ID number, count]. A run
// is count nodes, in document order, whose backend ids and ID numbers
// both go up by one. A page loaded and never changed is one run per frame.
type SavedIDs struct {
	Next   int                   `json:"next"`
	Docs   map[string]int64      `json:"docs"` // frame id -> backend id of its #document
	Frames map[string][][3]int64 `json:"frames"`
}

// saveIDs records the IDs of s.
func saveIDs(s *dom.Snapshot) *SavedIDs {
	if s == nil || s.Root == nil {
		return nil
	}
	ids := &SavedIDs{Next: s.NextID, Docs: map[string]int64{}, Frames: map[string][][3]int64{}}
	dom.Walk(s.Root, func(n *dom.VirtualNode) {
		num, ok := dom.IDNumber(n.ID)
		if !ok || n.BackendID == 0 {
			return
		}
		if n.NodeType == dom.DocumentNode {
			if _, seen := ids.Docs[n.FrameID]; !seen {
				ids.Docs[n.FrameID] = n.BackendID
			}
		}
		runs := ids.Frames[n.FrameID]
		if k := len(runs) - 1; k >= 0 && runs[k][0]+runs[k][2] == n.BackendID && runs[k][1]+runs[k][2] == int64(num) {
			runs[k][2]++
		} else {
			runs = append(runs, [3]int64{n.BackendID, int64(num), 1})
		}
		ids.Frames[n.FrameID] = runs
	})
	return ids
}

// prev returns a stand-in for the snapshot the IDs were saved from, for
// build.Options.Prev. It holds only what ID assignment reads. That is
// each node's ID, frame and backend id, and the frame documents. All
// nodes are children of an empty root.
func (ids *SavedIDs) prev() *dom.Snapshot {
	if ids == nil || len(ids.Frames) == 0 {
		return nil
	}
	total := 0
	for _, runs := range ids.Frames {
		for _, r := range runs {
			if r[2] > 0 && r[2] < 1<<24 {
				total += int(r[2])
			}
		}
	}
	p := &dom.Snapshot{Root: &dom.VirtualNode{}, ByID: make(map[string]*dom.VirtualNode, total), NextID: ids.Next}
	frames := make([]string, 0, len(ids.Frames))
	for f := range ids.Frames {
		frames = append(frames, f)
	}
	sort.Strings(frames)
	nodes := make([]dom.VirtualNode, 0, total)
	for _, f := range frames {
		for _, r := range ids.Frames[f] {
			if r[2] <= 0 || r[2] >= 1<<24 || r[1] <= 0 {
				continue // a damaged file: those nodes get new numbers
			}
			for i := int64(0); i < r[2]; i++ {
				nodes = append(nodes, dom.VirtualNode{FrameID: f, BackendID: r[0] + i, NodeType: dom.ElementNode})
				n := &nodes[len(nodes)-1]
				if d, ok := ids.Docs[f]; ok && d == n.BackendID {
					n.NodeType = dom.DocumentNode
				}
				n.ID = "node_" + strconv.FormatInt(r[1]+i, 10)
				p.ByID[n.ID] = n
				p.Root.Children = append(p.Root.Children, n)
			}
		}
	}
	return p
}
