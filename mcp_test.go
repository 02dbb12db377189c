package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"domscope/cdpconn/cdptest"
)

// TestMCPOverStdio runs `domscope mcp` as a process and drives it over
// stdio with the SDK's client. The tools are listed and a view is read. A
// click and typing act on the page. The secret typed into the password
// field is in no response and not in the server's log.
func TestMCPOverStdio(t *testing.T) {
	const secret = "stdio-Secret-77"
	b := cdptest.Browser(t)
	base, _ := cdptest.Serve(t, filepath.Join(pages, "mcp"))
	var stderr lockedBuffer
	ctx, cs := startMCP(t, &stderr, "mcp", "--endpoint", b.WebSocketURL(), "--url", base+"/app.html")
	var out []string
	call := func(name string, args any) string {
		t.Helper()
		res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: name, Arguments: args})
		if err != nil {
			t.Fatalf("%s: %v\n%s", name, err, stderr.String())
		}
		text := res.Content[0].(*sdk.TextContent).Text
		out = append(out, text)
		if res.IsError {
			t.Fatalf("%s failed:\n%s", name, text)
		}
		return text
	}
	tools, err := cs.ListTools(ctx, nil)
	if err != nil || len(tools.Tools) != 17 {
		t.Fatalf("tools: %v %v", tools, err)
	}
	view := call("dom_snapshot", nil)
	id := func(re string) string {
		m := regexp.MustCompile(`\[(\d+)\] ` + re).FindStringSubmatch(view)
		if m == nil {
			t.Fatalf("no %s in the view:\n%s", re, view)
		}
		return m[1]
	}
	if got := call("dom_click", map[string]any{"id": id(`button "Add item"`)}); !strings.Contains(got, "+ Item 1") {
		t.Errorf("click over stdio:\n%s", got)
	}
	call("dom_type", map[string]any{"id": id(`textbox "Password"`), "text": secret})
	call("dom_snapshot", map[string]any{"format": "json"})
	if err := cs.Close(); err != nil {
		t.Logf("closing: %v", err)
	}
	log := stderr.String()
	if !strings.Contains(log, "dom_type") || !strings.Contains(log, "dom_click") {
		t.Errorf("the server's log lacks the calls:\n%s", log)
	}
	for _, o := range append(out, log) {
		if strings.Contains(o, secret) {
			t.Errorf("the secret got out:\n%s", o)
		}
	}
}

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

// startMCP runs `domscope args…` as a process (this test binary) and
// connects the SDK's client to it over stdio. The context bounds the test.
func startMCP(t *testing.T, stderr io.Writer, args ...string) (context.Context, *sdk.ClientSession) {
	t.Helper()
	a, _ := json.Marshal(args)
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "DOMSCOPE_CLI_ARGS="+string(a))
	cmd.Stderr = stderr
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	c := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "0"}, nil)
	cs, err := c.Connect(ctx, &sdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("starting domscope %s: %v\n%s", args[0], err, stderr)
	}
	return ctx, cs
}

// TestMCPUsage: bad flags are usage errors before any browser is touched.
func TestMCPUsage(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"mcp", "--http", "0.0.0.0:8931"}, "--allow-remote"},
		{[]string{"mcp", "--view", "everything"}, "--view"},
		{[]string{"mcp", "--token", "x"}, "--http"},
		{[]string{"mcp", "--http", "nonsense"}, "HOST:PORT"},
	} {
		_, stderr, code := runCLI(t, "", c.args...)
		if code != 2 || !strings.Contains(stderr, c.want) {
			t.Errorf("domscope %v: exit %d, stderr %q; want exit 2 naming %s", c.args, code, stderr, c.want)
		}
	}
}

// TestSnapshotViewFlags: the snapshot command takes dom_snapshot's
// serialization options.
func TestSnapshotViewFlags(t *testing.T) {
	b := cdptest.Browser(t)
	base, _ := cdptest.Serve(t, filepath.Join(pages, "mcp"))
	snap := func(args ...string) string {
		t.Helper()
		out, stderr, code := runCLI(t, "", append([]string{"snapshot", "--endpoint", b.WebSocketURL(), "--url", base + "/app.html"}, args...)...)
		if code != 0 {
			t.Fatalf("snapshot %v: exit %d: %s", args, code, stderr)
		}
		return out
	}
	if out := snap("--offscreen=false"); strings.Contains(out, "Far below") || !strings.Contains(out, "more nodes outside the viewport") {
		t.Errorf("--offscreen=false:\n%s", out)
	}
	if out := snap("--selector", "form", "--bounds"); strings.Contains(out, "Add item") || !strings.Contains(out, `textbox "User" @`) {
		t.Errorf("--selector form --bounds:\n%s", out)
	}
	if out := snap("--max-tokens", "50"); !strings.Contains(out, "more nodes left out to fit --max-tokens 50") {
		t.Errorf("--max-tokens 50:\n%s", out)
	}
	if out := snap("--format", "json", "--max-depth", "1", "--max-interactive", "2"); !strings.Contains(out, "deeper nodes cut") && !strings.Contains(out, "more interactive elements") {
		t.Errorf("--max-depth 1 --max-interactive 2:\n%s", out)
	}
	_, stderr, code := runCLI(t, "", "snapshot", "--format", "tree", "--max-tokens", "5")
	if code != 2 || !strings.Contains(stderr, "--format tree") {
		t.Errorf("--format tree --max-tokens: exit %d, %s", code, stderr)
	}
}
