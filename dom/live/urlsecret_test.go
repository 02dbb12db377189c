package live_test

import (
	"net/url"
	"strings"
	"testing"

	"domscope/cdpconn/cdptest"
	"domscope/dom/internal/domtest"

	. "domscope/dom/live"
)

// TestURLSecretShownLater: a capture hides the credentials its URLs hold
// in every string. A page that shows one later, in a text or a value,
// must not show it through the live model either.
func TestURLSecretShownLater(t *testing.T) {
	const token = "tok9876543210"
	svc, p := openService(t, smallPageT(t)+"?token="+token, Config{})
	tw := newTwin(t, svc, p)
	for _, c := range []struct{ step, js string }{
		{"a text shows it", `document.querySelector("h1").textContent = "your token ` + token + `"`},
		{"a value holds it", `document.querySelector("#keys").value = "` + token + `"`},
		{"a title shows it", `document.title = "t ` + token + `"`},
	} {
		evalJS(t, tw.page, c.js)
		s, err := svc.Snapshot(ctx(t), true)
		if err != nil {
			t.Fatal(err)
		}
		if !s.Incremental {
			t.Errorf("%s: a full capture (%s): the live model was not tried", c.step, svc.Fallback())
		}
		tw.check(t, c.step)
		for k, out := range outputs(t, s) {
			if strings.Contains(out, token) {
				t.Errorf("%s: the URL's token reached the %s output", c.step, k)
			}
		}
	}
}

// TestURLSecretInFrame: an out-of-process frame is read whole at every
// refresh. Its URL's credential, shown in its text, stays hidden, as a
// capture hides it.
func TestURLSecretInFrame(t *testing.T) {
	const token = "frametok55566"
	u127, ulocal := cdptest.Serve(t, domtest.Testdata("pages", "url-secret"))
	svc, p := openService(t, u127+"/page.html?frame="+url.QueryEscape(ulocal+"/frame.html?token="+token), Config{})
	tw := newTwin(t, svc, p)
	cdptest.WaitFor(t, tw.page, "window.frameLoaded === true")
	if _, err := svc.Snapshot(ctx(t), true); err != nil { // the frame joins: a full capture
		t.Fatal(err)
	}
	evalJS(t, tw.page, `document.querySelector("#t").textContent = "A page, changed"`)
	s, err := svc.Snapshot(ctx(t), true)
	if err != nil {
		t.Fatal(err)
	}
	if !s.Incremental {
		t.Errorf("a full capture (%s): the live model was not tried", svc.Fallback())
	}
	if !strings.Contains(outputs(t, s)["text"], "token is") {
		t.Errorf("the frame's text is not in the view:\n%s", outputs(t, s)["text"])
	}
	tw.check(t, "a change after the frame loaded")
	for k, out := range outputs(t, s) {
		if strings.Contains(out, token) {
			t.Errorf("the frame's token reached the %s output", k)
		}
	}
}
