package main

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"domscope/cdpconn/cdptest"
)

// TestMCPModelsBeforeFirstCall: `domscope mcp` models the page before any
// tool is called, so the agent's first view is a refresh. The server says
// so on stderr; the first view then shows the page.
func TestMCPModelsBeforeFirstCall(t *testing.T) {
	b := cdptest.Browser(t)
	base, _ := cdptest.Serve(t, filepath.Join(pages, "mcp"))
	var stderr lockedBuffer
	ctx, cs := startMCP(t, &stderr, "mcp", "--endpoint", b.WebSocketURL(), "--url", base+"/app.html")
	defer cs.Close()
	for !strings.Contains(stderr.String(), "page modelled in") {
		select {
		case <-ctx.Done():
			t.Fatalf("no call made, and the page was never modelled:\n%s", stderr.String())
		case <-time.After(50 * time.Millisecond):
		}
	}
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "dom_snapshot"})
	if err != nil || res.IsError {
		t.Fatalf("dom_snapshot: %v %v", err, res)
	}
	if text := res.Content[0].(*sdk.TextContent).Text; !strings.Contains(text, `button "Add item"`) {
		t.Errorf("the first view lacks the page:\n%s", text)
	}
}

// TestMCPNavigateStopsWarmUp: a first call that leaves the page does not
// wait for the first capture of it. On a 10k-element page that capture
// takes far longer than the handshake, so it is stopped, never logged.
func TestMCPNavigateStopsWarmUp(t *testing.T) {
	b := cdptest.Browser(t)
	big, _ := cdptest.Serve(t, filepath.Join(cdptest.Shared(t), "corpus", "synthetic"))
	small, _ := cdptest.Serve(t, filepath.Join(pages, "mcp"))
	var stderr lockedBuffer
	ctx, cs := startMCP(t, &stderr, "mcp", "--endpoint", b.WebSocketURL(), "--url", big+"/synthetic-10000.html")
	defer cs.Close()
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "dom_navigate", Arguments: map[string]any{"url": small + "/app.html"}})
	if err != nil || res.IsError {
		t.Fatalf("dom_navigate: %v %v", err, res)
	}
	if log := stderr.String(); strings.Contains(log, "page modelled in") {
		t.Errorf("the navigation waited for the first capture of the page it left:\n%s", log)
	}
}
