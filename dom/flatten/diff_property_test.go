package flatten_test

import (
	"reflect"
	"sort"
	"testing"

	"domscope/dom"
	"domscope/dom/build"
	"domscope/dom/flatten"
	"domscope/dom/internal/fixture"
)

// TestDiffSameAsTwoPasses: Diff looks each node up once and skips the
// walk of prev when no node went. It must list exactly what the plain
// two-pass comparison (refDiff) lists, on random pairs of snapshots that
// share, add, remove, rename, hide and move nodes.
func TestDiffSameAsTwoPasses(t *testing.T) {
	build1 := func(seed uint64, prev *dom.Snapshot) *dom.Snapshot {
		s, err := build.Build(fixture.CaptureOf(randomTree(seed, 150)), build.Options{Prev: prev})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	for seed := uint64(0); seed < 150; seed++ {
		a := build1(seed, nil)
		for _, next := range []*dom.Snapshot{
			build1(seed, a),     // the same page again
			build1(seed+1, a),   // another page: most IDs change
			build1(seed+300, a), // another again
		} {
			// Some nodes of next lose their tail: none went, some went.
			for _, cut := range []int{0, 1, 7} {
				n := next
				if cut > 0 {
					n = dropSome(next, cut)
				}
				for _, pair := range [][2]*dom.Snapshot{{a, n}, {n, a}, {nil, n}, {a, nil}, {a, a}} {
					got, want := flatten.Diff(pair[0], pair[1]), refDiff(pair[0], pair[1])
					if !reflect.DeepEqual(got, want) {
						t.Fatalf("seed %d cut %d: Diff\n%+v\nwant\n%+v", seed, cut, got, want)
					}
				}
			}
		}
	}
}

// dropSome returns a copy of s whose ByID leaves out every step-th node.
func dropSome(s *dom.Snapshot, step int) *dom.Snapshot {
	c := *s
	c.ByID = map[string]*dom.VirtualNode{}
	i := 0
	for id, n := range s.ByID {
		if i%step != 0 {
			c.ByID[id] = n
		}
		i++
	}
	return &c
}

// refDiff is Diff as it was: one pass for added and renamed, one for
// removed, one for the changes of shared nodes.
func refDiff(prev, next *dom.Snapshot) flatten.SnapshotDiff {
	var d flatten.SnapshotDiff
	if next != nil {
		for id, n := range next.ByID {
			var p *dom.VirtualNode
			if prev != nil {
				p = prev.ByID[id]
			}
			switch {
			case p == nil:
				d.Added = append(d.Added, id)
			case p.Name != n.Name:
				d.Renamed = append(d.Renamed, id)
			}
		}
	}
	if prev != nil {
		for id := range prev.ByID {
			if next == nil || next.ByID[id] == nil {
				d.Removed = append(d.Removed, id)
			}
		}
	}
	if prev != nil && next != nil {
		d.Changed = refChanges(prev, next)
	}
	for _, l := range [][]string{d.Added, d.Removed, d.Renamed} {
		sort.Slice(l, func(i, j int) bool { return refLess(l[i], l[j]) })
	}
	return d
}

func refChanges(prev, next *dom.Snapshot) []dom.Change {
	states := []string{"checked", "expanded", "selected", "pressed", "value", "focused", "disabled"}
	var out []dom.Change
	for id, n := range next.ByID {
		p := prev.ByID[id]
		if p == nil || n.NodeType != dom.ElementNode {
			continue
		}
		for _, k := range states {
			if len(p.States) == 0 && len(n.States) == 0 {
				break
			}
			a, b := p.States[k], n.States[k]
			if a == b {
				continue
			}
			if k == "value" && (p.Sensitive() || n.Sensitive()) {
				a, b = dom.MaskIf(a != "", a), dom.MaskIf(b != "", b)
				if a == b {
					continue
				}
			}
			out = append(out, dom.Change{ID: id, Kind: "state", What: k, From: dom.Clip(a, 80), To: dom.Clip(b, 80)})
		}
		switch {
		case p.Hidden == "" && n.Hidden != "" && n.Hidden != dom.HiddenInherited:
			out = append(out, dom.Change{ID: id, Kind: "hidden", What: n.Hidden})
		case p.Hidden != "" && n.Hidden == "" && p.Hidden != dom.HiddenInherited:
			out = append(out, dom.Change{ID: id, Kind: "shown", What: p.Hidden})
		}
		if p.Name != n.Name {
			out = append(out, dom.Change{ID: id, Kind: "name", From: dom.Clip(p.Name, 80), To: dom.Clip(n.Name, 80)})
		}
		if p.Parent != nil && n.Parent != nil && p.Parent.ID != n.Parent.ID {
			out = append(out, dom.Change{ID: id, Kind: "moved", From: p.Parent.ID, To: n.Parent.ID})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return refLess(out[i].ID, out[j].ID) })
	return out
}

func refLess(a, b string) bool {
	x, xok := dom.IDNumber(a)
	y, yok := dom.IDNumber(b)
	if xok && yok {
		return x < y
	}
	if xok != yok {
		return xok
	}
	return a < b
}
