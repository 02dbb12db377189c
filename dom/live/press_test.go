package live_test

import (
	"strings"
	"testing"

	"domscope/cdpconn/cdptest"
	. "domscope/dom"
	. "domscope/dom/live"
)

func TestKeysReachThePage(t *testing.T) {
	base, _ := cdptest.Serve(t, actionPages)
	svc, p := openService(t, base+"/basic.html", Config{})
	keys := byAttrID(t, snap(t, svc), "keys").ID
	press := func(key string, mods ...string) {
		t.Helper()
		s := snap(t, svc)
		id := ""
		if n := s.Node(keys); n != nil {
			id = n.ID
		}
		mustOK(t, svc.Do(ctx(t), Action{Kind: "key", ID: id, Key: key, Modifiers: mods}))
	}
	press("a")
	press("shift+b")
	press("1")
	press("Space")
	press("c", "Shift")
	if v := evalString(t, p, "document.getElementById('keys').value"); v != "aB1 C" {
		t.Fatalf("typed by keys: %q", v)
	}
	press("ctrl+a")
	press("Backspace")
	if v := evalString(t, p, "document.getElementById('keys').value"); v != "" {
		t.Fatalf("ctrl+a, Backspace left %q", v)
	}
	log := evalString(t, p, "window.keylog.join(' ')")
	for _, want := range []string{
		"keydown:a:KeyA:65:0000",
		"keydown:Shift:ShiftLeft:16:0100", "keydown:B:KeyB:66:0100",
		"keydown:1:Digit1:49:0000",
		"keydown: :Space:32:0000",
		"keydown:Control:ControlLeft:17:1000", "keydown:a:KeyA:65:1000",
		"keydown:Backspace:Backspace:8:0000",
	} {
		if !strings.Contains(log, want) {
			t.Errorf("page did not see %s in %s", want, log)
		}
	}
	// Tab moves focus out of the field; shift+Tab brings it back.
	press("Tab")
	next := evalString(t, p, "document.activeElement.id")
	if next == "keys" {
		t.Fatalf("Tab did not move focus")
	}
	mustOK(t, svc.Do(ctx(t), Action{Kind: "key", Key: "shift+Tab"}))
	if v := evalString(t, p, "document.activeElement.id"); v != "keys" {
		t.Fatalf("shift+Tab focused %q", v)
	}
	mustCode(t, svc.Do(ctx(t), Action{Kind: "key", Key: "Hyper+q"}), ValidationError)
}

func TestNavigateRefusesJavaScriptURLs(t *testing.T) {
	base, _ := cdptest.Serve(t, actionPages)
	svc, p := openService(t, base+"/basic.html", Config{})
	mustCode(t, do(t, svc, "", Action{Kind: "navigate", URL: "javascript:window.pwned=1"}), ValidationError)
	mustCode(t, do(t, svc, "", Action{Kind: "navigate", URL: "  "}), ValidationError)
	if v := evalJS(t, p, "window.pwned === undefined"); v != true {
		t.Fatalf("a javascript: URL ran")
	}
	res := do(t, svc, "", Action{Kind: "snapshot"})
	mustOK(t, res)
	if svc.Current() == nil {
		t.Fatalf("a snapshot action left no current snapshot")
	}
	mustCode(t, do(t, svc, "", Action{Kind: "fly"}), ValidationError)
}
