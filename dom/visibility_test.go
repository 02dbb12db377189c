package dom

import "testing"

func TestVisibility(t *testing.T) {
	btn := func() *tn { return el("button", []string{"id", "t"}, txt("B")).ax("button", "B") }
	cases := []struct {
		name string
		tree func() *tn // contains a node with id=t
		want string     // Hidden of the node t; "" = visible
	}{
		{"visible", func() *tn { return page(btn()) }, ""},
		{"display none", func() *tn { return page(btn().noBox()) }, HiddenDisplayNone},
		{"hidden attribute", func() *tn { return page(el("div", []string{"id", "t", "hidden", ""}).noBox()) }, HiddenAttr},
		{"inside display none", func() *tn { return page(el("div", nil, btn().noBox()).noBox()) }, HiddenInherited},
		{"visibility hidden", func() *tn { return page(btn().style("visibility", "hidden")) }, HiddenVisibility},
		{"zero size", func() *tn { return page(el("button", []string{"id", "t"}).ax("button", "B").at(0, 0, 0, 20)) }, HiddenZeroSize},
		{"zero size, its text too", func() *tn { return page(el("button", []string{"id", "t"}, txt("B").at(0, 0, 0, 0)).at(0, 0, 0, 20)) }, HiddenZeroSize},
		{"zero size, its content not drawn", func() *tn {
			return page(el("div", []string{"id", "t"}, el("p", nil, txt("T").style("visibility", "hidden")).style("visibility", "hidden"), el("span", nil).at(0, 0, 0, 0)).at(0, 0, 0, 0))
		}, HiddenZeroSize},
		{"an inline that wraps a block", func() *tn {
			return page(el("a", []string{"id", "t", "href", "#/"}, el("h1", nil, txt("todos")).at(0, 0, 500, 40)).ax("link", "todos").at(0, 20, 0, 0))
		}, ""},
		{"aria-hidden", func() *tn { return page(el("div", []string{"id", "t", "aria-hidden", "true"})) }, HiddenAriaHidden},
		{"under aria-hidden", func() *tn { return page(el("div", []string{"aria-hidden", "true"}, btn())) }, HiddenInherited},
		{"inert", func() *tn { return page(el("div", []string{"inert", ""}, btn())) }, HiddenInherited},
		{"closed details", func() *tn {
			return page(el("details", nil, el("summary", nil, txt("S")), btn()))
		}, HiddenClosedDetails},
		{"open details", func() *tn {
			return page(el("details", []string{"open", ""}, el("summary", nil, txt("S")), btn()))
		}, ""},
		{"summary of a closed details", func() *tn {
			return page(el("details", nil, el("summary", []string{"id", "t"}, txt("S"))))
		}, ""},
		{"transparent text", func() *tn { return page(el("div", []string{"id", "t"}, txt("T")).style("opacity", "0")) }, HiddenOpacity},
		{"transparent control still acts", func() *tn { return page(el("div", nil, btn()).style("opacity", "0")) }, ""},
		{"display contents", func() *tn { return page(el("div", []string{"id", "t"}, btn()).contents()) }, ""},
		{"zero-size parent, visible child", func() *tn { return page(el("div", nil, btn()).at(0, 0, 0, 0)) }, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := mustBuild(t, c.tree(), BuildOptions{})
			n := findNode(s, byAttr("id", "t"))
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
	s := mustBuild(t, page(
		el("a", []string{"id", "in", "href", "/"}).at(10, 10, 50, 20),
		el("a", []string{"id", "out", "href", "/"}).at(10, 5000, 50, 20),
	), BuildOptions{})
	if !findNode(s, byAttr("id", "in")).InViewport || findNode(s, byAttr("id", "out")).InViewport {
		t.Error("InViewport wrong")
	}
	sd, _ := Flatten(s, DefaultOptions())
	out := findSerialized(sd.Nodes, findNode(s, byAttr("id", "out")).ID)
	if out == nil || !out.Offscreen {
		t.Errorf("offscreen link: %+v", out)
	}
	o := DefaultOptions()
	o.IncludeOffscreen = false
	sd, d := Flatten(s, o)
	if findSerialized(sd.Nodes, findNode(s, byAttr("id", "out")).ID) != nil {
		t.Error("offscreen link kept with IncludeOffscreen=false")
	}
	if d[findNode(s, byAttr("id", "out")).ID].Rule != FlatHoistOffscreen {
		t.Error("no hoist-offscreen decision")
	}
}

func findSerialized(l []*SerializedNode, id string) *SerializedNode {
	stack := append([]*SerializedNode(nil), l...)
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if n.ID == id {
			return n
		}
		stack = append(stack, n.Children...)
	}
	return nil
}

func TestHiddenIframeHidesItsDocument(t *testing.T) {
	frame := func(host *tn) *tn {
		host.kids = []*tn{{tag: "#document", kids: []*tn{el("html", nil, el("body", nil,
			el("button", []string{"id", "t"}, txt("In frame")).ax("button", "In frame")))}}}
		return page(host)
	}
	for name, host := range map[string]*tn{
		"display:none": el("iframe", nil).contents(),
		"zero size":    el("iframe", nil).at(0, 0, 0, 0),
		"aria-hidden":  el("iframe", []string{"aria-hidden", "true"}),
	} {
		s := mustBuild(t, frame(host), BuildOptions{})
		if n := findNode(s, byAttr("id", "t")); n.Visible {
			t.Errorf("%s: button in a hidden frame is visible", name)
		}
	}
	s := mustBuild(t, frame(el("iframe", nil)), BuildOptions{})
	if n := findNode(s, byAttr("id", "t")); !n.Visible {
		t.Errorf("button in a shown frame is hidden: %s", n.Hidden)
	}
}
