package cdpconn_test

import (
	"context"
	"encoding/json"
	"net"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"domscope/cdpconn"
	"domscope/cdpconn/cdptest"
	"domscope/dom"
)

func directCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel)
	return ctx
}

// TestDirectAttach attaches to a tab by id and by URL and talks to it. It
// leaves the tab open when it detaches.
func TestDirectAttach(t *testing.T) {
	b := cdptest.Browser(t)
	p := cdptest.Page(t, "data:text/html,<title>direct-attach-probe</title><p>hi</p>")
	ctx := directCtx(t)
	for _, spec := range []string{p.TargetID(), "direct-attach-probe"} {
		d, err := cdpconn.AttachDirect(ctx, b.WebSocketURL(), false, spec)
		if err != nil {
			t.Fatalf("attach %q: %v", spec, err)
		}
		if d.TargetID() != p.TargetID() {
			t.Errorf("attach %q: got target %s, want %s", spec, d.TargetID(), p.TargetID())
		}
		var r struct {
			Result struct {
				Value string `json:"value"`
			} `json:"result"`
		}
		if err := d.Call(ctx, "Runtime.evaluate", map[string]any{"expression": "document.title", "returnByValue": true}, &r); err != nil || r.Result.Value != "direct-attach-probe" {
			t.Fatalf("evaluate: %q, %v", r.Result.Value, err)
		}
		var raw json.RawMessage
		if err := d.Call(ctx, "DOM.getDocument", map[string]any{"depth": 1}, &raw); err != nil || !strings.Contains(string(raw), `"root"`) {
			t.Fatalf("getDocument: %.80s, %v", raw, err)
		}
		if err := d.Detach(); err != nil {
			t.Fatal(err)
		}
		select {
		case <-d.Done():
		case <-time.After(10 * time.Second):
			t.Fatal("Done not closed after Detach")
		}
		if err := d.Call(ctx, "Runtime.evaluate", map[string]any{"expression": "1"}, nil); dom.CodeOf(err) != dom.NotAttached {
			t.Errorf("call after Detach: %v, want NOT_ATTACHED", err)
		}
	}
	tabs, err := b.Targets(ctx)
	if err != nil {
		t.Fatal(err)
	}
	open := false
	for _, tb := range tabs {
		open = open || tb.ID == p.TargetID()
	}
	if !open {
		t.Error("Detach closed the tab: a direct connection never owns it")
	}
}

// TestDirectAttachEnablesNothing: a direct attach turns on no domain. So
// the page sends the session no events it did not ask for. chromedp's
// attach turns Runtime on. Its console message comes before the reply to
// the evaluate that logs it. The check relies on that; the control shows
// the probe sees it.
func TestDirectAttachEnablesNothing(t *testing.T) {
	b := cdptest.Browser(t)
	p := cdptest.Page(t, "data:text/html,<p>quiet</p>")
	ctx := directCtx(t)
	d, err := cdpconn.AttachDirect(ctx, b.WebSocketURL(), false, p.TargetID())
	if err != nil {
		t.Fatal(err)
	}
	defer d.Detach()
	logged := func(s dom.Session) bool {
		ev, stop := s.Subscribe("Runtime.consoleAPICalled")
		defer stop()
		if err := s.Call(ctx, "Runtime.evaluate", map[string]any{"expression": "console.log('probe')"}, nil); err != nil {
			t.Fatal(err)
		}
		select {
		case <-ev:
			return true
		case <-time.After(2 * time.Second):
			return false
		}
	}
	if !logged(p) {
		t.Fatal("control: the chromedp session got no console event; the probe does not work")
	}
	if logged(d) {
		t.Error("the direct session got a console event: its attach turned Runtime on")
	}
}

