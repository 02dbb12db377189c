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

// TestViewTokensAfterActions: the service counts its text views line by
// line, reusing the last view's lines. The count is the whole text's,
// on a page that changes by itself (a ticker) and after actions.
func TestViewTokensAfterActions(t *testing.T) {
	base, _ := cdptest.Serve(t, actionPages)
	for _, page := range []string{"basic.html", "ticker.html"} {
		svc, _ := openService(t, base+"/"+page, Config{})
		for i := range 4 {
			if i == 1 && page == "basic.html" {
				mustOK(t, do(t, svc, "accept", Action{Kind: "click"}))
			}
			if i >= 2 && page == "basic.html" {
				mustOK(t, do(t, svc, "inc", Action{Kind: "click"}))
			}
			s := snap(t, svc)
			v, err := svc.View(s, DefaultOptions(), false)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := v.Tokens(), flatten.CountTokens(v.Text); got != want {
				t.Errorf("%s, read %d: %d tokens, the whole text has %d", page, i, got, want)
			}
		}
		_ = svc.Close()
	}
}
