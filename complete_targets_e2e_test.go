package main

import (
	"strings"
	"testing"

	"domscope/cdpconn/cdptest"
)

// --target completes the endpoint's open tabs (id, title and URL);
// with no browser it completes nothing, quickly and silently. --capture
// completes its values.
func TestCompleteTargetsAndCapture(t *testing.T) {
	b := cdptest.Browser(t)
	base, _ := cdptest.Serve(t, pages)
	p := cdptest.Page(t, base+"/deep.html?token=SECRET123")
	out, stderr, code := runCLI(t, "", "__complete", "snapshot", "--endpoint", b.WebSocketURL(), "--target", "")
	if code != 0 || !strings.Contains(out, p.TargetID()+"\t") || !strings.Contains(out, "/deep.html") {
		t.Errorf("--target completes to (exit %d):\n%s\n%s\nwant the tab %s", code, out, stderr, p.TargetID())
	}
	if strings.Contains(out, "SECRET123") {
		t.Errorf("a completion shows a URL's token:\n%s", out)
	}
	out, _, code = runCLI(t, "", "__complete", "snapshot", "--endpoint", "http://127.0.0.1:1", "--target", "")
	if code != 0 || strings.Contains(out, "\t") || strings.Contains(out, "ATTACH") {
		t.Errorf("no browser: exit %d, completions:\n%s", code, out)
	}
	out, _, _ = runCLI(t, "", "__complete", "snapshot", "--capture", "")
	if !strings.Contains(out, "cdp\npage\ncompare\n") {
		t.Errorf("--capture completes to:\n%s", out)
	}
}
