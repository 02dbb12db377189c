package mcp_test

import (
	"bytes"
	"context"
	"strings"
	"sync"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"domscope/dom/mcp"
)

type lockedLog struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

// TestInputLimits: text past 64 KiB and a selector or URL past 8 KiB get
// a VALIDATION_ERROR naming the argument, and no log line is long.
func TestInputLimits(t *testing.T) {
	var log lockedLog
	s := mcp.New(mcp.Config{Log: &log})
	st, ct := sdk.NewInMemoryTransports()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() { _ = s.Run(ctx, st) }()
	cs := connect(t, ct)
	long := func(n int) string { return strings.Repeat("é", n/2) }
	for _, c := range []struct {
		tool string
		args map[string]any
		name string
	}{
		{"dom_type", map[string]any{"id": 1, "text": long(mcp.MaxText + 2)}, "text"},
		{"dom_snapshot", map[string]any{"selector": long(mcp.MaxArg + 2)}, "selector"},
		{"dom_navigate", map[string]any{"url": "https://example.com/" + long(mcp.MaxArg)}, "url"},
		{"dom_tabs", map[string]any{"action": "new", "url": "https://example.com/" + long(mcp.MaxArg)}, "url"},
		{"dom_select", map[string]any{"id": 1, "value": long(mcp.MaxArg + 2)}, "value"},
		{"dom_key", map[string]any{"key": long(mcp.MaxArg + 2)}, "key"},
	} {
		r := callTool(t, cs, c.tool, c.args)
		if !r.isError || !strings.HasPrefix(r.text, "VALIDATION_ERROR: "+c.name+" is ") {
			t.Errorf("%s with a long %s: %s", c.tool, c.name, r.text)
		}
	}
	log.mu.Lock()
	defer log.mu.Unlock()
	lines := strings.Split(strings.TrimSpace(log.b.String()), "\n")
	if len(lines) != 6 {
		t.Fatalf("want 6 log lines, got %d", len(lines))
	}
	for _, l := range lines {
		if len(l) > 1000 {
			t.Errorf("a log line of %d bytes: %.200s…", len(l), l)
		}
	}
}
