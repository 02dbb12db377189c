package live_test

import (
	"encoding/json"
	"net/http"
	"net/url"
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
	u, err := url.Parse(cdptest.Browser(t).WebSocketURL())
	if err != nil {
		t.Fatal(err)
	}
	req, _ := http.NewRequestWithContext(ctx(t), http.MethodPut, "http://"+u.Host+"/json/new?"+base+"/page2.html", nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var made struct {
		ID string `json:"id"`
	}
	err = json.NewDecoder(resp.Body).Decode(&made)
	resp.Body.Close()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if r, err := http.Get("http://" + u.Host + "/json/close/" + made.ID); err == nil {
			r.Body.Close()
		}
	})
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
