package main

import (
	"encoding/json"
	"strings"
	"testing"

	"domscope/cdpconn"
	"domscope/cdpconn/cdptest"
)

// toolText is the text of a tools/call answer, and whether it is an error.
func toolText(t *testing.T, m map[string]json.RawMessage) (string, bool) {
	t.Helper()
	var r struct {
		Content []struct{ Text string }
		IsError bool
	}
	if err := json.Unmarshal(m["result"], &r); err != nil || len(r.Content) == 0 {
		t.Fatalf("not a tool result: %v %v", m, err)
	}
	return r.Content[0].Text, r.IsError
}

// TestMCPNoBrowser: with no browser on the endpoint, `domscope mcp` still
// completes the handshake and lists its tools. Each call answers
// ATTACH_FAILED, to retry, with what to do.
func TestMCPNoBrowser(t *testing.T) {
	r := startRawMCP(t, "--endpoint", "http://127.0.0.1:1")
	r.initialize()
	r.send(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)
	if m := r.recv(); !strings.Contains(string(m["result"]), "dom_snapshot") {
		t.Fatalf("tools/list: %v", m)
	}
	for i := 2; i < 4; i++ {
		r.send(`{"jsonrpc":"2.0","id":` + string(rune('0'+i)) + `,"method":"tools/call","params":{"name":"dom_snapshot","arguments":{}}}`)
		text, isErr := toolText(t, r.recv())
		if !isErr || !strings.HasPrefix(text, "ATTACH_FAILED: no browser at http://127.0.0.1:1") ||
			!strings.Contains(text, "\nretryable: yes\nnext: ") {
			t.Errorf("call %d without a browser:\n%s", i, text)
		}
	}
	_ = r.in.Close()
	if err := r.cmd.Wait(); err != nil {
		t.Errorf("the server ended with %v:\n%s", err, r.err.String())
	}
}

// TestMCPLaunchesOnFirstCall: with the default endpoint and nothing
// there, the first call launches a headless Chromium, as Playwright MCP
// does.
func TestMCPLaunchesOnFirstCall(t *testing.T) {
	cdptest.SkipShort(t)
	if listening(cdpconn.DefaultEndpoint) {
		t.Skip("a browser listens on the default endpoint")
	}
	r := startRawMCP(t)
	r.initialize()
	r.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"dom_navigate","arguments":{"url":"data:text/html,<button>Launched</button>"}}}`)
	text, isErr := toolText(t, r.recv())
	if isErr || !strings.Contains(text, `button "Launched"`) {
		t.Fatalf("the first call:\n%s\n%s", text, r.err.String())
	}
	_ = r.in.Close()
	if err := r.cmd.Wait(); err != nil {
		t.Errorf("the server ended with %v:\n%s", err, r.err.String())
	}
}
