package main

import (
	"strings"
	"testing"

	"domscope/cdpconn/cdptest"
)

// TestSnapshotCapturePage: --capture page prints what the default path
// prints on a fixture page; --capture compare says both views are the
// same; a bad --capture value is refused.
func TestSnapshotCapturePage(t *testing.T) {
	ws := cdptest.Browser(t).WebSocketURL()
	base, _ := cdptest.Serve(t, pages)
	url := base + "/semantic.html"
	view := func(mode string) string {
		t.Helper()
		out, stderr, code := runCLI(t, "", "snapshot", "--endpoint", ws, "--url", url, "--format", "text", "--capture", mode)
		if code != 0 {
			t.Fatalf("--capture %s: exit %d: %s", mode, code, stderr)
		}
		return out
	}
	if cdp, page := view("cdp"), view("page"); cdp != page || !strings.Contains(page, `button "`) {
		t.Errorf("the views differ:\n--- cdp\n%s\n--- page\n%s", cdp, page)
	}
	out := view("compare")
	for _, want := range []string{"text view: identical", "json view: identical", "tier differs: 0", "0 fell back"} {
		if !strings.Contains(out, want) {
			t.Errorf("compare: %q is missing:\n%s", want, out)
		}
	}
	if _, stderr, code := runCLI(t, "", "snapshot", "--endpoint", ws, "--url", url, "--capture", "bogus"); code == 0 || !strings.Contains(stderr, "--capture") {
		t.Errorf("--capture bogus: exit %d, stderr %q: want a usage error", code, stderr)
	}
}
