package main

import (
	"context"
	"strings"
	"testing"
	"time"

	"domscope/cdpconn"
	"domscope/cdpconn/cdptest"
	"domscope/dom/serve"
)

// aheadLine is what the server logs when it modelled a new page itself.
const aheadLine = "modelled a page ahead"

// TestServeModelsNewPageAhead: once a served tab goes to another page, the
// server models it before anyone asks; the served views are then the
// direct ones. A password the page fills in as it loads, and the URL's
// token, stay out of the views and the log.
func TestServeModelsNewPageAhead(t *testing.T) {
	ws, base, p, srv := servePage(t, "/semantic.html", "")
	id := p.TargetID()
	snap(t, ws, id, "--format", "text")
	if strings.Contains(srv.stderr(), aheadLine) {
		t.Fatalf("a page asked for was modelled ahead too: %s", srv.stderr())
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := p.Navigate(ctx, base+"/serve/other.html"); err != nil {
		t.Fatal(err)
	}
	waitLogged(t, srv, aheadLine, 1)
	sameViews(t, ws, id, srv)

	const token, secret = "TOKEN4077", "SWORDFISH77"
	if err := p.Navigate(ctx, base+"/serve/filled.html?token="+token); err != nil {
		t.Fatal(err)
	}
	waitLogged(t, srv, aheadLine, 2)
	for _, args := range [][]string{{"--format", "text"}, {"--format", "json", "--backend-ids"}, {"--format", "tree"}, {"--format", "json", "--bounds"}} {
		out := snap(t, ws, id, args...)
		if !strings.Contains(out, "Filled in") {
			t.Fatalf("%v: not the new page:\n%s", args, out)
		}
		if i := strings.Index(out, secret); i >= 0 {
			t.Errorf("%v leaks the password: …%s…", args, out[max(0, i-60):min(len(out), i+40)])
		}
	}
	for _, s := range []string{secret, token} {
		if strings.Contains(srv.stderr(), s) {
			t.Errorf("the server's log has %q: %s", s, srv.stderr())
		}
	}
}

// TestServeAheadBounded: a page that reloads itself is modelled ahead a
// few times, not at every load, until a request reads it.
func TestServeAheadBounded(t *testing.T) {
	ws, _, p, srv := servePage(t, "/semantic.html", "")
	id := p.TargetID()
	snap(t, ws, id, "--format", "text")
	evaluate(t, p, `location.href = "serve/reloads.html"`)
	loads := func() int {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		var r struct {
			Result struct {
				Value int `json:"value"`
			} `json:"result"`
		}
		_ = p.Call(ctx, "Runtime.evaluate", map[string]any{"expression": `Number(sessionStorage.getItem("loads") || 0)`, "returnByValue": true}, &r)
		return r.Result.Value
	}
	for deadline := time.Now().Add(time.Minute); loads() < 3*serve.MaxUnread; { // a hang guard
		if time.Now().After(deadline) {
			t.Fatalf("the page did not reload: %d loads", loads())
		}
		time.Sleep(50 * time.Millisecond)
	}
	waitLogged(t, srv, aheadLine, serve.MaxUnread)
	if n := strings.Count(srv.stderr(), aheadLine); n != serve.MaxUnread {
		t.Fatalf("%d loads modelled ahead with no request between, want %d", n, serve.MaxUnread)
	}
	snap(t, ws, id, "--format", "text")
	waitLogged(t, srv, aheadLine, serve.MaxUnread+1)
}

// TestServeWatch: with --watch, the server models every tab unasked, one
// open before it started and one opened after; each served view is then
// the direct one. Its own browser: no other test's tab is watched.
func TestServeWatch(t *testing.T) {
	serveEnv(t)
	cdptest.SkipShort(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	b, err := cdpconn.Launch(ctx, cdpconn.LaunchOptions{Headless: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = b.Close() })
	ws := b.WebSocketURL()
	base, _ := cdptest.Serve(t, pages)
	before, err := b.OpenPage(ctx, base+"/semantic.html")
	if err != nil {
		t.Fatal(err)
	}
	srv := startServe(t, ws, "--watch")
	after, err := b.OpenPage(ctx, base+"/serve/other.html")
	if err != nil {
		t.Fatal(err)
	}
	tabs, err := b.Targets(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// The browser's first tab too. A tab claimed before its first page
	// loaded is modelled twice.
	waitLogged(t, srv, aheadLine, len(tabs))
	if srv.served() != 0 {
		t.Fatalf("a request was answered before any was made: %s", srv.stderr())
	}
	sameViews(t, ws, before.TargetID(), srv)
	sameViews(t, ws, after.TargetID(), srv)
}
