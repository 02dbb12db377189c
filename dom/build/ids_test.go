package build_test

import (
	"testing"

	"domscope/dom"
	"domscope/dom/build"
	"domscope/dom/internal/fixture"
)

func TestNormalizeIDForms(t *testing.T) {
	for in, want := range map[string]string{"12": "node_12", "[12]": "node_12", "node_12": "node_12", " 7 ": "node_7", "x": "x"} {
		if got := dom.NormalizeID(in); got != want {
			t.Errorf("NormalizeID(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestIDsSurviveARebuild: the same backend node in the same document keeps
// its ID. A new node gets a number never used before. A new document (same
// frame, new #document) does not inherit old IDs.
func TestIDsSurviveARebuild(t *testing.T) {
	button := func(id string, backend int64) *fixture.Node {
		b := fixture.El("button", []string{"id", id}, fixture.Txt(id)).AX("button", id)
		b.ID, b.Kids[0].ID = backend, backend+1
		return b
	}
	mk := func(doc int64, extra bool) *fixture.Node {
		kids := []*fixture.Node{button("a", 10)}
		if extra {
			kids = append(kids, button("new", 30))
		}
		kids = append(kids, button("b", 20))
		p := fixture.Page(kids...)
		p.ID, p.Kids[0].ID, p.Kids[0].Kids[0].ID = doc, 2, 3
		return p
	}
	first := fixture.MustBuild(t, mk(1, false), build.Options{})
	aID, bID := fixture.Find(first, fixture.ByAttr("id", "a")).ID, fixture.Find(first, fixture.ByAttr("id", "b")).ID

	second := fixture.MustBuild(t, mk(1, true), build.Options{Prev: first})
	if got := fixture.Find(second, fixture.ByAttr("id", "a")).ID; got != aID {
		t.Errorf("a: %s, was %s", got, aID)
	}
	if got := fixture.Find(second, fixture.ByAttr("id", "b")).ID; got != bID {
		t.Errorf("b: %s, was %s", got, bID)
	}
	newID := fixture.Find(second, fixture.ByAttr("id", "new")).ID
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

	// A third build removes "new" again. Its ID is not reused for anything.
	third := fixture.MustBuild(t, mk(1, false), build.Options{Prev: second})
	if third.Node(newID) != nil {
		t.Errorf("removed node's ID %s still resolves", newID)
	}
	if got := fixture.Find(third, fixture.ByAttr("id", "a")).ID; got != aID {
		t.Errorf("a after removal: %s, was %s", got, aID)
	}

	// A new document in the same frame (navigation): nothing carries over.
	fresh := fixture.MustBuild(t, mk(99, false), build.Options{Prev: first})
	if got := fixture.Find(fresh, fixture.ByAttr("id", "a")).ID; got == aID {
		t.Errorf("a node of a new document kept the old ID %s", got)
	}
}

// TestIDsGivenOnce: an ID is given to one node only, even when hostile
// input names a backend node twice. A previous snapshot may claim a huge
// next number (a file may) or IDs not of the form node_N. That neither
// breaks the build nor loses those IDs.
func TestIDsGivenOnce(t *testing.T) {
	twice := func(doc int64) *fixture.Node {
		a := fixture.El("button", []string{"id", "a"}, fixture.Txt("a")).AX("button", "a")
		b := fixture.El("button", []string{"id", "b"}, fixture.Txt("b")).AX("button", "b")
		a.ID, a.Kids[0].ID, b.ID, b.Kids[0].ID = 10, 11, 10, 12
		p := fixture.Page(a, b)
		p.ID, p.Kids[0].ID, p.Kids[0].Kids[0].ID = doc, 2, 3
		return p
	}
	first := fixture.MustBuild(t, twice(1), build.Options{})
	second := fixture.MustBuild(t, twice(1), build.Options{Prev: first})
	if len(second.ByID) != len(first.ByID) {
		t.Fatalf("%d nodes, then %d", len(first.ByID), len(second.ByID))
	}
	a, b := fixture.Find(second, fixture.ByAttr("id", "a")), fixture.Find(second, fixture.ByAttr("id", "b"))
	if a.ID == b.ID {
		t.Errorf("two nodes got %s", a.ID)
	}

	// A previous snapshot as a file could give it: a huge next number,
	// and one ID in another form.
	odd := *first
	odd.NextID = 1 << 40
	odd.ByID = map[string]*dom.VirtualNode{}
	for id, n := range first.ByID {
		if n.BackendID == 12 { // b's text
			id, n.ID = "custom", "custom"
		}
		odd.ByID[id] = n
	}
	third := fixture.MustBuild(t, twice(1), build.Options{Prev: &odd})
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
