package build_test

import (
	"testing"

	"domscope/dom"
	"domscope/dom/build"
	"domscope/dom/flatten"
	"domscope/dom/internal/fixture"
)

func TestVisibility(t *testing.T) {
	btn := func() *fixture.Node {
		return fixture.El("button", []string{"id", "t"}, fixture.Txt("B")).AX("button", "B")
	}
	cases := []struct {
		name string
		tree func() *fixture.Node // contains a node with id=t
		want string               // Hidden of the node t; "" = visible
	}{
		{"visible", func() *fixture.Node { return fixture.Page(btn()) }, ""},
		{"display none", func() *fixture.Node { return fixture.Page(btn().NoBox()) }, dom.HiddenDisplayNone},
		{"hidden attribute", func() *fixture.Node {
			return fixture.Page(fixture.El("div", []string{"id", "t", "hidden", ""}).NoBox())
		}, dom.HiddenAttr},
		{"inside display none", func() *fixture.Node { return fixture.Page(fixture.El("div", nil, btn().NoBox()).NoBox()) }, dom.HiddenInherited},
		{"visibility hidden", func() *fixture.Node { return fixture.Page(btn().Style("visibility", "hidden")) }, dom.HiddenVisibility},
		{"zero size", func() *fixture.Node {
			return fixture.Page(fixture.El("button", []string{"id", "t"}).AX("button", "B").At(0, 0, 0, 20))
		}, dom.HiddenZeroSize},
		{"zero size, its text too", func() *fixture.Node {
			return fixture.Page(fixture.El("button", []string{"id", "t"}, fixture.Txt("B").At(0, 0, 0, 0)).At(0, 0, 0, 20))
		}, dom.HiddenZeroSize},
		{"zero size, its content not drawn", func() *fixture.Node {
			return fixture.Page(fixture.El("div", []string{"id", "t"}, fixture.El("p", nil, fixture.Txt("T").Style("visibility", "hidden")).Style("visibility", "hidden"), fixture.El("span", nil).At(0, 0, 0, 0)).At(0, 0, 0, 0))
		}, dom.HiddenZeroSize},
		{"an inline that wraps a block", func() *fixture.Node {
			return fixture.Page(fixture.El("a", []string{"id", "t", "href", "#/"}, fixture.El("h1", nil, fixture.Txt("todos")).At(0, 0, 500, 40)).AX("link", "todos").At(0, 20, 0, 0))
		}, ""},
		{"aria-hidden", func() *fixture.Node {
			return fixture.Page(fixture.El("div", []string{"id", "t", "aria-hidden", "true"}))
		}, dom.HiddenAriaHidden},
		{"under aria-hidden", func() *fixture.Node { return fixture.Page(fixture.El("div", []string{"aria-hidden", "true"}, btn())) }, dom.HiddenInherited},
		{"inert", func() *fixture.Node { return fixture.Page(fixture.El("div", []string{"inert", ""}, btn())) }, dom.HiddenInherited},
		{"closed details", func() *fixture.Node {
			return fixture.Page(fixture.El("details", nil, fixture.El("summary", nil, fixture.Txt("S")), btn()))
		}, dom.HiddenClosedDetails},
		{"open details", func() *fixture.Node {
			return fixture.Page(fixture.El("details", []string{"open", ""}, fixture.El("summary", nil, fixture.Txt("S")), btn()))
		}, ""},
		{"summary of a closed details", func() *fixture.Node {
			return fixture.Page(fixture.El("details", nil, fixture.El("summary", []string{"id", "t"}, fixture.Txt("S"))))
		}, ""},
		{"transparent text", func() *fixture.Node {
			return fixture.Page(fixture.El("div", []string{"id", "t"}, fixture.Txt("T")).Style("opacity", "0"))
		}, dom.HiddenOpacity},
		{"transparent control still acts", func() *fixture.Node { return fixture.Page(fixture.El("div", nil, btn()).Style("opacity", "0")) }, ""},
		{"display contents", func() *fixture.Node { return fixture.Page(fixture.El("div", []string{"id", "t"}, btn()).Contents()) }, ""},
		{"zero-size parent, visible child", func() *fixture.Node { return fixture.Page(fixture.El("div", nil, btn()).At(0, 0, 0, 0)) }, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := fixture.MustBuild(t, c.tree(), build.Options{})
			n := fixture.Find(s, fixture.ByAttr("id", "t"))
			if n == nil {
				t.Fatal("no node t")
			}
			if n.Hidden != c.want || n.Visible != (c.want == "") {
				t.Errorf("Hidden=%q Visible=%v, want %q", n.Hidden, n.Visible, c.want)
			}
		})
	}
}

func TestInViewport(t *testing.T) {
	s := fixture.MustBuild(t, fixture.Page(
		fixture.El("a", []string{"id", "in", "href", "/"}).At(10, 10, 50, 20),
		fixture.El("a", []string{"id", "out", "href", "/"}).At(10, 5000, 50, 20),
	), build.Options{})
	if !fixture.Find(s, fixture.ByAttr("id", "in")).InViewport || fixture.Find(s, fixture.ByAttr("id", "out")).InViewport {
		t.Error("InViewport wrong")
	}
	sd, _ := flatten.Flatten(s, dom.DefaultOptions())
	out := fixture.FindSerialized(sd.Nodes, fixture.Find(s, fixture.ByAttr("id", "out")).ID)
	if out == nil || !out.Offscreen {
		t.Errorf("offscreen link: %+v", out)
	}
	o := dom.DefaultOptions()
	o.IncludeOffscreen = false
	sd, d := flatten.Flatten(s, o)
	if fixture.FindSerialized(sd.Nodes, fixture.Find(s, fixture.ByAttr("id", "out")).ID) != nil {
		t.Error("offscreen link kept with IncludeOffscreen=false")
	}
	if d.Get(fixture.Find(s, fixture.ByAttr("id", "out")).ID).Rule != flatten.FlatHoistOffscreen {
		t.Error("no hoist-offscreen decision")
	}
}

func TestHiddenIframeHidesItsDocument(t *testing.T) {
	frame := func(host *fixture.Node) *fixture.Node {
		host.Kids = []*fixture.Node{{Tag: "#document", Kids: []*fixture.Node{fixture.El("html", nil, fixture.El("body", nil,
			fixture.El("button", []string{"id", "t"}, fixture.Txt("In frame")).AX("button", "In frame")))}}}
		return fixture.Page(host)
	}
	for name, host := range map[string]*fixture.Node{
		"display:none": fixture.El("iframe", nil).Contents(),
		"zero size":    fixture.El("iframe", nil).At(0, 0, 0, 0),
		"aria-hidden":  fixture.El("iframe", []string{"aria-hidden", "true"}),
	} {
		s := fixture.MustBuild(t, frame(host), build.Options{})
		if n := fixture.Find(s, fixture.ByAttr("id", "t")); n.Visible {
			t.Errorf("%s: button in a hidden frame is visible", name)
		}
	}
	s := fixture.MustBuild(t, frame(fixture.El("iframe", nil)), build.Options{})
	if n := fixture.Find(s, fixture.ByAttr("id", "t")); !n.Visible {
		t.Errorf("button in a shown frame is hidden: %s", n.Hidden)
	}
}
