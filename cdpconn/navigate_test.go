package cdpconn_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"domscope/cdpconn/cdptest"
)

// TestOpenPageStalledImage: a page whose image never comes opens once
// its document is parsed and the load grace is over. Before, OpenPage
// waited for the load event and failed when its bound ran out.
func TestOpenPageStalledImage(t *testing.T) {
	b := cdptest.Browser(t) // skips without Chromium
	done := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/hold.png" {
			select {
			case <-r.Context().Done():
			case <-done:
			}
			return
		}
		w.Header().Set("Content-Type", "text/html")
		_, _ = w.Write([]byte(`<!doctype html><title>stalled</title><p>parsed</p><img src="/hold.png">`))
	}))
	defer srv.Close()
	defer close(done)
	// A hang guard, far above the load grace: the test fails by it only.
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	p, err := b.OpenPage(ctx, srv.URL+"/page.html")
	if err != nil {
		t.Fatalf("opening a page with a stalled image: %v", err)
	}
	defer func() { _ = p.Detach() }()
	var r struct {
		Result struct {
			Value string `json:"value"`
		} `json:"result"`
	}
	if err := p.Call(ctx, "Runtime.evaluate", map[string]any{"expression": "document.title + ' ' + document.readyState", "returnByValue": true}, &r); err != nil {
		t.Fatal(err)
	}
	if r.Result.Value != "stalled interactive" {
		b, _ := json.Marshal(r)
		t.Errorf("the page opened is %s, want its parsed document still loading", b)
	}
}
