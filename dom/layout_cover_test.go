package dom

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// unlisted rewrites a capture's layout as a DOMSnapshot reply does it
// (every node listed, parentIndex beside) but for the nodes of ids: as
// if the page inserted them after Chrome made the layout. complete false
// drops parentIndex instead (a layout that lists only what it says).
func unlisted(t *testing.T, raw *RawCapture, complete bool, ids ...int64) {
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

// A node the layout does not list came after it: it is shown as its
// parent is, never judged not rendered for want of a box. A node the
// layout lists with no box is not drawn, as before.
func TestUnlaidNodes(t *testing.T) {
	text := txt("Hello").noBox()
	late := el("div", []string{"id", "late"}, txt("Late")).noBox()
	gone := el("div", []string{"id", "gone"}).noBox()
	under := txt("Under")
	hidden := el("div", []string{"id", "hidden"}, under).noBox()
	root := page(el("p", []string{"id", "p"}, text).at(0, 0, 200, 20), late, gone, hidden)
	for _, complete := range []bool{true, false} {
		raw := captureOf(root)
		unlisted(t, raw, complete, text.id, late.id, late.kids[0].id, under.id)
		s, err := Build(raw, BuildOptions{})
		if err != nil {
			t.Fatal(err)
		}
		find := func(p func(*VirtualNode) bool) *VirtualNode {
			n := findNode(s, p)
			if n == nil {
				t.Fatal("node missing")
			}
			return n
		}
		hello := find(func(n *VirtualNode) bool { return n.Text == "Hello" })
		lateEl, lateText := find(byAttr("id", "late")), find(func(n *VirtualNode) bool { return n.Text == "Late" })
		goneEl, underText := find(byAttr("id", "gone")), find(func(n *VirtualNode) bool { return n.Text == "Under" })
		if !complete {
			// a layout that does not say it lists every node: no box, not drawn
			if hello.Hidden != HiddenNotRendered || lateEl.Hidden != HiddenDisplayNone {
				t.Errorf("without parentIndex: text %q, element %q", hello.Hidden, lateEl.Hidden)
			}
			continue
		}
		for _, n := range []*VirtualNode{hello, lateEl, lateText} {
			if !n.Visible || n.Hidden != "" {
				t.Errorf("%s %q, inserted after the layout: hidden %q", n.Tag, n.Text, n.Hidden)
			}
		}
		if !hello.InViewport {
			t.Errorf("the text is not in the viewport, as its parent is")
		}
		if goneEl.Hidden != HiddenDisplayNone {
			t.Errorf("a listed element with no box: hidden %q, want display:none", goneEl.Hidden)
		}
		if underText.Hidden != HiddenInherited {
			t.Errorf("an unlisted text in a display:none parent: hidden %q, want inherited", underText.Hidden)
		}
		sd, _ := Flatten(s, DefaultOptions())
		if got := FormatText(sd); !strings.Contains(got, "Hello") || !strings.Contains(got, "Late") {
			t.Errorf("the LLM view lacks what the page inserted:\n%s", got)
		}
	}
}

func TestIDSet(t *testing.T) {
	var s idSet
	ids := []int64{0, 1, 63, 64, 65, 1000, maxBitmapID - 1, maxBitmapID, 1 << 40, -5}
	for _, id := range ids {
		s.add(id)
	}
	for _, id := range ids {
		if !s.has(id) {
			t.Errorf("has(%d) false", id)
		}
	}
	for _, id := range []int64{2, 62, 66, 999, maxBitmapID + 1} {
		if s.has(id) {
			t.Errorf("has(%d) true", id)
		}
	}
	var got []int64
	s.each(func(id int64) { got = append(got, id) })
	slices.Sort(got)
	want := slices.Clone(ids)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("each: %v, want %v", got, want)
	}
	var none *idSet
	if none.has(1) {
		t.Error("a nil set holds 1")
	}
}
