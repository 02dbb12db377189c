package live_test

import (
	"strings"
	"testing"

	"domscope/cdpconn/cdptest"
	. "domscope/dom"
	. "domscope/dom/live"
)

// TestTypedTextClearedIsNoFlash: text an action typed into a field, which
// the page clears on Enter (TodoMVC's new-todo field), is the action's
// own input, not a message of the page that came and went. A toast
// shown and removed by the page still flashes.
func TestTypedTextClearedIsNoFlash(t *testing.T) {
	base, _ := cdptest.Serve(t, happenedPages)
	svc, p := openService(t, base+"/typed.html", Config{})
	for _, c := range []struct{ id, text string }{{"new", "buy milk\n"}, {"note", "call mum\n"}} {
		res := do(t, svc, c.id, Action{Kind: "type", Text: c.text})
		mustOK(t, res)
		if len(res.Flashed) != 0 {
			t.Errorf("%s: the typed text the page cleared is reported as flashed: %+v", c.id, res.Flashed)
		}
		if got := evalString(t, p, "document.getElementById("+jsq(c.id)+").value"); got != "" {
			t.Errorf("%s: the page did not clear the field: %q", c.id, got)
		}
	}
	if got := evalString(t, p, "document.getElementById('list').textContent"); got != "buy milk" {
		t.Errorf("the page did not add the item: %q", got)
	}
	res := do(t, svc, "toast", Action{Kind: "click"})
	mustOK(t, res)
	if !strings.Contains(flashText(res.Flashed), "status:Saved the list;") {
		t.Errorf("a toast that came and went is not flashed: %+v (announced %+v, flat %q)", res.Flashed, res.Announced, res.Changes.Flat)
	}
}
