package dom

import "testing"

// TestDecisionsIDs: every form of ID finds its own decision: node_N,
// node_N written another way, numbers far past the tree's size, other
// names. Into names a node by its ID.
func TestDecisionsIDs(t *testing.T) {
	ids := []string{"node_1", "node_012", "node_12", "node_99999999", "frame-x", "", "node_", "node_-3"}
	nodes := make([]*VirtualNode, len(ids))
	for i, id := range ids {
		nodes[i] = &VirtualNode{ID: id}
	}
	d := NewDecisions(nodes)
	for i := range ids {
		d.Set(i, DecisionKind(i%3), "rule-"+ids[i], i-1)
	}
	d.Change(2, Drop, "changed")
	if d.Len() != len(ids) || d.Size() != len(ids) {
		t.Fatalf("%d decisions of %d nodes, want %d", d.Len(), d.Size(), len(ids))
	}
	for i, id := range ids {
		got, ok := d.Lookup(id)
		want := Decision{Kind: DecisionKind(i % 3), Rule: "rule-" + id}
		if i > 0 {
			want.Into = ids[i-1]
		}
		if i == 2 {
			want.Kind, want.Rule = Drop, "changed"
		}
		if !ok || got != want {
			t.Errorf("%q: %+v %v, want %+v", id, got, ok, want)
		}
	}
	for _, id := range []string{"node_2", "node_0012", "12", "node_99999998"} {
		if _, ok := d.Lookup(id); ok || d.Index(id) != -1 {
			t.Errorf("%q has a decision", id)
		}
	}
	n := 0
	for id, dec := range d.All() {
		if id != ids[n] || dec != d.Get(id) {
			t.Errorf("All: %q %+v at %d", id, dec, n)
		}
		n++
	}
	if n != len(ids) {
		t.Errorf("All yields %d", n)
	}
	var zero Decisions
	if _, ok := zero.Lookup("node_1"); ok || zero.Len() != 0 {
		t.Error("the zero value holds a decision")
	}
	zero.Set(0, Keep, "x", -1) // out of range: ignored
}

// TestDecisionsUnset: a node the flatten did not reach (outside its
// roots) has no decision and is not listed.
func TestDecisionsUnset(t *testing.T) {
	nodes := []*VirtualNode{{ID: "node_1"}, {ID: "node_2"}, {ID: "node_3"}}
	d := NewDecisions(nodes)
	d.Set(1, Keep, "keep-semantic", -1)
	if _, ok := d.Lookup("node_1"); ok {
		t.Error("node_1 has a decision")
	}
	if got := d.Get("node_2"); got != (Decision{Kind: Keep, Rule: "keep-semantic"}) || d.Len() != 1 {
		t.Errorf("node_2: %+v, %d decisions", got, d.Len())
	}
	for id := range d.All() {
		if id != "node_2" {
			t.Errorf("All lists %s", id)
		}
	}
}

// TestIDIndex: an index finds each ID's first place, whatever its form,
// and nothing else.
func TestIDIndex(t *testing.T) {
	ids := []string{"node_7", "x", "node_3", "node_7", "node_5000", "node_03", ""}
	x := NewIDIndex(len(ids), func(i int) string { return ids[i] })
	want := map[string]int{"node_7": 0, "x": 1, "node_3": 2, "node_5000": 4, "node_03": 5, "": 6}
	for id, i := range want {
		if got := x.Find(id); got != i {
			t.Errorf("%q at %d, want %d", id, got, i)
		}
	}
	for _, id := range []string{"node_4", "node_0", "3", "node_+3", "node_1234567890123"} {
		if got := x.Find(id); got != -1 {
			t.Errorf("%q found at %d", id, got)
		}
	}
	if (IDIndex{}).Find("node_1") != -1 {
		t.Error("the zero index finds node_1")
	}
}

// TestDecisionsWithNodes: decisions move to a tree with the same IDs in
// the same order, and to no other: found by position, they would name
// another node's decision.
func TestDecisionsWithNodes(t *testing.T) {
	mk := func(ids ...string) []*VirtualNode {
		nodes := make([]*VirtualNode, len(ids))
		for i, id := range ids {
			nodes[i] = &VirtualNode{ID: id}
		}
		return nodes
	}
	d := NewDecisions(mk("node_1", "node_2", "node_3"))
	d.Set(1, Drop, "drop", -1)
	same := mk("node_1", "node_2", "node_3")
	if nd, ok := d.WithNodes(same); !ok || nd.Get("node_2").Kind != Drop {
		t.Errorf("the same tree: %v", ok)
	}
	for _, other := range [][]*VirtualNode{mk("node_1", "node_3", "node_2"), mk("node_1", "node_2")} {
		if _, ok := d.WithNodes(other); ok {
			t.Errorf("decisions moved to a tree of other IDs (%d nodes)", len(other))
		}
	}
}
