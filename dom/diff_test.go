package dom

import (
	"slices"
	"testing"
)

func TestDiff(t *testing.T) {
	mk := func(name string, extra bool) *tn {
		a := el("button", []string{"id", "a"}, txt(name)).ax("button", name)
		a.id, a.kids[0].id = 10, 11
		kids := []*tn{a}
		if extra {
			x := el("a", []string{"id", "x", "href", "/"}, txt("X")).ax("link", "X")
			x.id, x.kids[0].id = 20, 21
			kids = append(kids, x)
		}
		p := page(kids...)
		p.id, p.kids[0].id, p.kids[0].kids[0].id = 1, 2, 3
		return p
	}
	s1 := mustBuild(t, mk("Save", true), BuildOptions{})
	s2 := mustBuild(t, mk("Saved", false), BuildOptions{Prev: s1})
	d := Diff(s1, s2)
	a := findNode(s2, byAttr("id", "a")).ID
	x := findNode(s1, byAttr("id", "x")).ID
	if !slices.Contains(d.Renamed, a) {
		t.Errorf("renamed %v lacks %s", d.Renamed, a)
	}
	if !slices.Contains(d.Removed, x) || len(d.Removed) != 2 {
		t.Errorf("removed %v, want %s and its text", d.Removed, x)
	}
	if len(d.Added) != 0 {
		t.Errorf("added %v", d.Added)
	}
	back := Diff(s2, s1)
	if len(back.Added) != 2 || len(back.Removed) != 0 {
		t.Errorf("reverse diff %+v", back)
	}
	if !Diff(s1, s1).Empty() || Diff(nil, nil).Empty() != true {
		t.Error("self diff not empty")
	}
	if got := Diff(nil, s1); len(got.Added) != len(s1.ByID) {
		t.Errorf("diff from nothing: %d added", len(got.Added))
	}
}
