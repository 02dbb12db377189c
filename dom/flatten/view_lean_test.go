package flatten

import (
	"bytes"
	"runtime"
	"testing"
	"weak"

	"domscope/dom"
	"domscope/dom/build"
	"domscope/dom/internal/fixture"
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
