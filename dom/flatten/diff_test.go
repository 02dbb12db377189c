package flatten

import (
	"slices"
	"testing"

	"domscope/dom/build"
	"domscope/dom/internal/fixture"
)

func TestDiff(t *testing.T) {
	mk := func(name string, extra bool) *fixture.Node {
		a := fixture.El("button", []string{"id", "a"}, fixture.Txt(name)).AX("button", name)
		a.ID, a.Kids[0].ID = 10, 11
		kids := []*fixture.Node{a}
		if extra {
			x := fixture.El("a", []string{"id", "x", "href", "/"}, fixture.Txt("X")).AX("link", "X")
			x.ID, x.Kids[0].ID = 20, 21
			kids = append(kids, x)
		}
		p := fixture.Page(kids...)
		p.ID, p.Kids[0].ID, p.Kids[0].Kids[0].ID = 1, 2, 3
		return p
	}
	s1 := fixture.MustBuild(t, mk("Save", true), build.Options{})
	s2 := fixture.MustBuild(t, mk("Saved", false), build.Options{Prev: s1})
	d := Diff(s1, s2)
	a := fixture.Find(s2, fixture.ByAttr("id", "a")).ID
	x := fixture.Find(s1, fixture.ByAttr("id", "x")).ID
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
