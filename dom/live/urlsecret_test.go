package live_test

import (
	"strings"
	"testing"

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
