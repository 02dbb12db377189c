package cdpconn_test

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"domscope/cdpconn"
	"domscope/cdpconn/cdptest"
	"domscope/dom"
	"domscope/dom/capture"
	domtabs "domscope/dom/tabs"
)

func TestDeadEndpointIsQuickClearError(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // nothing listens there now
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	_, err = cdpconn.Connect(ctx, "http://"+addr, false)
	if err == nil || dom.CodeOf(err) != dom.AttachFailed || !strings.Contains(err.Error(), "no browser at") {
		t.Fatalf("dead endpoint: got %v", err)
	}
}

func TestWrongEndpoint(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("<html>not chrome</html>"))
	}))
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	_, err := cdpconn.Connect(ctx, srv.URL, false)
	if err == nil || !strings.Contains(err.Error(), "not a Chrome DevTools endpoint") {
		t.Fatalf("wrong endpoint: got %v", err)
	}
}

func TestHangingEndpointTimesOut(t *testing.T) {
	cdptest.SkipShort(t)
	// A server that accepts and never answers must not hang Connect.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			defer c.Close()
		}
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	_, err = cdpconn.Connect(ctx, "http://"+ln.Addr().String(), false)
	if err == nil || ctx.Err() != nil {
		t.Fatalf("hanging endpoint: err %v, ctx %v", err, ctx.Err())
	}
}

func TestRemoteRefused(t *testing.T) {
	for _, ep := range []string{"http://10.1.2.3:9222", "ws://example.com:9222/devtools/browser/x", "192.168.0.1:9222"} {
		_, err := cdpconn.Connect(context.Background(), ep, false)
		if err == nil || !strings.Contains(err.Error(), "--allow-remote") {
			t.Errorf("%s: got %v, want a refusal naming --allow-remote", ep, err)
		}
	}
}

func TestConnectHTTPAndAttachDetachKeepsTab(t *testing.T) {
	b := cdptest.Browser(t)
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.html"), []byte(`<title>keep me</title><button id=b>hi</button>`), 0o644)
	u, _ := cdptest.Serve(t, dir)
	owned := cdptest.Page(t, u+"/a.html") // the "user's" tab, opened by the test

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	// Connect over the http endpoint, as a user would to their own browser.
	ws := b.WebSocketURL()
	hostport := strings.TrimPrefix(ws, "ws://")
	hostport = hostport[:strings.Index(hostport, "/")]
	// Every spelling of the endpoint reaches the same browser.
	for _, ep := range []string{hostport, "ws://" + hostport, ws} {
		bx, err := cdpconn.Connect(ctx, ep, false)
		if err != nil {
			t.Fatalf("connect %s: %v", ep, err)
		}
		if _, err := bx.Targets(ctx); err != nil {
			t.Fatalf("targets via %s: %v", ep, err)
		}
		bx.Close()
	}
	b2, err := cdpconn.Connect(ctx, "http://"+hostport, false)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	defer b2.Close()
	tabs, err := b2.Targets(ctx)
	if err != nil {
		t.Fatal(err)
	}
	pick, err := domtabs.Pick(tabs, "a.html")
	if err != nil || pick.ID != owned.TargetID() {
		t.Fatalf("pick: %v %v, want %s", pick, err, owned.TargetID())
	}
	p, err := b2.Attach(ctx, pick.ID)
	if err != nil {
		t.Fatal(err)
	}
	var res struct {
		Result struct {
			Value string `json:"value"`
		} `json:"result"`
	}
	if err := p.Call(ctx, "Runtime.evaluate", map[string]any{"expression": "document.title", "returnByValue": true}, &res); err != nil {
		t.Fatal(err)
	}
	if res.Result.Value != "keep me" {
		t.Fatalf("title %q", res.Result.Value)
	}
	if err := p.Detach(); err != nil {
		t.Fatalf("detach: %v", err)
	}
	select {
	case <-p.Done():
	case <-time.After(time.Minute): // a hang guard
		t.Fatal("Done not closed after Detach")
	}
	if err := b2.Close(); err != nil {
		t.Fatalf("close: %v", err)
	}
	// The tab is still there, in both the list and the working session.
	tabs, err = b.Targets(ctx)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, tab := range tabs {
		found = found || tab.ID == pick.ID
	}
	if !found {
		t.Fatalf("tab %s was closed by Detach/Close of a tab we did not open: %v", pick.ID, tabs)
	}
	if err := owned.Call(ctx, "Runtime.evaluate", map[string]any{"expression": "1"}, nil); err != nil {
		t.Fatalf("the original session broke: %v", err)
	}
	// Attach to an unknown id is TARGET_NOT_FOUND.
	if _, err := b.Attach(ctx, "NOPE"); dom.CodeOf(err) != dom.TargetNotFound {
		t.Fatalf("unknown target: %v", err)
	}
}

