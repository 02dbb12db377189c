package live_test

import (
	"testing"

	"domscope/cdpconn/cdptest"
	. "domscope/dom"
	. "domscope/dom/live"
)

// TestIncrementalBuiltAhead: a refresh builds the tree while Chrome makes
// the layout and puts it right after. It covers:
//   - control values and states: typed text, a selected option, a box
//     ticked by a click or from script.
//   - bounds moved by a change above them.
//   - the viewport after a scroll, the title, names from changed text.
//
// A box that becomes zero-size, or a node whose tier changes, changes
// what the build decided. So that tree is built again. Every step equals
// a full capture of the page.
func TestIncrementalBuiltAhead(t *testing.T) {
	base, _ := cdptest.Serve(t, actionPages)
	svc, p := openService(t, base+"/ahead.html", Config{})
	tw := newTwin(t, svc, p)
	tw.check(t, "first")
	id := func(attr string) string { return byAttrID(t, snap(t, svc), attr).ID }
	for _, st := range []struct {
		name  string
		a     func() Action
		ahead bool
	}{
		{"type into a field", func() Action { return Action{Kind: "type", ID: id("q"), Text: "hello"} }, true},
		// an empty field has no AX value: its value is the layout's
		{"select its text", func() Action { return Action{Kind: "key", ID: id("q"), Key: "ctrl+a"} }, true},
		{"clear it", func() Action { return Action{Kind: "key", Key: "Backspace"} }, true},
		{"select an option", func() Action { return Action{Kind: "select", ID: id("size"), Value: "Large"} }, true},
		{"tick a box", func() Action { return Action{Kind: "click", ID: id("agree")} }, true},
		{"tick it from script", func() Action { return Action{Kind: "click", ID: id("tick")} }, true},
		{"move what is below", func() Action { return Action{Kind: "click", ID: id("grow")} }, true},
		{"rename the page", func() Action { return Action{Kind: "click", ID: id("retitle")} }, true},
		{"relabel a button", func() Action { return Action{Kind: "click", ID: id("relabel")} }, true},
		{"rename a card after its text", func() Action { return Action{Kind: "click", ID: id("recard")} }, true},
		// a new role makes a node in the card act: its tier changes, and
		// the card, named after its text, is no longer
		{"promote a node in the card", func() Action { return Action{Kind: "click", ID: id("promoter")} }, false},
		{"scroll", func() Action { return Action{Kind: "scroll", DY: 600} }, true},
		{"shrink a button to nothing", func() Action { return Action{Kind: "click", ID: id("shrink")} }, false},
	} {
		res := tw.do(t, st.a(), st.name)
		cur := svc.Current()
		if cur == nil || !cur.Incremental {
			t.Errorf("%s: the snapshot was not incremental (%s)", st.name, svc.Fallback())
			continue
		}
		if cur.BuiltAhead != st.ahead {
			t.Errorf("%s: built ahead %v, want %v (%+v)", st.name, cur.BuiltAhead, st.ahead, res.Snapshot)
		}
	}
}
