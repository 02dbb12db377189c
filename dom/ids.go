package dom

import (
	"strconv"
	"strings"
)

// NormalizeID turns "12", "[12]" and "node_12" into "node_12"; anything else
// is returned trimmed, unchanged.
func NormalizeID(id string) string {
	id = strings.TrimSpace(id)
	id = strings.TrimSuffix(strings.TrimPrefix(id, "["), "]")
	if id == "" {
		return id
	}
	for _, r := range id {
		if r < '0' || r > '9' {
			return id
		}
	}
	return "node_" + id
}

// idKey identifies a node across rebuilds: its frame and backend node id.
type idKey struct {
	frame   string
	backend int64
}

// idAssigner gives node IDs: a node that survives from the previous
// snapshot in the same document keeps its ID, others get new numbers.
type idAssigner struct {
	nodes []*VirtualNode
	facts []facts
	prev  map[idKey]string
	// prevDoc is, per frame, the backend id of the frame's #document in the
	// previous snapshot: a new document (navigation, a new renderer that
	// reuses backend ids) must not inherit the old IDs.
	prevDoc map[string]int64
	curDoc  map[string]int64
	used    map[string]bool
	next    int
}

func newIDAssigner(prev *Snapshot, nodes []*VirtualNode, fs []facts) *idAssigner {
	a := &idAssigner{nodes: nodes, facts: fs, next: 1}
	if prev == nil || prev.Root == nil {
		return a
	}
	a.prev = make(map[idKey]string, len(prev.ByID))
	a.prevDoc = map[string]int64{}
	a.curDoc = map[string]int64{}
	a.used = make(map[string]bool, len(nodes))
	a.next = prev.NextID
	for id, n := range prev.ByID {
		if num, ok := idNumber(id); ok && num >= a.next {
			a.next = num + 1
		}
		if n.BackendID == 0 {
			continue
		}
		a.prev[idKey{n.FrameID, n.BackendID}] = id
		if n.NodeType == DocumentNode {
			a.prevDoc[n.FrameID] = n.BackendID
		}
	}
	for _, n := range nodes {
		if n.NodeType == DocumentNode {
			if _, ok := a.curDoc[n.FrameID]; !ok {
				a.curDoc[n.FrameID] = n.BackendID
			}
		}
	}
	if a.next < 1 {
		a.next = 1
	}
	return a
}

// assign returns the ID of node i.
func (a *idAssigner) assign(i int) string {
	n := a.nodes[i]
	if a.prev != nil && n.BackendID != 0 {
		if d, ok := a.prevDoc[n.FrameID]; ok && d == a.curDoc[n.FrameID] {
			if id, ok := a.prev[idKey{n.FrameID, n.BackendID}]; ok && !a.used[id] {
				a.used[id] = true
				return id
			}
		}
	}
	id := "node_" + strconv.Itoa(a.next)
	a.next++
	if a.used != nil {
		a.used[id] = true
	}
	return id
}

// idNumber parses the N of "node_N".
func idNumber(id string) (int, bool) {
	s, ok := strings.CutPrefix(id, "node_")
	if !ok {
		return 0, false
	}
	n, err := strconv.Atoi(s)
	return n, err == nil
}
