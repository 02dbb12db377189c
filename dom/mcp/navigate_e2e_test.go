package mcp_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"domscope/dom"
	"domscope/dom/mcp"
	"domscope/dom/urls"
)

// The view shows href=page2.html; an agent passes it on as it is. It
// resolves against the page, as the link does, not as a host name.
func TestNavigateRelative(t *testing.T) {
	f := setup(t, mcp.ViewDiff, "")
	out := f.ok("dom_navigate", map[string]any{"url": "page2.html"})
	if !strings.Contains(out, `h1 "Second page"`) {
		t.Errorf("dom_navigate page2.html did not open the page beside app.html:\n%s", out)
	}
	if out := f.ok("dom_navigate", map[string]any{"url": "/app.html"}); !strings.Contains(out, `h1 "Tasks"`) {
		t.Errorf("dom_navigate /app.html:\n%s", out)
	}
	if got := f.eval("location.href"); got != f.base+"/app.html" {
		t.Errorf("the tab is at %q, want %s/app.html", got, f.base)
	}
}

// A page can tell the agent to open a local file (a prompt injection).
// By default dom_navigate and dom_tabs new refuse files and browser pages.
func TestNavigateRefusesFilesByDefault(t *testing.T) {
	secret := filepath.Join(t.TempDir(), "secret.txt")
	if err := os.WriteFile(secret, []byte("TOPSECRET-4711"), 0o600); err != nil {
		t.Fatal(err)
	}
	f := setup(t, mcp.ViewDiff, "")
	for _, u := range []string{"file://" + secret, "view-source:file://" + secret, "FILE://" + secret, "chrome://version", "javascript:alert(1)"} {
		out := f.fails("dom_navigate", map[string]any{"url": u}, dom.NavigationBlocked)
		if !strings.Contains(out, "retryable: no") || !strings.Contains(out, "next: open web pages only") {
			t.Errorf("dom_navigate %s: want retryable no and a next step:\n%s", u, out)
		}
	}
	f.fails("dom_tabs", map[string]any{"action": "new", "url": "file://" + secret}, dom.NavigationBlocked)
	for _, o := range f.out {
		if strings.Contains(o, "TOPSECRET") {
			t.Fatalf("a file's contents reached the agent:\n%s", o)
		}
	}
	if got := f.eval("location.href"); got != f.base+"/app.html" {
		t.Errorf("the tab moved to %q", got)
	}

	// --allow-file-access opts in.
	g := setup(t, mcp.ViewDiff, "", func(c *mcp.Config) { c.Navigation.AllowFile = true })
	if out := g.ok("dom_navigate", map[string]any{"url": "file://" + secret}); !strings.Contains(out, "TOPSECRET-4711") {
		t.Errorf("with AllowFile the file did not open:\n%s", out)
	}
}

// --allowed-origins keeps the agent on the listed origins.
func TestNavigateAllowedOrigins(t *testing.T) {
	f := setup(t, mcp.ViewDiff, "", func(c *mcp.Config) {
		c.Navigation = urls.Policy{Allowed: []string{"https://example.com"}}
	})
	out := f.fails("dom_navigate", map[string]any{"url": "page2.html"}, dom.NavigationBlocked)
	if !strings.Contains(out, "--allowed-origins") || !strings.Contains(out, "https://example.com") {
		t.Errorf("the refusal does not say why:\n%s", out)
	}
	g := setup(t, mcp.ViewDiff, "", func(c *mcp.Config) {
		c.Navigation = urls.Policy{Allowed: []string{"http://127.0.0.1:*"}}
	})
	g.ok("dom_navigate", map[string]any{"url": "page2.html"})
}
