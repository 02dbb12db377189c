package main

import (
	"context"
	"strings"
	"testing"
	"time"

	"domscope/cdpconn"
	"domscope/cdpconn/cdptest"
)

// aheadLine is what the server logs when it modelled a new page itself.
const aheadLine = "modelled a page ahead"

// TestServeModelsNewPageAhead: once a served tab goes to another page, the
// server models it before anyone asks; the served views are then the
// direct ones. The page's password and the URL's token stay out of the
// views and the log.
func TestServeModelsNewPageAhead(t *testing.T) {
	serveEnv(t)
	ws := cdptest.Browser(t).WebSocketURL()
	base, _ := cdptest.Serve(t, pages)
	p := cdptest.Page(t, base+"/semantic.html")
	srv := startServe(t, ws)
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

	// A page with a token in its address and a password set as it loads.
	const token, secret = "TOKEN4077", "HUNTER9000"
	if err := p.Navigate(ctx, base+"/serve/secret.html?token="+token+"#pw="+secret); err != nil {
		t.Fatal(err)
	}
	waitLogged(t, srv, aheadLine, 2)
	evaluate(t, p, `document.getElementById("pw").value = "`+secret+`"`)
	for _, args := range [][]string{{"--format", "text"}, {"--format", "json", "--backend-ids"}, {"--format", "tree"}, {"--format", "json", "--bounds"}} {
		out := snap(t, ws, id, args...)
		if !strings.Contains(out, "Sign in") {
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
	waitLogged(t, srv, aheadLine, len(tabs)) // the browser's first tab too
	if srv.served() != 0 {
		t.Fatalf("a request was answered before any was made: %s", srv.stderr())
	}
	sameViews(t, ws, before.TargetID(), srv)
	sameViews(t, ws, after.TargetID(), srv)
	if n := strings.Count(srv.stderr(), aheadLine); n != len(tabs) {
		t.Errorf("%d pages modelled ahead for %d tabs, each once:\n%s", n, len(tabs), srv.stderr())
	}
}
