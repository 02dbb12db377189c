package main

import (
	"os"
	"strings"
	"testing"
)

// TestUIWatchesASession: `domscope --session NAME` opens the UI on an
// agent CLI session's tab and answers its commands: each shows in the
// UI, a pause holds them, and quitting hands the session back to the
// service, which says so.
func TestUIWatchesASession(t *testing.T) {
	e := newAgentEnv(t)
	e.ok("goto", e.base+"/serve/secret.html", "--session", "s1", "--idle", "2m")
	a := startAgentUI(t, []string{"--session", "s1", "--endpoint", e.ws, "--mcp-pause-timeout", "2s"}, "XDG_RUNTIME_DIR="+e.runDir)
	a.waitText("agent: 0 calls")
	a.waitText(`"Sign in"`)

	view := e.ok("snapshot", "--session", "s1")
	pw := viewID(t, view, `textbox "Password"`)
	out := e.ok("type", pw, agentSecret, "--session", "s1")
	if strings.Contains(out, agentSecret) || !strings.HasPrefix(out, "type ["+pw+"]: changed") {
		t.Errorf("type in the watched session answered:\n%s", out)
	}
	a.waitText("agent: 2 calls") // the snapshot and the type
	a.keys("M")
	a.waitText("dom_type [" + pw + "]")
	a.keys("Escape", "p")
	a.waitText("agent paused")
	_, stderr, code := e.run("click", pw, "--session", "s1")
	if code != 1 || !strings.Contains(stderr, "paused") || !strings.Contains(stderr, "retryable: yes") {
		t.Errorf("a call while paused: exit %d, %q", code, stderr)
	}
	a.keys("p", "q")
	a.waitText("EXIT 0")

	log := e.serviceLog()
	if strings.Contains(log, "type (session") {
		t.Errorf("the service ran the type the UI watched:\n%s", log)
	}
	out = e.ok("snapshot", "--session", "s1")
	if !strings.HasPrefix(out, "the UI let this session go") || !strings.Contains(out, `"Sign in"`) {
		t.Errorf("the first answer after the UI quit:\n%s", out)
	}
	raw, _ := os.ReadFile(a.raw)
	for what, s := range map[string]string{"answer": out, "service log": e.serviceLog(), "terminal output": string(raw)} {
		if strings.Contains(s, agentSecret) {
			t.Errorf("the typed secret reached the %s", what)
		}
	}
}
