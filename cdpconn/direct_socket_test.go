package cdpconn_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"domscope/cdpconn"
	"domscope/cdpconn/cdptest"
	"domscope/dom"
)

// TestDirectOpensTheTabsOwnSocket: a tab given by id is opened through
// its own socket. GET /json/version is not asked. A tab given by title
// goes the usual way. The endpoint is a proxy that counts the requests.
func TestDirectOpensTheTabsOwnSocket(t *testing.T) {
	b := cdptest.Browser(t)
	p := cdptest.Page(t, "data:text/html,<title>own-socket</title><p>hi</p>")
	chrome, err := url.Parse(b.WebSocketURL())
	if err != nil {
		t.Fatal(err)
	}
	var versions atomic.Int32
	rp := &httputil.ReverseProxy{Rewrite: func(pr *httputil.ProxyRequest) {
		pr.Out.URL.Scheme, pr.Out.URL.Host, pr.Out.Host = "http", chrome.Host, chrome.Host
	}}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/json/version" {
			versions.Add(1)
		}
		rp.ServeHTTP(w, r)
	}))
	defer srv.Close()
	ctx := directCtx(t)
	for _, tc := range []struct {
		spec     string
		versions int32
	}{{p.TargetID(), 0}, {"own-socket", 1}} {
		versions.Store(0)
		d, err := cdpconn.AttachDirect(ctx, srv.URL, false, tc.spec)
		if err != nil {
			t.Fatalf("%s: %v", tc.spec, err)
		}
		var r struct {
			Result struct {
				Value string `json:"value"`
			} `json:"result"`
		}
		err = d.Call(ctx, "Runtime.evaluate", map[string]any{"expression": "document.title", "returnByValue": true}, &r)
		_ = d.Detach()
		if err != nil || r.Result.Value != "own-socket" || d.TargetID() != p.TargetID() {
			t.Errorf("%s: title %q, target %s, %v", tc.spec, r.Result.Value, d.TargetID(), err)
		}
		if n := versions.Load(); n != tc.versions {
			t.Errorf("%s: GET /json/version asked %d times, want %d", tc.spec, n, tc.versions)
		}
	}
}

// TestDirectPageSocketCrash: a tab opened through its own socket ends
// when its renderer crashes. A call then says the page crashed.
func TestDirectPageSocketCrash(t *testing.T) {
	b := cdptest.Browser(t)
	p := cdptest.Page(t, "data:text/html,<p>about to crash</p>")
	ctx := directCtx(t)
	d, err := cdpconn.AttachDirect(ctx, b.WebSocketURL(), false, p.TargetID())
	if err != nil {
		t.Fatal(err)
	}
	defer d.Detach()
	go func() { _ = p.Call(ctx, "Page.crash", nil, nil) }()
	select {
	case <-d.Done():
	case <-time.After(20 * time.Second):
		t.Fatal("Done not closed when the renderer crashed")
	}
	err = d.Call(ctx, "Runtime.evaluate", map[string]any{"expression": "1"}, nil)
	if dom.CodeOf(err) != dom.NotAttached || !strings.Contains(err.Error(), "crashed") {
		t.Errorf("call on a crashed tab: %v, want NOT_ATTACHED saying it crashed", err)
	}
}

// TestOpenDirectLeavesTheProbeInFlight: OpenDirect returns once the tab
// is attached. The capture's reads can go behind the probe. A page that
// never answers still fails as an attach, in the time OpenDirect was
// given: Answered and every call say the page is not answering
// Runtime.evaluate.
func TestOpenDirectLeavesTheProbeInFlight(t *testing.T) {
	b := cdptest.Browser(t)
	ctx := directCtx(t)
	for _, by := range []string{"id", "title"} {
		p, err := b.OpenPage(ctx, "data:text/html,<title>about-to-hang-"+by+"</title>")
		if err != nil {
			t.Fatal(err)
		}
		if err := p.Call(ctx, "Runtime.evaluate", map[string]any{"expression": "setTimeout(() => { for (;;) {} }, 50)"}, nil); err != nil {
			t.Fatal(err)
		}
		time.Sleep(300 * time.Millisecond)
		spec := p.TargetID()
		if by == "title" {
			spec = "about-to-hang-" + by
		}
		hctx, cancel := context.WithTimeout(ctx, 3*time.Second)
		d, err := cdpconn.OpenDirect(hctx, b.WebSocketURL(), false, spec)
		if err != nil {
			cancel()
			t.Fatalf("by %s: %v; want the tab, its probe still on its way", by, err)
		}
		// The call has more time than the probe: the probe's failure ends it.
		callErr := d.Call(ctx, "Page.getFrameTree", nil, nil)
		probeErr := d.Answered(ctx)
		cancel()
		for what, err := range map[string]error{"Answered": probeErr, "a call": callErr} {
			if dom.CodeOf(err) != dom.AttachFailed || !strings.Contains(err.Error(), "page "+p.TargetID()+" is not answering") || !strings.Contains(err.Error(), "Runtime.evaluate") {
				t.Errorf("by %s, %s: %v; want ATTACH_FAILED saying the page did not answer Runtime.evaluate", by, what, err)
			}
		}
		_ = d.Detach()
	}
}
