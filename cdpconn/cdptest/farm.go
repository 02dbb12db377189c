package cdptest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"domscope/cdpconn"
)

// Farm is a loopback stand-in for a hosted browser farm such as
// browserless. Every request must carry ?token=Token (401 without it).
// /json/version answers a socket URL without the token. The URL has the
// farm's own idea of its host, as browserless does. Each websocket
// connection gets a browser of its own, stopped when the connection ends.
type Farm struct {
	// Addr is host:port; URLs are ws://Addr/?token=… and http://Addr/?token=….
	Addr  string
	Token string

	mu       sync.Mutex
	spare    []*cdpconn.Browser // launched ahead: a dial never waits for one
	conns    int
	versions int
}

// NewFarm starts a farm with browsers browsers launched ahead. There is
// one for each websocket connection the test will make. More are refused
// with 503. Everything stops when the test ends.
func NewFarm(t testing.TB, browsers int) *Farm {
	t.Helper()
	Browser(t) // skips without Chromium
	b := make([]byte, 12)
	_, _ = rand.Read(b)
	f := &Farm{Token: "farmtoken-" + hex.EncodeToString(b)}
	for i := 0; i < browsers; i++ {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		br, err := cdpconn.Launch(ctx, cdpconn.LaunchOptions{Headless: true})
		cancel()
		if err != nil {
			t.Fatalf("launching a farm browser: %v", err)
		}
		f.spare = append(f.spare, br)
	}
	srv := httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(func() {
		srv.CloseClientConnections()
		srv.Close()
		f.mu.Lock()
		defer f.mu.Unlock()
		for _, br := range f.spare {
			_ = br.Close()
		}
	})
	f.Addr = strings.TrimPrefix(srv.URL, "http://")
	return f
}

// Connections is how many websocket connections the farm has accepted.
func (f *Farm) Connections() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.conns
}

// Versions is how many /json/version requests it has answered.
func (f *Farm) Versions() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.versions
}

func (f *Farm) serve(w http.ResponseWriter, r *http.Request) {
	if r.URL.Query().Get("token") != f.Token {
		http.Error(w, "401: a valid token is required", http.StatusUnauthorized)
		return
	}
	if strings.TrimSuffix(r.URL.Path, "/") == "/json/version" {
		f.mu.Lock()
		f.versions++
		f.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"Browser":"HeadlessChrome (farm)","webSocketDebuggerUrl":"ws://0.0.0.0:3000/"}`)
		return
	}
	if !strings.EqualFold(r.Header.Get("Upgrade"), "websocket") {
		http.NotFound(w, r)
		return
	}
	f.mu.Lock()
	if len(f.spare) == 0 {
		f.mu.Unlock()
		http.Error(w, "503: no browser left", http.StatusServiceUnavailable)
		return
	}
	b := f.spare[0]
	f.spare = f.spare[1:]
	f.conns++
	f.mu.Unlock()
	defer b.Close() // the browser lives as long as its connection
	target, err := url.Parse(b.WebSocketURL())
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	rp := &httputil.ReverseProxy{Rewrite: func(pr *httputil.ProxyRequest) {
		pr.Out.URL = &url.URL{Scheme: "http", Host: target.Host, Path: target.Path}
		pr.Out.Host = target.Host
	}}
	rp.ServeHTTP(w, r)
}
