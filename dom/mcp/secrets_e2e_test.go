package mcp_test

import (
	"strings"
	"testing"

	"domscope/dom"
	"domscope/dom/mcp"
)

// TestKeyOnFocusedPasswordMasked: dom_key with no id, while the password
// field has the focus, is masked in the log and the observed call.
func TestKeyOnFocusedPasswordMasked(t *testing.T) {
	f := setup(t, mcp.ViewDiff, "")
	view := f.ok("dom_snapshot", nil)
	f.ok("dom_click", map[string]any{"id": idOf(t, view, `textbox "Password"`)})
	f.ok("dom_key", map[string]any{"key": "Q"})
	f.ok("dom_key", map[string]any{"key": "shift+Z"})
	if got := f.eval(`document.getElementById('pw').value`); got != "QZ" {
		t.Fatalf("the password field holds %q, want QZ", got)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	keys := 0
	for _, c := range f.calls {
		if c.Tool == "dom_key" {
			keys++
			if strings.Contains(c.Args, `"Q"`) || strings.Contains(c.Args, "shift+Z") || !strings.Contains(c.Args, dom.Mask) {
				t.Errorf("observed dom_key on the focused password field: %s", c.Args)
			}
		}
	}
	if keys == 0 {
		t.Fatal("no dom_key call observed")
	}
	for _, l := range strings.Split(f.log.String(), "\n") {
		if strings.Contains(l, "dom_key") && (strings.Contains(l, `"Q"`) || strings.Contains(l, "shift+Z")) {
			t.Errorf("the log shows the key pressed in the password field: %s", l)
		}
	}
}

// TestTabsURLsSafe: dom_tabs list hides a URL's credentials, as every
// other answer does.
func TestTabsURLsSafe(t *testing.T) {
	f := setup(t, mcp.ViewDiff, "")
	f.ok("dom_tabs", map[string]any{"action": "new", "url": f.base + "/app.html?token=TABSECRET99&q=ok#access_token=FRAGSECRET88"})
	out := f.ok("dom_tabs", map[string]any{"action": "list"})
	if !strings.Contains(out, "q=ok") {
		t.Fatalf("the list lacks the new tab:\n%s", out)
	}
	for _, s := range []string{"TABSECRET99", "FRAGSECRET88"} {
		if strings.Contains(out, s) {
			t.Errorf("dom_tabs list shows %s:\n%s", s, out)
		}
	}
}
