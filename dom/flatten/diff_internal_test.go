package flatten

import (
	"testing"

	"domscope/dom"
	"domscope/dom/build"
	"domscope/dom/internal/recordings"
)

// TestDiffInStep: two builds of one page are compared walking both trees
// side by side (TestDiffSameAsTwoPasses checks what it lists). A
// snapshot whose ByID is not its tree's nodes is compared through ByID.
func TestDiffInStep(t *testing.T) {
	raw := recordings.Load(t, "synthetic-10000")
	a, err := build.Build(raw, build.Options{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := build.Build(raw, build.Options{Prev: a})
	if err != nil {
		t.Fatal(err)
	}
	visited := 0
	if !inStep(a, b, func(string, *dom.VirtualNode, *dom.VirtualNode) { visited++ }) || visited != len(b.ByID) {
		t.Errorf("not compared in step (%d of %d nodes)", visited, len(b.ByID))
	}
	if d := Diff(a, b); !d.Empty() {
		t.Errorf("a page and its rebuild differ: %+v", d)
	}
	c := *b
	c.ByID = map[string]*dom.VirtualNode{}
	for id, n := range b.ByID {
		if n != b.Root {
			c.ByID[id] = n
		}
	}
	if inStep(a, &c, func(string, *dom.VirtualNode, *dom.VirtualNode) {}) {
		t.Errorf("compared in step a snapshot whose ByID lacks its root")
	}
}
