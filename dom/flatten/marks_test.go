package flatten

import (
	"fmt"
	"testing"

	"domscope/dom"
	"domscope/dom/build"
	"domscope/dom/internal/fixture"
)

// marksPage is a scrolling list of 12 items, 30 px each in a 100 px box,
// a button under a banner and an aria-modal dialog.
func marksPage(modal bool) *fixture.Node {
	var items []*fixture.Node
	for i := 1; i <= 12; i++ {
		name := fmt.Sprintf("Message %d", i)
		items = append(items, fixture.El("li", nil,
			fixture.El("h3", nil, fixture.Txt(name)).AX("heading", name).At(0, float64(i*30), 200, 10),
			fixture.El("button", nil, fixture.Txt("Open")).AX("button", "Open").At(200, float64(i*30), 50, 20),
		).AX("listitem", "").At(0, float64(i*30), 300, 30))
	}
	body := []*fixture.Node{
		fixture.El("ul", []string{"id", "inbox"}, items...).AX("list", "Inbox").Style("overflow", "auto").At(0, 30, 300, 100),
		fixture.El("button", []string{"id", "buy"}, fixture.Txt("Buy")).AX("button", "Buy").At(400, 400, 100, 40),
		fixture.El("div", []string{"id", "banner"}).At(0, 380, 800, 100),
	}
	if modal {
		body = append(body, fixture.El("div", []string{"id", "dlg", "aria-modal", "true"},
			fixture.El("button", nil, fixture.Txt("Keep")).AX("button", "Keep").At(300, 200, 50, 20),
		).AX("dialog", "Confirm").At(250, 150, 200, 100))
	}
	return fixture.Page(body...)
}

// TestViewMarks: a view keeps what its passes found of nodes beyond
// their lines (covered controls, the modal, folded items) and the scroll
// marks of its look, for the UI's tree.
func TestViewMarks(t *testing.T) {
	s := fixture.MustBuild(t, marksPage(true), build.Options{})
	list := fixture.Find(s, fixture.ByAttr("id", "inbox"))
	buy := fixture.Find(s, fixture.ByAttr("id", "buy"))
	banner := fixture.Find(s, fixture.ByAttr("id", "banner"))
	dlg := fixture.Find(s, fixture.ByAttr("id", "dlg"))
	if !list.Scrolls {
		t.Fatalf("the list's overflow scrolls: it should be marked")
	}
	var hits [dom.LookPoints]dom.Hit
	for k := range hits {
		hits[k] = dom.Hit{In: true, Node: banner}
	}
	look := &dom.Look{Scroll: map[*dom.VirtualNode]*dom.Scroll{list: {Top: 0, Height: 390, ClientHeight: 100, Width: 300, ClientWidth: 300}},
		Hits: map[*dom.VirtualNode]*[dom.LookPoints]dom.Hit{buy: &hits}}
	o := dom.DefaultOptions()
	o.Fold, o.ModalScope, o.Covered, o.Look = true, true, true, look
	v, err := NewView(s, o, false)
	if err != nil {
		t.Fatal(err)
	}
	// Buy lies behind the modal: scoped out of the lines, still covered
	if got := v.Marks.Covered[buy.ID]; got != banner.ID {
		t.Errorf("covered marks %v, want %s by %s", v.Marks.Covered, buy.ID, banner.ID)
	}
	if v.Marks.Modal != dlg.ID {
		t.Errorf("modal %q, want %s", v.Marks.Modal, dlg.ID)
	}
	if got := v.Scrolls[list.ID]; got != "scroll 0% ↓" {
		t.Errorf("the list's scroll mark %q", got)
	}
	if len(v.Marks.Folded) != 0 {
		t.Errorf("folds in a view the modal scoped: %v", v.Marks.Folded)
	}
	// with no modal the list folds: nine items after the first three
	s = fixture.MustBuild(t, marksPage(false), build.Options{})
	o.Look = nil
	v, _ = NewView(s, o, false)
	first := fixture.Find(s, fixture.ByAttr("id", "inbox")).Children[0]
	if len(v.Marks.Folded) != 9 {
		t.Errorf("%d items folded, want 9: %v", len(v.Marks.Folded), v.Marks.Folded)
	}
	for id, like := range v.Marks.Folded {
		if like != first.ID {
			t.Errorf("%s folded like %s, want %s", id, like, first.ID)
		}
	}
	if v.Scrolls != nil || v.Marks.Covered != nil {
		t.Errorf("marks without a look: %v %v", v.Scrolls, v.Marks.Covered)
	}
}

// TestLookWantsNotClipped: a control scrolled out of its list is not hit
// tested (it would be "covered" by what lies behind the list); one in
// the list's box and one outside any list are.
func TestLookWantsNotClipped(t *testing.T) {
	s := fixture.MustBuild(t, marksPage(false), build.Options{})
	_, controls := LookWants(s, true)
	in := map[string]bool{}
	for _, c := range controls {
		in[c.Name+fmt.Sprint(c.Bounds.Y)] = true
	}
	if !in["Buy400"] || !in["Open30"] || !in["Open60"] {
		t.Errorf("controls in view not hit-tested: %v", in)
	}
	if in["Open150"] || in["Open360"] {
		t.Errorf("controls scrolled out of the list are hit-tested: %v", in)
	}
}
