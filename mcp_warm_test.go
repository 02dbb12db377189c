package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"domscope/cdpconn/cdptest"
)

// lockedBuffer is a buffer a process writes while the test reads it.
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

// TestMCPModelsBeforeFirstCall: `domscope mcp` models the page before any
// tool is called, so the agent's first view is a refresh. The server says
// so on stderr; the first view then shows the page.
func TestMCPModelsBeforeFirstCall(t *testing.T) {
	b := cdptest.Browser(t)
	base, _ := cdptest.Serve(t, filepath.Join(pages, "mcp"))
	args, _ := json.Marshal([]string{"mcp", "--endpoint", b.WebSocketURL(), "--url", base + "/app.html"})
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "DOMSCOPE_CLI_ARGS="+string(args))
	var stderr lockedBuffer
	cmd.Stderr = &stderr
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	c := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "0"}, nil)
	cs, err := c.Connect(ctx, &sdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("starting domscope mcp: %v\n%s", err, stderr.String())
	}
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
