package dom

import "testing"

func TestNormalizeIDForms(t *testing.T) {
	for in, want := range map[string]string{"12": "node_12", "[12]": "node_12", "node_12": "node_12", " 7 ": "node_7", "x": "x"} {
		if got := NormalizeID(in); got != want {
			t.Errorf("NormalizeID(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestIDsSurviveARebuild: the same backend node in the same document keeps
// its ID; a new node gets a number never used before; a new document (same
// frame, new #document) does not inherit old IDs.
func TestIDsSurviveARebuild(t *testing.T) {
	button := func(id string, backend int64) *tn {
		b := el("button", []string{"id", id}, txt(id)).ax("button", id)
		b.id, b.kids[0].id = backend, backend+1
		return b
	}
	mk := func(doc int64, extra bool) *tn {
		kids := []*tn{button("a", 10)}
		if extra {
			kids = append(kids, button("new", 30))
		}
		kids = append(kids, button("b", 20))
		p := page(kids...)
		p.id, p.kids[0].id, p.kids[0].kids[0].id = doc, 2, 3
		return p
	}
	first := mustBuild(t, mk(1, false), BuildOptions{})
	aID, bID := findNode(first, byAttr("id", "a")).ID, findNode(first, byAttr("id", "b")).ID

	second := mustBuild(t, mk(1, true), BuildOptions{Prev: first})
	if got := findNode(second, byAttr("id", "a")).ID; got != aID {
		t.Errorf("a: %s, was %s", got, aID)
	}
	if got := findNode(second, byAttr("id", "b")).ID; got != bID {
		t.Errorf("b: %s, was %s", got, bID)
	}
	newID := findNode(second, byAttr("id", "new")).ID
	if _, clash := first.ByID[newID]; clash {
		t.Errorf("the new node got an old ID %s", newID)
	}
	if second.NextID <= first.NextID {
		t.Errorf("NextID did not advance: %d -> %d", first.NextID, second.NextID)
	}
	for id, n := range second.ByID {
		if n.ID != id {
			t.Errorf("ByID[%s] is %s", id, n.ID)
		}
	}
	if len(second.ByID) != len(first.ByID)+2 {
		t.Errorf("%d nodes, want %d", len(second.ByID), len(first.ByID)+2)
	}

	// a third build removes "new" again: its ID is not reused for anything
	third := mustBuild(t, mk(1, false), BuildOptions{Prev: second})
	if third.Node(newID) != nil {
		t.Errorf("removed node's ID %s still resolves", newID)
	}
	if got := findNode(third, byAttr("id", "a")).ID; got != aID {
		t.Errorf("a after removal: %s, was %s", got, aID)
	}

	// A new document in the same frame (navigation): nothing carries over.
	fresh := mustBuild(t, mk(99, false), BuildOptions{Prev: first})
	if got := findNode(fresh, byAttr("id", "a")).ID; got == aID {
		t.Errorf("a node of a new document kept the old ID %s", got)
	}
}

// TestIDsGivenOnce: an ID is given to one node only, even when hostile
// input names a backend node twice, and a previous snapshot that claims
// a huge next number (a file may) or IDs not of the form node_N neither
// breaks the build nor loses those IDs.
func TestIDsGivenOnce(t *testing.T) {
	twice := func(doc int64) *tn {
		a := el("button", []string{"id", "a"}, txt("a")).ax("button", "a")
		b := el("button", []string{"id", "b"}, txt("b")).ax("button", "b")
		a.id, a.kids[0].id, b.id, b.kids[0].id = 10, 11, 10, 12
		p := page(a, b)
		p.id, p.kids[0].id, p.kids[0].kids[0].id = doc, 2, 3
		return p
	}
	first := mustBuild(t, twice(1), BuildOptions{})
	second := mustBuild(t, twice(1), BuildOptions{Prev: first})
	if len(second.ByID) != len(first.ByID) {
		t.Fatalf("%d nodes, then %d", len(first.ByID), len(second.ByID))
	}
	a, b := findNode(second, byAttr("id", "a")), findNode(second, byAttr("id", "b"))
	if a.ID == b.ID {
		t.Errorf("two nodes got %s", a.ID)
	}

	// A previous snapshot as a file could give it: a huge next number and
	// one ID in another form.
	odd := *first
	odd.NextID = 1 << 40
	odd.ByID = map[string]*VirtualNode{}
	for id, n := range first.ByID {
		if n.BackendID == 12 { // b's text
			id, n.ID = "custom", "custom"
		}
		odd.ByID[id] = n
	}
	third := mustBuild(t, twice(1), BuildOptions{Prev: &odd})
	seen := map[string]bool{}
	for id := range third.ByID {
		if seen[id] {
			t.Errorf("%s given twice", id)
		}
		seen[id] = true
	}
	if third.NextID < 1<<40 {
		t.Errorf("NextID went back to %d", third.NextID)
	}
	if n := third.Node("custom"); n == nil || n.BackendID != 12 {
		t.Errorf("the ID not of the form node_N went to %+v", n)
	}
}
