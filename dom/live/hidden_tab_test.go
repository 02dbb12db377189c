package live_test

import (
	"testing"

	"domscope/cdpconn/cdptest"
	. "domscope/dom"
	"domscope/dom/internal/domtest"
	. "domscope/dom/live"
)

// TestActionInHiddenTab: another tab opened in front hides the service's
// tab. It runs no frames then, and Chrome held each click's mouse move
// for seconds. An action brings the tab to the front first, and lands.
func TestActionInHiddenTab(t *testing.T) {
	base, _ := cdptest.Serve(t, actionPages)
	svc, p := openService(t, base+"/basic.html", Config{})
	snap(t, svc)
	// A tab opened over HTTP goes into the last active window: ours.
	cdptest.TabOverHTTP(t, base+"/page2.html")
	cdptest.WaitFor(t, p, "document.visibilityState === 'hidden'")
	res := do(t, svc, "inc", Action{Kind: "click"})
	mustOK(t, res)
	if got := domtest.EvalJS(t, p, "window.clicks"); got != float64(1) {
		t.Errorf("the click in a hidden tab: window.clicks = %v", got)
	}
	if got := domtest.EvalJS(t, p, "document.visibilityState"); got != "visible" {
		t.Errorf("after an action the tab is %v, want visible (in front)", got)
	}
	if res.Effect != EffectChanged {
		t.Errorf("effect %q, want changed", res.Effect)
	}
}
