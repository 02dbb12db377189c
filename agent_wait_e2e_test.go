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
	out := e.ok("wait", "--text", "Time: ", "--quiet", "1", "--session", "q")
	if !strings.HasPrefix(out, "wait: ok") {
		t.Errorf("wait --text with --quiet answered:\n%s", out)
	}
}
