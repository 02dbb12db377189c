package mcp_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"domscope/dom/mcp"
)

// headerTransport adds headers to every request of a client.
type headerTransport struct {
	h    http.Header
	base http.RoundTripper
}

func (t headerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	for k, v := range t.h {
		r.Header[k] = v
	}
	return t.base.RoundTrip(r)
}

// serveHTTP serves f's server over streamable HTTP on loopback.
func serveHTTP(t *testing.T, f *fixture, o mcp.HTTPOptions) string {
	t.Helper()
	hs := httptest.NewServer(f.server.Handler(o))
	t.Cleanup(hs.Close)
	return hs.URL + mcp.Path
}

// post sends an initialize request by hand and returns the status.
func post(t *testing.T, url string, h map[string]string) int {
	t.Helper()
	body := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}`
	req, _ := http.NewRequest("POST", url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range h {
		req.Header.Set(k, v)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, res.Body)
	_ = res.Body.Close()
	return res.StatusCode
}

// TestHTTP: the tools over streamable HTTP with a bearer token. A foreign
// Origin gets 403, a missing or wrong token 401.
func TestHTTP(t *testing.T) {
	f := setup(t, mcp.ViewDiff, "")
	url := serveHTTP(t, f, mcp.HTTPOptions{Token: "s3cret-token"})
	good := "Bearer s3cret-token"
	for _, c := range []struct {
		name string
		h    map[string]string
		want int
	}{
		{"no token", nil, 401},
		{"wrong token", map[string]string{"Authorization": "Bearer nope"}, 401},
		{"foreign origin", map[string]string{"Authorization": good, "Origin": "http://evil.example"}, 403},
		{"a look-alike of loopback", map[string]string{"Authorization": good, "Origin": "http://127.0.0.1.evil.example"}, 403},
		{"loopback origin", map[string]string{"Authorization": good, "Origin": "http://localhost:3000"}, 200},
		{"no origin", map[string]string{"Authorization": good}, 200},
	} {
		if got := post(t, url, c.h); got != c.want {
			t.Errorf("%s: status %d, want %d", c.name, got, c.want)
		}
	}
	hc := &http.Client{Transport: headerTransport{http.Header{"Authorization": {good}}, http.DefaultTransport}}
	cs := connect(t, &sdk.StreamableClientTransport{Endpoint: url, HTTPClient: hc, MaxRetries: -1})
	res, err := cs.ListTools(t.Context(), nil)
	if err != nil || len(res.Tools) != len(contract) {
		t.Fatalf("tools over HTTP: %v, %v", res, err)
	}
	view := callTool(t, cs, "dom_snapshot", nil)
	out := callTool(t, cs, "dom_click", map[string]any{"id": idOf(t, view.text, `button "Add item"`)})
	if out.isError || !strings.Contains(out.text, "Item 1") {
		t.Errorf("click over HTTP:\n%s", out.text)
	}
	f.noSecret("s3cret-token")
}

// TestHTTPNoToken: without --token any loopback client may call.
func TestHTTPNoToken(t *testing.T) {
	f := setup(t, mcp.ViewDiff, "")
	url := serveHTTP(t, f, mcp.HTTPOptions{})
	if got := post(t, url, nil); got != 200 {
		t.Errorf("status %d without a token when none is set, want 200", got)
	}
	if got := post(t, url, map[string]string{"Origin": "https://attacker.test"}); got != 403 {
		t.Errorf("status %d from a foreign origin, want 403", got)
	}
}

func TestCheckListen(t *testing.T) {
	for _, c := range []struct {
		addr   string
		remote bool
		ok     bool
	}{
		{"127.0.0.1:8931", false, true}, {"localhost:0", false, true}, {"[::1]:9", false, true},
		{"0.0.0.0:8931", false, false}, {":8931", false, false}, {"0.0.0.0:8931", true, true}, {"nonsense", true, false},
	} {
		if err := mcp.CheckListen(c.addr, c.remote); (err == nil) != c.ok {
			t.Errorf("CheckListen(%q, %v) = %v", c.addr, c.remote, err)
		}
	}
}