// TestDirectFramesAndEvents lists and attaches an out-of-process frame,
// and delivers the events a session subscribes to.
func TestDirectFramesAndEvents(t *testing.T) {
	b := cdptest.Browser(t)
	u127, ulocal := cdptest.Serve(t, filepath.Join("..", "testdata", "pages"))
	p := cdptest.Page(t, u127+"/frames.html?other="+ulocal)
	ctx := directCtx(t)
	d, err := cdpconn.AttachDirect(ctx, b.WebSocketURL(), false, p.TargetID())
	if err != nil {
		t.Fatal(err)
	}
	defer d.Detach()
	var frames []dom.FrameTarget
	for deadline := time.Now().Add(20 * time.Second); len(frames) == 0 && time.Now().Before(deadline); {
		if frames, err = d.Frames(ctx); err != nil {
			t.Fatal(err)
		}
		if len(frames) == 0 {
			time.Sleep(50 * time.Millisecond)
		}
	}
	if len(frames) == 0 {
		t.Fatal("no out-of-process frame listed")
	}
	var r struct {
		Result struct {
			Value string `json:"value"`
		} `json:"result"`
	}
	f := frames[0]
	if err := f.Session.Call(ctx, "Runtime.evaluate", map[string]any{"expression": "location.origin", "returnByValue": true}, &r); err != nil || r.Result.Value != ulocal {
		t.Fatalf("frame %s: origin %q, %v; want %s", f.TargetID, r.Result.Value, err, ulocal)
	}
	again, err := d.Frames(ctx)
	if err != nil || len(again) != len(frames) {
		t.Fatalf("second listing: %d frames, %v", len(again), err)
	}

	// DOM.setChildNodes comes as an event after DOM.requestChildNodes.
	var doc struct {
		Root struct {
			NodeID int64 `json:"nodeId"`
		} `json:"root"`
	}
	if err := d.Call(ctx, "DOM.getDocument", map[string]any{"depth": 0}, &doc); err != nil {
		t.Fatal(err)
	}
	ev, stop := d.Subscribe("DOM.setChildNodes")
	defer stop()
	if err := d.Call(ctx, "DOM.requestChildNodes", map[string]any{"nodeId": doc.Root.NodeID, "depth": 1}, nil); err != nil {
		t.Fatal(err)
	}
	select {
	case raw := <-ev:
		if !strings.Contains(string(raw), `"parentId"`) {
			t.Errorf("event: %.100s", raw)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("no DOM.setChildNodes event")
	}
}

// TestDirectErrors: a clear error with the right code for each way an
// attach or a call can fail. A tab that closes ends the page.
func TestDirectErrors(t *testing.T) {
	b := cdptest.Browser(t)
	ctx := directCtx(t)
	if _, err := cdpconn.AttachDirect(ctx, b.WebSocketURL(), false, "no-such-tab-anywhere"); dom.CodeOf(err) != dom.TargetNotFound {
		t.Errorf("unknown tab: %v, want TARGET_NOT_FOUND", err)
	}
	if _, err := cdpconn.AttachDirect(ctx, "http://10.1.2.3:9222", false, ""); err == nil || !strings.Contains(err.Error(), "--allow-remote") {
		t.Errorf("remote endpoint: %v, want a refusal naming --allow-remote", err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	if _, err := cdpconn.AttachDirect(ctx, "http://"+addr, false, ""); dom.CodeOf(err) != dom.AttachFailed {
		t.Errorf("dead endpoint: %v, want ATTACH_FAILED", err)
	}

	p, err := b.OpenPage(ctx, "data:text/html,<p>closing</p>")
	if err != nil {
		t.Fatal(err)
	}
	d, err := cdpconn.AttachDirect(ctx, b.WebSocketURL(), false, p.TargetID())
	if err != nil {
		t.Fatal(err)
	}
	defer d.Detach()
	err = d.Call(ctx, "No.suchMethod", nil, nil)
	if dom.CodeOf(err) != dom.CDPError || !strings.Contains(err.Error(), "No.suchMethod") {
		t.Errorf("unknown method: %v, want CDP_ERROR naming it", err)
	}
	if err := p.Detach(); err != nil { // the program opened it: this closes it
		t.Fatal(err)
	}
	select {
	case <-d.Done():
	case <-time.After(20 * time.Second):
		t.Fatal("Done not closed when the tab closed")
	}
	if err := d.Call(ctx, "Runtime.evaluate", map[string]any{"expression": "1"}, nil); dom.CodeOf(err) != dom.NotAttached {
		t.Errorf("call on a closed tab: %v, want NOT_ATTACHED", err)
	}
}

// TestDirectAttachHungPage: a page whose script never yields is an
// attach that failed. It is said within the caller's time. It names the
// call the page did not answer.
func TestDirectAttachHungPage(t *testing.T) {
	b := cdptest.Browser(t)
	p := cdptest.Page(t, "data:text/html,<p>about to hang</p>")
	ctx := directCtx(t)
	if err := p.Call(ctx, "Runtime.evaluate", map[string]any{"expression": "setTimeout(() => { for (;;) {} }, 50)"}, nil); err != nil {
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond)
	hctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	d, err := cdpconn.AttachDirect(hctx, b.WebSocketURL(), false, p.TargetID())
	if err == nil {
		d.Detach()
		t.Fatal("attached to a hung page")
	}
	if dom.CodeOf(err) != dom.AttachFailed || !strings.Contains(err.Error(), "is not answering") || !strings.Contains(err.Error(), "Runtime.evaluate") {
		t.Errorf("hung page: %v, want ATTACH_FAILED saying Runtime.evaluate got no reply", err)
	}
}

// TestDirectAttachByIDOnlyTabs: a spec in the form of a target id is
// attached to while the tabs are listed. But only a tab's id is taken.
// An out-of-process frame's id and an unknown id are no tab.
func TestDirectAttachByIDOnlyTabs(t *testing.T) {
	b := cdptest.Browser(t)
	u, other := cdptest.Serve(t, filepath.Join("..", "testdata", "pages"))
	p := cdptest.Page(t, u+"/frames.html?other="+other)
	ctx := directCtx(t)
	var frames []dom.FrameTarget
	for deadline := time.Now().Add(30 * time.Second); len(frames) == 0 && time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		frames, _ = p.Frames(ctx)
	}
	if len(frames) == 0 {
		t.Fatal("the page's cross-origin frame never came")
	}
	for _, spec := range []string{frames[0].TargetID, "0123456789ABCDEF0123456789ABCDEF"} {
		d, err := cdpconn.AttachDirect(ctx, b.WebSocketURL(), false, spec)
		if err == nil {
			d.Detach()
			t.Errorf("%s: attached, want no tab", spec)
		} else if dom.CodeOf(err) != dom.TargetNotFound {
			t.Errorf("%s: %v, want TARGET_NOT_FOUND", spec, err)
		}
	}
	d, err := cdpconn.AttachDirect(ctx, b.WebSocketURL(), false, p.TargetID())
	if err != nil {
		t.Fatal(err)
	}
	defer d.Detach()
	if d.TargetID() != p.TargetID() {
		t.Errorf("attached to %s, want %s", d.TargetID(), p.TargetID())
	}
}
