package live_test

import (
	"strings"
	"testing"

	"domscope/cdpconn/cdptest"
	. "domscope/dom"
	. "domscope/dom/live"
)

// TestIncrementalPartialLayout acts on a page whose boxes move or change
// style without a DOM event, or outside the subtree that changed. Cases:
//   - a hover or :checked rule.
//   - a fixed box and a scroll.
//   - a float that grows out of its section.
//   - a script that sets a field's value.
//   - a section that grows and moves what follows.
//   - an element scrolled, a style sheet added.
//   - rows added to a scroll box, a box whose overflow comes to scroll.
//
// Every snapshot after an action is what a full capture of the same
// moment shows, in every format. A password typed in stays out of every
// output.
func TestIncrementalPartialLayout(t *testing.T) {
	base, _ := cdptest.Serve(t, actionPages)
	type step struct {
		step string
		act  func(s *Snapshot) Action
	}
	click := func(id string) func(s *Snapshot) Action {
		return func(s *Snapshot) Action { return Action{Kind: "click", ID: byAttrID(t, s, id).ID} }
	}
	for _, pg := range []struct {
		page  string
		steps []step
	}{
		{"partial.html", []step{
			{"click a button", click("barbtn")},
			{"grow the float", click("grow")},
			{"set a value by script", click("setv")},
			{"type into the field", func(s *Snapshot) Action { return Action{Kind: "type", ID: byAttrID(t, s, "v").ID, Text: "typed"} }},
			{"add a line", click("more")},
			{"scroll the box", click("scroll")},
			{"click in the scrolled box", click("inner")},
			{"add rows to the scrolled box", click("addrow")},
			{"let a box scroll", click("overflow")},
			{"type a password", func(s *Snapshot) Action { return Action{Kind: "type", ID: byAttrID(t, s, "pw").ID, Text: "hunter2"} }},
			{"scroll the page", func(s *Snapshot) Action { return Action{Kind: "scroll", DY: 200} }},
			{"add a style sheet", click("sheet")},
			{"click again", click("barbtn")},
		}},
		{"partial-states.html", []step{
			{"click a button", click("other")},
			{"hover the menu", func(s *Snapshot) Action { return Action{Kind: "hover", ID: byAttrID(t, s, "menu").ID} }},
			{"tick the checkbox by key", func(s *Snapshot) Action { return Action{Kind: "key", ID: byAttrID(t, s, "cb").ID, Key: "Space"} }},
			{"click another button", click("other")},
		}},
	} {
		t.Run(pg.page, func(t *testing.T) {
			svc, p := openService(t, base+"/"+pg.page, Config{})
			tw := newTwin(t, svc, p)
			tw.check(t, "first")
			for _, st := range pg.steps {
				tw.do(t, st.act(snap(t, svc)), st.step)
				for k, out := range outputs(t, snap(t, svc)) {
					if strings.Contains(out, "hunter2") {
						t.Errorf("%s: the %s output holds the typed password", st.step, k)
					}
				}
			}
			t.Logf("%d incremental, %d full", tw.incremental, tw.full)
			if tw.incremental == 0 {
				t.Errorf("no snapshot was incremental")
			}
		})
	}
}
