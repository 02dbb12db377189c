package main

import (
	"path/filepath"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"domscope/cdpconn/cdptest"
)

// The navigation flags reach the server: --allowed-origins keeps the
// agent off other origins, and files are refused without
// --allow-file-access.
func TestMCPNavigationFlags(t *testing.T) {
	b := cdptest.Browser(t)
	base, _ := cdptest.Serve(t, filepath.Join(pages, "mcp"))
	var stderr lockedBuffer
	ctx, cs := startMCP(t, &stderr, "mcp", "--endpoint", b.WebSocketURL(), "--url", base+"/app.html",
		"--allowed-origins", "https://example.com;http://localhost:*")
	for _, u := range []string{"page2.html", "file:///etc/passwd"} {
		res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "dom_navigate", Arguments: map[string]any{"url": u}})
		if err != nil {
			t.Fatalf("dom_navigate %s: %v\n%s", u, err, stderr.String())
		}
		text := res.Content[0].(*sdk.TextContent).Text
		if !res.IsError || !strings.HasPrefix(text, "NAVIGATION_BLOCKED: ") || !strings.Contains(text, "\nnext: ") {
			t.Errorf("dom_navigate %s: want NAVIGATION_BLOCKED with a next step:\n%s", u, text)
		}
	}
}

func TestMCPNavigationFlagsUsage(t *testing.T) {
	for _, args := range [][]string{
		{"mcp", "--allowed-origins", "https://example.com/path"},
		{"mcp", "--blocked-origins", "a b"},
		{"--mcp", "127.0.0.1:0", "--allowed-origins", "x.test/a"},
	} {
		_, stderr, code := runCLI(t, "", args...)
		if code != 2 || !strings.Contains(stderr, "-origins") || !strings.Contains(stderr, "not an origin") {
			t.Errorf("domscope %v: exit %d, stderr %q; want exit 2 naming the flag", args, code, stderr)
		}
	}
}
