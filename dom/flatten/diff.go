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
	if next != nil {
		for id, n := range next.ByID {
			var p *dom.VirtualNode
			if prev != nil {
				p = prev.ByID[id]
			}
			switch {
			case p == nil:
				d.Added = append(d.Added, id)
				continue
			case p.Name != n.Name:
				d.Renamed = append(d.Renamed, id)
			}
			shared++
			d.Changed = nodeChanges(d.Changed, id, p, n)
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

// sortIDs orders "node_N" by N, others after, by text.
func sortIDs(ids []string) {
	sort.Slice(ids, func(i, j int) bool { return idLess(ids[i], ids[j]) })
}
