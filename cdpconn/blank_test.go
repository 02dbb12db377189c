package cdpconn_test

import (
	"context"
	"testing"
	"time"

	"domscope/cdpconn/cdptest"
	"domscope/dom"
)

// TestBlankTabTakesDOMEvents: a tab still on its first blank document,
// opened here or found open, takes DOM events without crashing
// chromedp's event loop, which once knew no frame for them.
func TestBlankTabTakesDOMEvents(t *testing.T) {
	b := cdptest.Browser(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	opened, err := b.OpenPage(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = opened.Detach() })
	// A blank tab it did not open: made over HTTP, as another client would.
	found, err := b.AttachPage(ctx, cdptest.TabOverHTTP(t, "about:blank"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = found.Detach() })
	for name, p := range map[string]dom.Page{"opened": opened, "found": found} {
		var doc struct {
			Root struct {
				NodeID int64 `json:"nodeId"`
			} `json:"root"`
		}
		if err := p.Call(ctx, "DOM.getDocument", map[string]any{"depth": 0}, &doc); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		// Its answer is a DOM.setChildNodes event.
		if err := p.Call(ctx, "DOM.requestChildNodes", map[string]any{"nodeId": doc.Root.NodeID, "depth": -1}, nil); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if err := p.Call(ctx, "Runtime.evaluate", map[string]any{"expression": "document.body.append(document.createElement('p'))"}, nil); err != nil {
			t.Fatalf("%s: after the DOM events: %v", name, err)
		}
	}
}
