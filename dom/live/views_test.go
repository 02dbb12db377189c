package live_test

import (
	"testing"

	"domscope/cdpconn/cdptest"
	. "domscope/dom"
	"domscope/dom/flatten"
	. "domscope/dom/live"
)

// TestActionViewIsShared: the flat view and the diff an action's result
// was made from are handed out as they are, not made again.
func TestActionViewIsShared(t *testing.T) {
	base, _ := cdptest.Serve(t, actionPages)
	svc, _ := openService(t, base+"/basic.html", Config{})
	mustOK(t, do(t, svc, "accept", Action{Kind: "click"})) // the cookie banner
	before := svc.Current()
	if before == nil {
		before = snap(t, svc)
	}
	res := do(t, svc, "inc", Action{Kind: "click"})
	mustOK(t, res)
	next := svc.Current()
	if next == nil || next == before {
		t.Fatalf("no new snapshot after the click")
	}
	w := workDone()
	v, err := svc.View(next, DefaultOptions(), false)
	if err != nil || v == nil || v.Snap != next {
		t.Fatalf("View: %v, %v", v, err)
	}
	d := svc.Diff(before, next)
	if got := workDone(); got != w {
		t.Fatalf("the view or diff was made again: %+v before, %+v after", w, got)
	}
	if d.Empty() != (res.Changes.Added+res.Changes.Removed+res.Changes.Renamed == 0 && len(res.Changes.Nodes) == 0) {
		t.Errorf("the diff handed out is not the action's: %+v, changes %+v", d, res.Changes)
	}
}

// workDone reads the derivation counters.
func workDone() [4]int64 {
	d := &flatten.Derivations
	return [4]int64{d.Flatten.Load(), d.Diff.Load(), d.Format.Load(), d.Tokens.Load()}
}
