package mcp_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"domscope/dom/mcp"
)

const initBody = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}`

// do sends an initialize request to h as the listener would hand it on,
// with the given Host and headers, and returns the status and body.
func do(h http.Handler, host, target string, hdr map[string]string) (int, string) {
	req := httptest.NewRequest("POST", target, strings.NewReader(initBody))
	req.Host = host
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec.Code, rec.Body.String()
}

// TestHTTPHostAllowList: a server listening on every interface answers a
// Host that names loopback, an address or an allowed name. A DNS-rebinding
// request (Host and Origin evil.example) gets 403.
func TestHTTPHostAllowList(t *testing.T) {
	s := mcp.New(mcp.Config{})
	h := s.Handler(mcp.HTTPOptions{AllowRemote: true, Listen: "0.0.0.0:8931", AllowedHosts: []string{"box.lan"}})
	for _, c := range []struct {
		host, origin string
		want         int
	}{
		{"evil.example", "http://evil.example", 403},
		{"evil.example:8931", "", 403},
		{"other.lan:8931", "", 403},
		{"localhost:8931", "", 200},
		{"127.0.0.1:8931", "", 200},
		{"[::1]:8931", "", 200},
		{"192.0.2.2:8931", "", 200},
		{"BOX.lan:8931", "", 200},
	} {
		hdr := map[string]string{}
		if c.origin != "" {
			hdr["Origin"] = c.origin
		}
		if got, body := do(h, c.host, "/mcp", hdr); got != c.want {
			t.Errorf("Host %s: status %d, want %d: %s", c.host, got, c.want, body)
		}
	}
	if _, body := do(h, "evil.example", "/mcp", nil); !strings.Contains(body, "--allowed-hosts") {
		t.Errorf("the refusal does not say how to allow a host: %s", body)
	}
}

// TestHTTPTokenInURL: a token may come in the URL as ?token=, for clients
// that take a URL only.
func TestHTTPTokenInURL(t *testing.T) {
	h := mcp.New(mcp.Config{}).Handler(mcp.HTTPOptions{Token: "t0k3n", Listen: "127.0.0.1:0"})
	for _, c := range []struct {
		target string
		want   int
	}{
		{"/mcp", 401}, {"/mcp?token=wrong", 401}, {"/mcp?token=t0k3n", 200},
	} {
		if got, body := do(h, "127.0.0.1:1", c.target, nil); got != c.want {
			t.Errorf("%s: status %d, want %d: %s", c.target, got, c.want, body)
		}
	}
}

// initialize opens a session over url and returns the status and the
// session id.
func initialize(t *testing.T, url string) (int, string, string) {
	t.Helper()
	req, _ := http.NewRequest("POST", url, strings.NewReader(initBody))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(res.Body)
	_ = res.Body.Close()
	return res.StatusCode, res.Header.Get("Mcp-Session-Id"), string(b)
}

// TestHTTPSessionCap: past MaxSessions a new session is refused with a
// clear 503; ending one makes room.
func TestHTTPSessionCap(t *testing.T) {
	hs := httptest.NewServer(mcp.New(mcp.Config{}).Handler(mcp.HTTPOptions{MaxSessions: 2}))
	defer hs.Close()
	url := hs.URL + mcp.Path
	var ids []string
	for range 2 {
		code, id, body := initialize(t, url)
		if code != 200 || id == "" {
			t.Fatalf("session %d: %d %q %s", len(ids)+1, code, id, body)
		}
		ids = append(ids, id)
	}
	code, _, body := initialize(t, url)
	if code != 503 || !strings.Contains(body, "2 MCP sessions are open") {
		t.Fatalf("a third session: %d %s; want 503 saying why", code, body)
	}
	req, _ := http.NewRequest("DELETE", url, nil)
	req.Header.Set("Mcp-Session-Id", ids[0])
	if res, err := http.DefaultClient.Do(req); err != nil {
		t.Fatal(err)
	} else {
		_ = res.Body.Close()
	}
	if code, _, body := initialize(t, url); code != 200 {
		t.Errorf("after one ended, a new session: %d %s", code, body)
	}
}

// TestHTTPSessionTimeout: an idle session ends, and frees its place.
func TestHTTPSessionTimeout(t *testing.T) {
	hs := httptest.NewServer(mcp.New(mcp.Config{}).Handler(mcp.HTTPOptions{MaxSessions: 1, SessionTimeout: 100 * time.Millisecond}))
	defer hs.Close()
	url := hs.URL + mcp.Path
	if code, _, body := initialize(t, url); code != 200 {
		t.Fatalf("first session: %d %s", code, body)
	}
	deadline := time.Now().Add(time.Minute)
	for {
		code, _, _ := initialize(t, url)
		if code == 200 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the idle session never ended: a new one still gets %d", code)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestHTTPBodyNeverEnds: a request whose body never ends is answered
// 408 once the body timeout passes, rather than holding the connection.
func TestHTTPBodyNeverEnds(t *testing.T) {
	hs := httptest.NewUnstartedServer(mcp.New(mcp.Config{}).Handler(mcp.HTTPOptions{BodyTimeout: 200 * time.Millisecond}))
	hs.Config = mcp.NewHTTPServer(hs.Config.Handler)
	hs.Start()
	defer hs.Close()
	defer hs.CloseClientConnections() // without the limit, the handler still reads
	pr, pw := io.Pipe()
	defer pw.Close()
	go func() { _, _ = fmt.Fprint(pw, `{"jsonrpc":"2.0","id":1,`) }()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "POST", hs.URL+mcp.Path, pr)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("no answer to a body that never ends: %v", err)
	}
	_ = res.Body.Close()
	if res.StatusCode != http.StatusRequestTimeout {
		t.Errorf("status %d, want 408", res.StatusCode)
	}
}
