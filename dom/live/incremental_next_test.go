package live_test

import (
	"testing"

	"domscope/cdpconn/cdptest"
	. "domscope/dom"
	. "domscope/dom/live"
)

// TestIncrementalBuiltBetween: after a read, the next refresh's tree is
// built while nothing happens (next.go). An action that changes no DOM
// node takes it; one that does drops it and builds again. Every step
// equals a full capture of the page.
func TestIncrementalBuiltBetween(t *testing.T) {
	base, _ := cdptest.Serve(t, actionPages)
	svc, p := openService(t, base+"/ahead.html", Config{})
	tw := newTwin(t, svc, p)
	tw.check(t, "first")
	id := func(attr string) string { return byAttrID(t, snap(t, svc), attr).ID }
	used := svc.NextUsed()
	for _, st := range []struct {
		name string
		a    func() Action
		took bool // the refresh took the tree built since the last
	}{
		// typing and choosing make the page's own script change it
		{"type into a field", func() Action { return Action{Kind: "type", ID: id("q"), Text: "hello"} }, false},
		{"tick a box", func() Action { return Action{Kind: "click", ID: id("agree")} }, true},
		{"move what is below", func() Action { return Action{Kind: "click", ID: id("grow")} }, false},
		{"scroll", func() Action { return Action{Kind: "scroll", DY: 600} }, true},
		{"select an option", func() Action { return Action{Kind: "select", ID: id("size"), Value: "Large"} }, false},
		{"untick the box", func() Action { return Action{Kind: "click", ID: id("agree")} }, true},
		{"relabel a button", func() Action { return Action{Kind: "click", ID: id("relabel")} }, false},
		{"scroll back", func() Action { return Action{Kind: "scroll", DY: -600} }, true},
	} {
		tw.do(t, st.a(), st.name)
		cur := svc.Current()
		if cur == nil || !cur.Incremental {
			t.Errorf("%s: the snapshot was not incremental (%s)", st.name, svc.Fallback())
		}
		n := svc.NextUsed()
		if took := n > used; took != st.took {
			t.Errorf("%s: took the tree built before %v, want %v", st.name, took, st.took)
		}
		used = n
	}
}
