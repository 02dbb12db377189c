package live_test

import (
	"strings"
	"testing"

	"domscope/cdpconn/cdptest"
	. "domscope/dom"
	"domscope/dom/flatten"
	"domscope/dom/internal/domtest"
	. "domscope/dom/live"
)

// TestIncrementalZeroSizeWrapper: a link with no box of its own is shown
// once a block is put in it. It is hidden once it is emptied. The
// incremental snapshots show this as a full capture does.
func TestIncrementalZeroSizeWrapper(t *testing.T) {
	base, _ := cdptest.Serve(t, domtest.Testdata("pages"))
	svc, p := openService(t, base+"/zero-size.html", Config{})
	tw := newTwin(t, svc, p)
	flat := func() string {
		sd, _ := flatten.Flatten(snap(t, svc), DefaultOptions())
		return flatten.FormatText(sd)
	}
	if strings.Contains(flat(), `link "later"`) {
		t.Fatalf("the empty link is in the LLM view:\n%s", flat())
	}
	for i, st := range []struct {
		button string
		shown  bool
	}{{"fill", true}, {"empty", false}, {"fill", true}} {
		tw.do(t, Action{Kind: "click", ID: byAttrID(t, snap(t, svc), st.button).ID}, st.button)
		if got := strings.Contains(flat(), `link "later"`); got != st.shown {
			t.Errorf("step %d (%s): link \"later\" in the LLM view %v, want %v:\n%s", i, st.button, got, st.shown, flat())
		}
	}
	if tw.incremental == 0 {
		t.Errorf("no snapshot was incremental")
	}
}
