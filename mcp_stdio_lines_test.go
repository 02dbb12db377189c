package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"domscope/cdpconn/cdptest"
)

// rawMCP is `domscope mcp` as a process, spoken to line by line.
type rawMCP struct {
	t     *testing.T
	cmd   *exec.Cmd
	in    io.WriteCloser
	lines chan string
	err   lockedBuffer
}

func startRawMCP(t *testing.T, args ...string) *rawMCP {
	t.Helper()
	a, _ := json.Marshal(append([]string{"mcp"}, args...))
	r := &rawMCP{t: t, cmd: exec.Command(os.Args[0], "-test.run=^$"), lines: make(chan string, 16)}
	r.cmd.Env = append(os.Environ(), "DOMSCOPE_CLI_ARGS="+string(a))
	r.cmd.Stderr = &r.err
	var err error
	if r.in, err = r.cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	out, err := r.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := r.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = r.cmd.Process.Kill(); _ = r.cmd.Wait() })
	go func() {
		sc := bufio.NewScanner(out)
		sc.Buffer(nil, 16<<20)
		for sc.Scan() {
			r.lines <- sc.Text()
		}
		close(r.lines)
	}()
	return r
}

func (r *rawMCP) send(line string) {
	r.t.Helper()
	if _, err := io.WriteString(r.in, line+"\n"); err != nil {
		r.t.Fatalf("writing %q: %v\n%s", line, err, r.err.String())
	}
}

// recv is the next message the server writes.
func (r *rawMCP) recv() map[string]json.RawMessage {
	r.t.Helper()
	select {
	case l, ok := <-r.lines:
		if !ok {
			r.t.Fatalf("the server closed its output:\n%s", r.err.String())
		}
		var m map[string]json.RawMessage
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			r.t.Fatalf("answer %q: %v", l, err)
		}
		return m
	case <-time.After(2 * time.Minute):
		r.t.Fatalf("no answer in 2 minutes:\n%s", r.err.String())
	}
	return nil
}

func (r *rawMCP) initialize() {
	r.t.Helper()
	r.send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}`)
	if m := r.recv(); m["result"] == nil {
		r.t.Fatalf("initialize: %v\n%s", m, r.err.String())
	}
	r.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
}

// TestMCPStdioBadLines: each malformed line gets its JSON-RPC error from
// the `domscope mcp` process, and a tool call after it still works. The
// process ends cleanly when its input does.
func TestMCPStdioBadLines(t *testing.T) {
	b := cdptest.Browser(t)
	base, _ := cdptest.Serve(t, filepath.Join(pages, "mcp"))
	r := startRawMCP(t, "--endpoint", b.WebSocketURL(), "--url", base+"/app.html")
	r.initialize()
	for i, c := range []struct {
		name, line string
		code       int
	}{
		{"not JSON", "not json", -32700},
		{"empty object", "{}", -32600},
		{"empty array", "[]", -32600},
		{"BOM", "\ufeff", -32700},
		{"truncated", `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"dom_snap`, -32700},
		{"method not a string", `{"jsonrpc":"2.0","id":6,"method":["tools/call"]}`, -32600},
	} {
		r.send(c.line)
		m := r.recv()
		var e struct{ Code int }
		_ = json.Unmarshal(m["error"], &e)
		if e.Code != c.code {
			t.Errorf("%s: got %v, want error %d", c.name, m, c.code)
		}
		id := 100 + i
		r.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"dom_snapshot","arguments":{}}}`, id))
		m = r.recv()
		if string(m["id"]) != fmt.Sprint(id) || !strings.Contains(string(m["result"]), `Add item`) {
			t.Fatalf("after %s, dom_snapshot: %v\n%s", c.name, m, r.err.String())
		}
	}
	_ = r.in.Close()
	if err := r.cmd.Wait(); err != nil {
		t.Errorf("the server ended with %v:\n%s", err, r.err.String())
	}
	if log := r.err.String(); !strings.Contains(log, "refused a line") {
		t.Errorf("the log says nothing of the refused lines:\n%s", log)
	}
}
