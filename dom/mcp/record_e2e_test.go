package mcp_test

import (
	"bytes"
	"regexp"
	"strings"
	"sync"
	"testing"

	"domscope/dom/mcp"
)

// lockedBuffer is a buffer the server's calls and the test share.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestRecording: an agent's actions become `run` steps with stable
// targets, reads are not steps, and a typed password is withheld.
func TestRecording(t *testing.T) {
	var rec *mcp.Recording
	var out lockedBuffer
	f := setup(t, mcp.ViewDiff, "", func(c *mcp.Config) {
		obs := c.Observer
		c.Observer = func(call mcp.Call) { obs(call); rec.Observe(call) }
	})
	rec = mcp.NewRecording(f.server, &out)
	view := f.ok("dom_snapshot", map[string]any{})
	id := func(re string) string {
		m := regexp.MustCompile(`\[(\d+)\] ` + re).FindStringSubmatch(view)
		if m == nil {
			t.Fatalf("no %s in:\n%s", re, view)
		}
		return m[1]
	}
	f.ok("dom_type", map[string]any{"id": id(`textbox "Password"`), "text": "HUNTER2secret"})
	if step := rec.Step(); !strings.Contains(step, `"action":"type"`) || strings.Contains(step, "HUNTER") {
		t.Errorf("the typing's step: %s", step)
	}
	f.ok("dom_click", map[string]any{"id": id(`button "Add item"`)})
	if step := rec.Step(); !strings.Contains(step, `"name":"Add item"`) {
		t.Errorf("the click's step: %s", step)
	}
	f.ok("dom_snapshot", map[string]any{})
	if rec.Step() != "" {
		t.Errorf("a snapshot was recorded: %s", rec.Step())
	}
	script := out.String()
	if strings.Count(script, `"action":`) != 2 || strings.Contains(script, "HUNTER") || !strings.Contains(script, "••••") {
		t.Errorf("the script:\n%s", script)
	}
}
