package mcp_test

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"

	"domscope/dom/mcp"
)

// badLines are lines a client must not send, each with the JSON-RPC
// error code it gets and the id it is answered with.
var badLines = []struct {
	name, line string
	code       int
	id         string
}{
	{"not JSON", "hello", -32700, "null"},
	{"truncated", `{"jsonrpc":"2.0","id":7,"method":"tools/li`, -32700, "null"},
	{"BOM", "\ufeff" + `{"jsonrpc":"2.0","id":8,"method":"tools/list"}`, -32700, "null"},
	{"two values", `{} {}`, -32700, "null"},
	{"empty object", `{}`, -32600, "null"},
	{"empty array", `[]`, -32600, "null"},
	{"batch", `[{"jsonrpc":"2.0","id":9,"method":"tools/list"}]`, -32600, "null"},
	{"a number", `42`, -32600, "null"},
	{"method not a string", `{"jsonrpc":"2.0","id":10,"method":5}`, -32600, "10"},
	{"no version", `{"id":11,"method":"tools/list"}`, -32600, "11"},
	{"id an object", `{"jsonrpc":"2.0","id":{},"method":"tools/list"}`, -32600, "null"},
	{"params a string", `{"jsonrpc":"2.0","id":"p","method":"tools/list","params":"x"}`, -32600, `"p"`},
	{"response without result", `{"jsonrpc":"2.0","id":12}`, -32600, "12"},
	{"error not an object", `{"jsonrpc":"2.0","id":13,"error":"bad"}`, -32600, "13"},
}

// TestStdioBadLines sends every bad line over a stdio session, each
// followed by a good call. Each bad line gets its JSON-RPC error, and the
// session carries on.
func TestStdioBadLines(t *testing.T) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	s := mcp.New(mcp.Config{})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- s.Run(ctx, mcp.Stdio(inR, outW, nil)) }()
	lines := make(chan string)
	go func() {
		sc := bufio.NewScanner(outR)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	send := func(l string) {
		t.Helper()
		if _, err := io.WriteString(inW, l+"\n"); err != nil {
			t.Fatalf("writing %q: %v", l, err)
		}
	}
	recv := func() map[string]json.RawMessage {
		t.Helper()
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatalf("the session ended: %v", <-done)
			}
			var m map[string]json.RawMessage
			if err := json.Unmarshal([]byte(l), &m); err != nil {
				t.Fatalf("answer %q: %v", l, err)
			}
			return m
		case <-time.After(time.Minute):
			t.Fatal("no answer in a minute")
		}
		return nil
	}
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}`)
	if m := recv(); m["result"] == nil {
		t.Fatalf("initialize: %v", m)
	}
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	for i, c := range badLines {
		send(c.line)
		m := recv()
		var e struct{ Code int }
		_ = json.Unmarshal(m["error"], &e)
		if e.Code != c.code || string(m["id"]) != c.id {
			t.Errorf("%s: got id %s, error %s; want id %s, code %d", c.name, m["id"], m["error"], c.id, c.code)
		}
		id := 100 + i
		send(`{"jsonrpc":"2.0","id":` + itoa(id) + `,"method":"tools/list"}`)
		m = recv()
		if string(m["id"]) != itoa(id) || !strings.Contains(string(m["result"]), "dom_snapshot") {
			t.Fatalf("after %s, tools/list: %v", c.name, m)
		}
	}
	_ = inW.Close()
	select {
	case err := <-done:
		if err != nil && err != io.EOF {
			t.Errorf("the session ended with %v", err)
		}
	case <-time.After(time.Minute):
		t.Error("the session did not end when its input did")
	}
}

func itoa(i int) string { b, _ := json.Marshal(i); return string(b) }
