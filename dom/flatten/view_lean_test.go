package flatten

import (
	"bytes"
	"runtime"
	"testing"
	"weak"

	"domscope/dom"
	"domscope/dom/build"
	"domscope/dom/internal/fixture"
	"domscope/dom/internal/recordings"
)

// TestViewKeepsNoTree: a view drops its flattened tree once formatted (a
// JSON view once its tokens are counted). Serialized makes the same tree
// again, with the rules the view was made with.
func TestViewKeepsNoTree(t *testing.T) {
	s := fixture.MustBuild(t, richPage(), build.Options{})
	opts := dom.DefaultOptions()
	opts.Disabled = map[string]bool{FlatHoistStructural: true}
	for _, asJSON := range []bool{false, true} {
		sd, dec := Flatten(s, opts)
		want, err := FormatJSON(sd)
		if err != nil {
			t.Fatal(err)
		}
		tree, node := weak.Make(sd), weak.Make(sd.Nodes[0])
		v, err := ViewOf(s, sd, dec, opts, asJSON)
		if err != nil {
			t.Fatal(err)
		}
		if v.NodeCount != sd.NodeCount || v.NodeCount == 0 {
			t.Errorf("json %v: node count %d, want %d", asJSON, v.NodeCount, sd.NodeCount)
		}
		if v.Tokens() <= 0 {
			t.Fatalf("json %v: no tokens", asJSON)
		}
		sd = nil
		runtime.GC()
		if tree.Value() != nil || node.Value() != nil {
			t.Errorf("json %v: the view keeps its flattened tree", asJSON)
		}
		// the caller's rules change later; the view's do not
		opts.Disabled[FlatHoistStructural] = false
		got, err := FormatJSON(v.Serialized())
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("json %v: Serialized differs from the tree formatted:\n%s\nwant\n%s", asJSON, got, want)
		}
		opts.Disabled[FlatHoistStructural] = true
		runtime.KeepAlive(v)
	}
}

// TestDecisionsCompact: a view's decisions cost a few bytes a node. As a
// map by ID they took 11 MB at 105,000 nodes (about 106 bytes a node),
// and the UI holds two views around an action.
func TestDecisionsCompact(t *testing.T) {
	raw := recordings.Load(t, "synthetic-10000")
	s, err := build.Build(raw, build.Options{})
	if err != nil {
		t.Fatal(err)
	}
	raw = nil
	before := heapInUse()
	_, dec := Flatten(s, dom.DefaultOptions())
	held := heapInUse() - before
	n := len(s.ByID)
	if dec.Len() != n {
		t.Fatalf("%d decisions for %d nodes", dec.Len(), n)
	}
	// 8 bytes the decision, 8 its node in preorder, 4 the ID's place.
	if per := float64(held) / float64(n); per > 32 {
		t.Errorf("the decisions hold %d bytes, %.1f a node; want at most 32", held, per)
	} else {
		t.Logf("the decisions hold %d bytes, %.1f a node", held, per)
	}
	runtime.KeepAlive(dec)
	runtime.KeepAlive(s)
}

// TestSameTreeKeepsNoOldTree: a view taken over for a snapshot that
// repeats another's tree names the new snapshot's nodes in its
// decisions. The old tree can go.
func TestSameTreeKeepsNoOldTree(t *testing.T) {
	raw := recordings.Load(t, "synthetic-10000")
	first, err := build.Build(raw, build.Options{})
	if err != nil {
		t.Fatal(err)
	}
	next, err := build.Build(raw, build.Options{Prev: first})
	if err != nil {
		t.Fatal(err)
	}
	v, err := NewView(first, dom.DefaultOptions(), false)
	if err != nil {
		t.Fatal(err)
	}
	old := weak.Make(first.Root.Children[0])
	nv := v.SameTree(next)
	if nv == nil {
		t.Fatal("no view taken over")
	}
	for id, d := range nv.Dec.All() {
		if next.ByID[id] == nil || (d.Into != "" && next.ByID[d.Into] == nil) {
			t.Fatalf("decision %s %+v names a node the snapshot lacks", id, d)
		}
	}
	first, v = nil, nil
	runtime.GC()
	if old.Value() != nil {
		t.Errorf("the view taken over keeps the old tree")
	}
	runtime.KeepAlive(nv)
}

// heapInUse is the live heap after a full collection.
func heapInUse() int64 {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return int64(ms.HeapAlloc)
}
