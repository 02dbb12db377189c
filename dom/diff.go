package dom

// SnapshotDiff lists node IDs that changed between two snapshots.
type SnapshotDiff struct {
	Added, Removed, Renamed []string
}

// Diff compares two snapshots of the same target by node ID.
func Diff(prev, next *Snapshot) SnapshotDiff {
	var d SnapshotDiff
	if prev == nil || next == nil {
		return d
	}
	for id, n := range next.ByID {
		p, ok := prev.ByID[id]
		if !ok {
			d.Added = append(d.Added, id)
		} else if p.Name != n.Name {
			d.Renamed = append(d.Renamed, id)
		}
	}
	for id := range prev.ByID {
		if _, ok := next.ByID[id]; !ok {
			d.Removed = append(d.Removed, id)
		}
	}
	return d
}
