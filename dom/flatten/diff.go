package flatten

import (
	"sort"

	"domscope/dom"
)

// SnapshotDiff lists node IDs that changed between two snapshots.
type SnapshotDiff struct {
	Added   []string // in next only
	Removed []string // in prev only
	Renamed []string // in both, with another name
	// Changed lists what changed on nodes in both: states, visibility,
	// names (old and new) and moves.
	Changed []dom.Change
}

// Empty reports whether nothing changed.
func (d SnapshotDiff) Empty() bool {
	return len(d.Added)+len(d.Removed)+len(d.Renamed)+len(d.Changed) == 0
}

// Diff compares two snapshots by node ID (IDs survive a rebuild, see
// build.Options.Prev). Lists are sorted by node number. At 50,000
// elements a map lookup per node is most of it. So each node of next is
// looked up in prev once, and prev is walked only when some node went.
func Diff(prev, next *dom.Snapshot) SnapshotDiff {
	work.diff.Add(1)
	var d SnapshotDiff
	shared := 0
	visit := func(id string, n, p *dom.VirtualNode) {
		switch {
		case p == nil:
			d.Added = append(d.Added, id)
			return
		case p.Name != n.Name:
			d.Renamed = append(d.Renamed, id)
		}
		shared++
		d.Changed = nodeChanges(d.Changed, id, p, n)
	}
	switch {
	case next == nil:
	case prev == nil:
		for id, n := range next.ByID {
			visit(id, n, nil)
		}
	default:
		if !inStep(prev, next, visit) {
			for id, n := range next.ByID {
				visit(id, n, prev.ByID[id])
			}
		}
	}
	// Every node of prev not shared with next was removed.
	if prev != nil && len(prev.ByID) > shared {
		for id := range prev.ByID {
			if next == nil || next.ByID[id] == nil {
				d.Removed = append(d.Removed, id)
			}
		}
	}
	// by node; a node's own changes stay in the order nodeChanges gave
	sort.SliceStable(d.Changed, func(i, j int) bool { return idLess(d.Changed[i].ID, d.Changed[j].ID) })
	sortIDs(d.Added)
	sortIDs(d.Removed)
	sortIDs(d.Renamed)
	return d
}

// inStep calls visit with each node of next and its namesake in prev (or
// nil), walking both trees in preorder side by side. A node kept by a
// rebuild is most often the next one of prev's walk, where a lookup in
// prev.ByID waits on memory at a random place. It reports false, having
// visited nothing, when a tree and its ByID do not hold the same nodes.
func inStep(prev, next *dom.Snapshot, visit func(id string, n, p *dom.VirtualNode)) bool {
	po, no := byPreorder(prev), byPreorder(next)
	if po == nil || no == nil {
		return false
	}
	j := 0
	for _, n := range no {
		var p *dom.VirtualNode
		// Nodes removed since sit before the one kept: look a few ahead.
		for k := j; k < len(po) && k < j+8; k++ {
			if po[k].ID == n.ID {
				p, j = po[k], k+1
				break
			}
		}
		if p == nil {
			p = prev.ByID[n.ID]
		}
		visit(n.ID, n, p)
	}
	return true
}

// byPreorder lists s's nodes in preorder, or nil when they are not
// exactly those of s.ByID (IDs given twice, a ByID made by hand).
func byPreorder(s *dom.Snapshot) []*dom.VirtualNode {
	out := make([]*dom.VirtualNode, 0, len(s.ByID))
	ok := true
	dom.Walk(s.Root, func(n *dom.VirtualNode) {
		if !ok {
			return
		}
		if len(out) == len(s.ByID) || n.ID == "" {
			ok = false
			return
		}
		out = append(out, n)
	})
	if !ok || len(out) != len(s.ByID) {
		return nil
	}
	return out
}

// sortIDs orders "node_N" by N, others after, by text.
func sortIDs(ids []string) {
	sort.Slice(ids, func(i, j int) bool { return idLess(ids[i], ids[j]) })
}
