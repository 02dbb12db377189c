package main

import (
	"strings"
	"testing"
)

// TestAgentWaitQuiet: `wait --quiet MS` waits until the view stays still;
// on a page whose clock ticks it gives up at its bound (--ms).
func TestAgentWaitQuiet(t *testing.T) {
	e := newAgentEnv(t)
	e.ok("goto", e.base+"/happened/other.html", "--session", "q")
	if out := e.ok("wait", "--quiet", "300", "--session", "q"); !strings.HasPrefix(out, "wait: ok") {
		t.Errorf("wait --quiet on a still page answered:\n%s", out)
	}
	e.ok("goto", e.base+"/happened/flash.html", "--session", "q")
	_, stderr, code := e.run("wait", "--quiet", "2000", "--ms", "1000", "--session", "q")
	if code != 1 || !strings.HasPrefix(stderr, "TIMEOUT") || !strings.Contains(stderr, "did not stay still") {
		t.Errorf("wait --quiet on a ticking page: exit %d, %q", code, stderr)
	}
	// A code typed into a one-time-code field shows in no wait's answer.
	view := e.ok("snapshot", "--session", "q")
	out := e.ok("type", viewID(t, view, `textbox "Code"`), "S3cretCode", "--session", "q")
	out += e.ok("wait", "--text", "Time: ", "--ms", "3000", "--session", "q")
	if !strings.Contains(out, "wait: ok") {
		t.Errorf("wait --text answered:\n%s", out)
	}
	out += e.ok("wait", "--gone", "Nothing like it", "--session", "q")
	if strings.Contains(out, "S3cretCode") {
		t.Errorf("the typed code is in an answer:\n%s", out)
	}
}
