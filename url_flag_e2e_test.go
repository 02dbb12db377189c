package main

import (
	"strings"
	"testing"

	"domscope/cdpconn/cdptest"
)

// --url reads an address as an address bar does: a host and port with
// no scheme is http, not the scheme "localhost:" Chromium refuses.
func TestURLFlagWithoutScheme(t *testing.T) {
	base, _ := cdptest.Serve(t, pages)
	ws := cdptest.Browser(t).WebSocketURL()
	bare := strings.Replace(strings.TrimPrefix(base, "http://"), "127.0.0.1", "localhost", 1) + "/deep.html"
	out, stderr, code := runCLI(t, "", "snapshot", "--endpoint", ws, "--url", bare, "--format", "text")
	if code != 0 || !strings.Contains(out, `button "Top button"`) {
		t.Fatalf("snapshot --url %s: exit %d\nstdout:\n%.400s\nstderr:\n%s", bare, code, out, stderr)
	}
}

// A relative path has no page to resolve against: bad usage, exit 2,
// before any browser is asked.
func TestURLFlagRelativeIsUsageError(t *testing.T) {
	for _, u := range []string{"products.html", "./a"} {
		_, stderr, code := runCLI(t, "", "snapshot", "--endpoint", "http://127.0.0.1:1", "--url", u)
		if code != 2 || !strings.Contains(stderr, "--url") || !strings.Contains(stderr, "full URL") || strings.Contains(stderr, "browser") {
			t.Errorf("snapshot --url %s: exit %d, stderr %q; want exit 2 asking for a full URL", u, code, stderr)
		}
	}
}
