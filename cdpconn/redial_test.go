package cdpconn_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"domscope/cdpconn"
	"domscope/cdpconn/cdptest"
	"domscope/dom"
)

// Reattach finds the lost tab by id, else by URL, else says
// TARGET_NOT_FOUND. A closed connection is dialled again.
func TestRedialerReattach(t *testing.T) {
	dir := t.TempDir()
	page := `<!doctype html><html><head><title>Redial</title></head><body><p>here</p></body></html>`
	if err := os.WriteFile(filepath.Join(dir, "r.html"), []byte(page), 0o644); err != nil {
		t.Fatal(err)
	}
	base, _ := cdptest.Serve(t, dir)
	url := base + "/r.html"
	tab := cdptest.Page(t, url)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	b, err := cdpconn.Connect(ctx, cdptest.Browser(t).WebSocketURL(), false)
	if err != nil {
		t.Fatal(err)
	}
	rd := cdpconn.NewRedialer(cdptest.Browser(t).WebSocketURL(), false, b)
	defer rd.Close()

	href := func(p dom.Page) string {
		var r struct {
			Result struct{ Value string } `json:"result"`
		}
		if err := p.Call(ctx, "Runtime.evaluate", map[string]any{"expression": "location.href", "returnByValue": true}, &r); err != nil {
			t.Fatal(err)
		}
		return r.Result.Value
	}
	for _, tc := range []struct {
		name string
		lost dom.TargetInfo
	}{
		{"same id", dom.TargetInfo{ID: tab.TargetID(), URL: "http://elsewhere.invalid/"}},
		{"same url", dom.TargetInfo{ID: "GONE", URL: url}},
	} {
		p, err := rd.Reattach(ctx, tc.lost)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if p.TargetID() != tab.TargetID() || href(p) != url {
			t.Errorf("%s: attached to %s at %s, want %s", tc.name, p.TargetID(), href(p), tab.TargetID())
		}
		_ = p.Detach()
	}
	if _, err := rd.Reattach(ctx, dom.TargetInfo{ID: "GONE", URL: base + "/nowhere.html"}); dom.CodeOf(err) != dom.TargetNotFound {
		t.Errorf("no such tab: %v, want TARGET_NOT_FOUND", err)
	}

	// the connection it holds goes away; the next call dials a new one
	_ = b.Close()
	ts, err := rd.Targets(ctx)
	if err != nil {
		t.Fatalf("targets after the connection closed: %v", err)
	}
	seen := false
	for _, tg := range ts {
		seen = seen || tg.ID == tab.TargetID()
	}
	if !seen {
		t.Errorf("the new connection does not list the tab: %+v", ts)
	}
	if nb, err := rd.Browser(ctx); err != nil || nb == b {
		t.Errorf("Browser() = %p, %v; want a new connection", nb, err)
	}
}
