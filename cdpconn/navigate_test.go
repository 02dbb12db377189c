package cdpconn_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"domscope/cdpconn/cdptest"
)

// TestOpenPageStalledImage: a page whose image never comes opens once
// its document is parsed and the load grace is over. Before, OpenPage
// waited for the load event and failed when its bound ran out.
func TestOpenPageStalledImage(t *testing.T) {
	b := cdptest.Browser(t) // skips without Chromium
	base, _ := cdptest.ServeStalled(t)
	// A hang guard, far above the load grace: the test fails by it only.
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	p, err := b.OpenPage(ctx, base+"/stalled.html")
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