func TestNewPageOwnedIsClosedOnDetach(t *testing.T) {
	b := cdptest.Browser(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	p, err := b.NewPage(ctx, "about:blank")
	if err != nil {
		t.Fatal(err)
	}
	id := p.TargetID()
	if err := p.Detach(); err != nil {
		t.Fatal(err)
	}
	tabs, _ := b.Targets(ctx)
	for _, tab := range tabs {
		if tab.ID == id {
			t.Fatalf("owned tab %s still open after Detach", id)
		}
	}
	if err := p.Call(ctx, "Runtime.evaluate", map[string]any{"expression": "1"}, nil); dom.CodeOf(err) != dom.NotAttached {
		t.Fatalf("call after detach: %v", err)
	}
}

func TestEventsAndCrossOriginFrames(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "inner.html"), []byte(`<button id=inner>inside</button>`), 0o644)
	os.WriteFile(filepath.Join(dir, "outer.html"), []byte(`<h1>outer</h1><script>
		const f = document.createElement('iframe');
		f.src = new URLSearchParams(location.search).get('other') + '/inner.html';
		document.body.appendChild(f);
	</script>`), 0o644)
	u127, ulocal := cdptest.Serve(t, dir)
	p := cdptest.Page(t, "about:blank")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	loads, stop := p.Subscribe("Page.loadEventFired")
	defer stop()
	nav, stopNav := p.Subscribe("Page.frameNavigated")
	defer stopNav()
	if err := p.Navigate(ctx, u127+"/outer.html?other="+ulocal); err != nil {
		t.Fatal(err)
	}
	select {
	case ev := <-loads:
		var v struct{ Timestamp float64 }
		if err := json.Unmarshal(ev, &v); err != nil || v.Timestamp == 0 {
			t.Fatalf("load event %s %v", ev, err)
		}
	case <-ctx.Done():
		t.Fatal("no Page.loadEventFired")
	}
	select {
	case <-nav:
	case <-ctx.Done():
		t.Fatal("no Page.frameNavigated")
	}
	var frames []dom.FrameTarget
	for ctx.Err() == nil {
		var err error
		if frames, err = p.Frames(ctx); err != nil {
			t.Fatal(err)
		}
		if len(frames) > 0 {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if len(frames) != 1 || !strings.HasPrefix(frames[0].URL, ulocal) {
		t.Fatalf("frames %+v, want one from %s", frames, ulocal)
	}
	var res struct {
		Result struct {
			Value string `json:"value"`
		} `json:"result"`
	}
	err := frames[0].Session.Call(ctx, "Runtime.evaluate", map[string]any{"expression": "document.getElementById('inner').textContent", "returnByValue": true}, &res)
	if err != nil || res.Result.Value != "inside" {
		t.Fatalf("frame eval %q %v", res.Result.Value, err)
	}
	// Asking again reuses the session.
	again, err := p.Frames(ctx)
	if err != nil || len(again) != 1 || again[0].Session != frames[0].Session {
		t.Fatalf("second Frames: %+v %v", again, err)
	}
}

func TestLaunchAndClose(t *testing.T) {
	cdptest.SkipShort(t)
	if _, err := cdpconn.FindChrome(); err != nil {
		cdptest.Browser(t) // skips or fails with the shared message
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	dir := t.TempDir()
	b, err := cdpconn.Launch(ctx, cdpconn.LaunchOptions{Headless: true, UserDataDir: filepath.Join(dir, "profile")})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(b.WebSocketURL(), "ws://127.0.0.1:") {
		t.Errorf("ws url %s", b.WebSocketURL())
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Targets(ctx); dom.CodeOf(err) != dom.NotAttached {
		t.Fatalf("targets after close: %v", err)
	}
}

func TestBrowserCrashEndsPages(t *testing.T) {
	cdptest.SkipShort(t)
	if _, err := cdpconn.FindChrome(); err != nil {
		cdptest.Browser(t) // skips or fails with the shared message
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	b, err := cdpconn.Launch(ctx, cdpconn.LaunchOptions{Headless: true})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	p, err := b.NewPage(ctx, "about:blank")
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Process().Kill(); err != nil {
		t.Fatal(err)
	}
	select {
	case <-p.Done():
	case <-time.After(time.Minute): // a hang guard
		t.Fatal("Done not closed after the browser died")
	}
	// NOT_ATTACHED, not a TIMEOUT: the call did not wait for an answer.
	err = p.Call(ctx, "Runtime.evaluate", map[string]any{"expression": "1"}, nil)
	if dom.CodeOf(err) != dom.NotAttached {
		t.Fatalf("call on a dead browser: %v", err)
	}
	if _, err := b.Targets(ctx); dom.CodeOf(err) != dom.NotAttached {
		t.Fatalf("targets of a dead browser: %v", err)
	}
	if _, err := capture.Capture(ctx, p); dom.CodeOf(err) != dom.NotAttached {
		t.Fatalf("capture on a dead browser: %v", err)
	}
}

func TestTabClosedEndsAttachedPage(t *testing.T) {
	b := cdptest.Browser(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	owner, err := b.NewPage(ctx, "about:blank")
	if err != nil {
		t.Fatal(err)
	}
	p, err := b.Attach(ctx, owner.TargetID())
	if err != nil {
		t.Fatal(err)
	}
	defer p.Detach()
	if err := owner.Detach(); err != nil { // closes the tab: the program opened it
		t.Fatal(err)
	}
	select {
	case <-p.Done():
	case <-time.After(time.Minute): // a hang guard
		t.Fatal("Done not closed after the tab closed")
	}
	if err := p.Call(ctx, "Runtime.evaluate", map[string]any{"expression": "1"}, nil); dom.CodeOf(err) != dom.NotAttached {
		t.Fatalf("call on a closed tab: %v", err)
	}
}
