package build

import (
	"testing"

	"domscope/dom"
	"domscope/dom/internal/recordings"
)

// TestDenseIndexFindsWhatMapsFind: the previous snapshot indexed by
// backend id in a slice answers every lookup as the per-frame maps do:
// each node by its frame, none by another frame, none for unknown ids.
func TestDenseIndexFindsWhatMapsFind(t *testing.T) {
	prev, err := Build(recordings.Load(t, "synthetic-10000"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	dense, maps := newIDAssignerDense(prev, true), newIDAssignerDense(prev, false)
	if dense.dense == nil || maps.dense != nil {
		t.Fatalf("dense index: %v, maps: %v", dense.dense != nil, maps.dense == nil)
	}
	if dense.next != maps.next {
		t.Errorf("next %d, with maps %d", dense.next, maps.next)
	}
	frames := map[string]bool{"": true, "nope": true}
	dom.Walk(prev.Root, func(n *dom.VirtualNode) { frames[n.FrameID] = true })
	checked := 0
	for id := int64(-1); id <= int64(len(dense.dense))+2; id++ {
		for f := range frames {
			a, okA := dense.prevOf(f, id)
			b, okB := maps.prevOf(f, id)
			if okA != okB || a.id != b.id || a.num != b.num || (a.attrs == nil) != (b.attrs == nil) {
				t.Fatalf("frame %q backend %d: dense %v %+v, maps %v %+v", f, id, okA, a, okB, b)
			}
			if okA {
				checked++
			}
		}
	}
	if checked < len(prev.ByID)/2 {
		t.Errorf("only %d of %d nodes found", checked, len(prev.ByID))
	}
}
