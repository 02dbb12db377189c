package urls

import (
	"errors"
	"strings"
	"testing"
)

func TestPolicyDefaultRefusesLocalAndBrowserPages(t *testing.T) {
	var p Policy
	for _, u := range []string{
		"file:///etc/passwd", "FILE:///root/", "file:/etc/passwd", " file:///etc/passwd",
		"fi\tle:///etc/passwd", "view-source:file:///etc/passwd", "VIEW-SOURCE:FILE:///etc/passwd",
		"filesystem:file:///x", "chrome://settings", "chrome-untrusted://terminal/", "devtools://devtools/x",
		"javascript:alert(1)", "view-source:chrome://version",
	} {
		err := p.Check(u)
		var be *BlockedError
		if !errors.As(err, &be) || be.Hint == "" {
			t.Errorf("Check(%q) = %v, want a BlockedError with a hint", u, err)
		}
	}
	for _, u := range []string{
		"https://example.com/", "http://127.0.0.1:8600/x", "about:blank", "data:text/html,<p>hi",
		"view-source:https://example.com/",
	} {
		if err := p.Check(u); err != nil {
			t.Errorf("Check(%q) = %v, want allowed", u, err)
		}
	}
	if err := (Policy{AllowFile: true}).Check("view-source:file:///etc/passwd"); err != nil {
		t.Errorf("--allow-file-access: %v", err)
	}
	if err := (Policy{AllowFile: true}).Check("chrome://settings"); err == nil {
		t.Error("--allow-file-access opened chrome:")
	}
}

// The lists read as Playwright MCP's: full origins, any port, a host.
func TestPolicyOrigins(t *testing.T) {
	allowed, err := ParseOrigins("https://example.com:8080;http://localhost:*; docs.test ;*.corp.test")
	if err != nil {
		t.Fatal(err)
	}
	blocked, _ := ParseOrigins("https://bad.docs.test,http://localhost:6666")
	p := Policy{Allowed: allowed, Blocked: blocked}
	for u, ok := range map[string]bool{
		"https://example.com:8080/a":     true,
		"https://example.com/a":          false, // port 443
		"http://example.com:8080/":       false, // scheme
		"http://localhost:3000/x":        true,
		"http://localhost/x":             true,
		"http://localhost:6666/":         false, // blocked first
		"https://docs.test/a":            true,
		"http://docs.test:81/":           true,
		"https://a.corp.test/":           true,
		"https://corp.test/":             false,
		"https://evil.test/":             false,
		"about:blank":                    true,
		"view-source:https://evil.test/": false,
	} {
		err := p.Check(u)
		if (err == nil) != ok {
			t.Errorf("Check(%q) = %v, want allowed=%v", u, err, ok)
		}
		if err != nil && !strings.Contains(err.Error(), "origin") {
			t.Errorf("Check(%q) = %v: does not say why", u, err)
		}
	}
	if err := (Policy{Allowed: []string{"https://example.com"}}).Check("https://example.com:443/"); err != nil {
		t.Errorf("default port: %v", err)
	}
	for _, bad := range []string{"https://x.test/path", "x.test/a", "a b"} {
		if _, err := ParseOrigins(bad); err == nil {
			t.Errorf("ParseOrigins(%q) took it", bad)
		}
	}
}
