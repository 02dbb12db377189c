package build_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"domscope/dom"
	"domscope/dom/build"
	"domscope/dom/flatten"
	"domscope/dom/internal/fixture"
)

// unlisted rewrites a capture's layout as a DOMSnapshot reply does it.
// Every node is listed, parentIndex beside, but for the nodes of ids. It
// is as if the page inserted them after Chrome made the layout. complete
// false drops parentIndex instead: a layout that lists only what it says.
func unlisted(t *testing.T, raw *dom.RawCapture, complete bool, ids ...int64) {
	t.Helper()
	var snap map[string]any
	if err := json.Unmarshal(raw.Targets[0].Layout, &snap); err != nil {
		t.Fatal(err)
	}
	doc := snap["documents"].([]any)[0].(map[string]any)
	nodes := doc["nodes"].(map[string]any)
	list := nodes["backendNodeId"].([]any)
	parents := make([]int, len(list))
	for i, v := range list {
		parents[i] = -1
		if slices.Contains(ids, int64(v.(float64))) {
			list[i] = 1 << 40 // another node: the indexes of the rest stay
		}
	}
	if complete {
		nodes["parentIndex"] = parents
	}
	b, err := json.Marshal(snap)
	if err != nil {
		t.Fatal(err)
	}
	raw.Targets[0].Layout = b
}

// A node the layout does not list came after it. It is shown as its
// parent is, never judged not rendered for want of a box. A node the
// layout lists with no box is not drawn, as before.
func TestUnlaidNodes(t *testing.T) {
	text := fixture.Txt("Hello").NoBox()
	late := fixture.El("div", []string{"id", "late"}, fixture.Txt("Late")).NoBox()
	gone := fixture.El("div", []string{"id", "gone"}).NoBox()
	under := fixture.Txt("Under")
	hidden := fixture.El("div", []string{"id", "hidden"}, under).NoBox()
	root := fixture.Page(fixture.El("p", []string{"id", "p"}, text).At(0, 0, 200, 20), late, gone, hidden)
	for _, complete := range []bool{true, false} {
		raw := fixture.CaptureOf(root)
		unlisted(t, raw, complete, text.ID, late.ID, late.Kids[0].ID, under.ID)
		s, err := build.Build(raw, build.Options{})
		if err != nil {
			t.Fatal(err)
		}
		find := func(p func(*dom.VirtualNode) bool) *dom.VirtualNode {
			n := fixture.Find(s, p)
			if n == nil {
				t.Fatal("node missing")
			}
			return n
		}
		hello := find(func(n *dom.VirtualNode) bool { return n.Text == "Hello" })
		lateEl, lateText := find(fixture.ByAttr("id", "late")), find(func(n *dom.VirtualNode) bool { return n.Text == "Late" })
		goneEl, underText := find(fixture.ByAttr("id", "gone")), find(func(n *dom.VirtualNode) bool { return n.Text == "Under" })
		if !complete {
			// A layout that does not say it lists every node. No box means
			// not drawn.
			if hello.Hidden != dom.HiddenNotRendered || lateEl.Hidden != dom.HiddenDisplayNone {
				t.Errorf("without parentIndex: text %q, element %q", hello.Hidden, lateEl.Hidden)
			}
			continue
		}
		for _, n := range []*dom.VirtualNode{hello, lateEl, lateText} {
			if !n.Visible || n.Hidden != "" {
				t.Errorf("%s %q, inserted after the layout: hidden %q", n.Tag, n.Text, n.Hidden)
			}
		}
		if !hello.InViewport {
			t.Errorf("the text is not in the viewport, as its parent is")
		}
		if goneEl.Hidden != dom.HiddenDisplayNone {
			t.Errorf("a listed element with no box: hidden %q, want display:none", goneEl.Hidden)
		}
		if underText.Hidden != dom.HiddenInherited {
			t.Errorf("an unlisted text in a display:none parent: hidden %q, want inherited", underText.Hidden)
		}
		sd, _ := flatten.Flatten(s, dom.DefaultOptions())
		if got := flatten.FormatText(sd); !strings.Contains(got, "Hello") || !strings.Contains(got, "Late") {
			t.Errorf("the LLM view lacks what the page inserted:\n%s", got)
		}
	}
}
