package capture_test

import (
	"context"
	"encoding/json"
	"math"
	"strings"
	"testing"
	"time"

	"domscope/cdpconn"
	"domscope/cdpconn/cdptest"
	"domscope/dom"
	"domscope/dom/build"
	"domscope/dom/capture"
	domtabs "domscope/dom/tabs"
)

func TestCaptureShadowRoots(t *testing.T) {
	p, _, _ := capOpen(t, "shadow.html")
	raw := capRaw(t, p)
	nodes := capAllNodes(t, raw)
	for id, shadow := range map[string]string{"open-btn": "open", "closed-btn": "closed", "closed-listener": "closed"} {
		n := capByID(nodes, id)
		if n == nil {
			t.Fatalf("#%s missing from the capture", id)
		}
		if n.shadow != shadow {
			t.Errorf("#%s is in a %q shadow root, want %q", id, n.shadow, shadow)
		}
	}
	var nested bool
	for _, n := range nodes {
		nested = nested || (n.NodeName == "A" && n.attr("href") == "/deep")
	}
	if !nested {
		t.Error("the link in a shadow root nested in a closed one is missing")
	}
	// The listener inside the closed root is found.
	cl := capByID(nodes, "closed-listener")
	if !capHasListener(raw.Targets[0], cl.BackendNodeID, "click") {
		t.Errorf("no click listener for the div in the closed shadow root: %+v", raw.Targets[0].Listeners)
	}
	if len(raw.Targets[0].AXTrees) != 1 || len(raw.Targets[0].Layout) == 0 {
		t.Errorf("AX trees %d, layout %d bytes", len(raw.Targets[0].AXTrees), len(raw.Targets[0].Layout))
	}
	if raw.Title != "Shadow roots" || !strings.HasSuffix(raw.URL, "/shadow.html") || raw.TargetID != p.TargetID() {
		t.Errorf("title %q url %q target %q", raw.Title, raw.URL, raw.TargetID)
	}
}

func capHasListener(rt dom.RawTarget, backend int64, typ string) bool {
	for _, l := range rt.Listeners {
		if l.BackendID == backend && l.Type == typ {
			return true
		}
	}
	return false
}

func TestCaptureListeners(t *testing.T) {
	p, _, _ := capOpen(t, "nonsemantic.html")
	raw := capRaw(t, p)
	nodes := capAllNodes(t, raw)
	rt := raw.Targets[0]
	for id, typ := range map[string]string{"listener-div": "click", "mousedown-div": "mousedown", "onclick-div": "click"} {
		n := capByID(nodes, id)
		if n == nil || !capHasListener(rt, n.BackendNodeID, typ) {
			t.Errorf("no %s listener for #%s: %+v", typ, id, rt.Listeners)
		}
	}
	for _, n := range nodes {
		switch n.NodeName {
		case "BODY", "HTML", "#document":
			for _, l := range rt.Listeners {
				if l.BackendID == n.BackendNodeID {
					t.Errorf("delegating root %s listed as clickable (%s)", n.NodeName, l.Type)
				}
			}
		}
	}
	if ul := capByID(nodes, "delegated"); ul != nil {
		for _, l := range rt.Listeners {
			if l.BackendID == ul.BackendNodeID {
				t.Errorf("a keydown listener was listed as click-family: %+v", l)
			}
		}
	}
	if len(rt.Listeners) > 4 {
		t.Errorf("unexpected listeners: %+v", rt.Listeners)
	}
}

func TestCaptureFrames(t *testing.T) {
	p, _, ulocal := capOpen(t, "frames.html?other={other}")
	capWaitFrames(t, p, 1)
	raw := capRaw(t, p)
	if len(raw.Targets) != 2 {
		t.Fatalf("targets %d, want the page and one out-of-process frame", len(raw.Targets))
	}
	page, oopif := raw.Targets[0], raw.Targets[1]
	if oopif.ParentTargetID != page.TargetID || !strings.HasPrefix(oopif.URL, ulocal) || oopif.Error != "" {
		t.Fatalf("oopif target %s parent %s url %s error %q", oopif.TargetID, oopif.ParentTargetID, oopif.URL, oopif.Error)
	}
	nodes := capAllNodes(t, raw)
	var inPage, inOOPIF int
	for _, n := range nodes {
		if n.attr("id") == "inner-btn" {
			if n.target == page.TargetID {
				inPage++
			} else if n.target == oopif.TargetID {
				inOOPIF++
			}
		}
	}
	if inPage != 1 || inOOPIF != 1 {
		t.Fatalf("frame buttons: %d in the page's same-origin frame, %d in the cross-origin target; want 1 and 1", inPage, inOOPIF)
	}
	// The cross-origin frame's <iframe> in the page names its frame.
	cross := capByID(nodes, "cross")
	if cross == nil || cross.FrameID != oopif.FrameID || oopif.OwnerBackendID != cross.BackendNodeID {
		t.Fatalf("cross iframe %+v, oopif frame %s owner %d", cross, oopif.FrameID, oopif.OwnerBackendID)
	}
	// left 400 + border 3 + padding 4; top 100 + 3 + 4; 300x150 content.
	if !capNear(oopif.Offset, dom.Rect{X: 407, Y: 107, W: 300, H: 150}) {
		t.Errorf("oopif offset %+v", oopif.Offset)
	}
	// The same-origin frame: an AX tree of its own and its offset.
	if len(page.Frames) != 2 || len(page.AXTrees) != 2 || page.AXTrees[1] == nil {
		t.Fatalf("page frames %+v, AX trees %d", page.Frames, len(page.AXTrees))
	}
	if !capNear(page.Frames[1].Offset, dom.Rect{X: 12, Y: 102, W: 300, H: 150}) {
		t.Errorf("same-origin frame offset %+v", page.Frames[1].Offset)
	}
	if len(oopif.AXTrees) != 1 || len(oopif.Layout) == 0 {
		t.Errorf("oopif AX %d layout %d", len(oopif.AXTrees), len(oopif.Layout))
	}
	il := capByID(nodes, "inner-listener")
	var found bool
	for _, n := range nodes {
		if n.attr("id") == "inner-listener" && n.target == oopif.TargetID {
			found = capHasListener(oopif, n.BackendNodeID, "click")
		}
	}
	if il == nil || !found {
		t.Errorf("no listener for the div in the cross-origin frame: %+v", oopif.Listeners)
	}
	b, _ := json.Marshal(raw)
	if strings.Contains(string(b), "frame-secret-pw") {
		t.Error("the frame's password value is in the capture")
	}
}

func capNear(a, b dom.Rect) bool {
	return math.Abs(a.X-b.X) < 1 && math.Abs(a.Y-b.Y) < 1 && math.Abs(a.W-b.W) < 1 && math.Abs(a.H-b.H) < 1
}

func TestCapturePrivacy(t *testing.T) {
	for _, tc := range []struct {
		page    string
		secrets []string
		kept    []string
	}{
		{"privacy.html", []string{"attr-secret-pw-123", "typed-secret-pw-456", "4111111111111111", "9876", "12/34", `12\/34`}, []string{"visible-user", "Card number"}},
		{"semantic.html", []string{"correct-horse-battery", "typed-secret-pw-991"}, []string{"ada@example.com", "Mathematician."}},
	} {
		t.Run(tc.page, func(t *testing.T) {
			p, _, _ := capOpen(t, tc.page)
			raw := capRaw(t, p)
			b, err := json.Marshal(raw)
			if err != nil {
				t.Fatal(err)
			}
			s := string(b)
			for _, sec := range tc.secrets {
				if strings.Contains(s, sec) {
					t.Errorf("secret %q is in the marshalled capture", sec)
				}
			}
			for _, k := range tc.kept {
				if !strings.Contains(s, k) {
					t.Errorf("%q was scrubbed but is not secret", k)
				}
			}
			// The capture must still be valid JSON in every part.
			var back dom.RawCapture
			if err := json.Unmarshal(b, &back); err != nil {
				t.Fatal(err)
			}
			for _, rt := range back.Targets {
				for _, blob := range append([]json.RawMessage{rt.Document, rt.Layout}, rt.AXTrees...) {
					if !json.Valid(blob) {
						t.Fatal("a scrubbed part is not valid JSON")
					}
				}
			}
		})
	}
}

func TestCaptureDeepPage(t *testing.T) {
	p, _, _ := capOpen(t, "deep.html")
	raw := capRaw(t, p)
	rt := raw.Targets[0]
	if len(rt.DocumentParts) == 0 {
		t.Fatal("a 10,000-deep page came back without parts: Chrome's nesting limit changed? check the fallback")
	}
	nodes := capAllNodes(t, raw)
	deepest := capByID(nodes, "deepest")
	if deepest == nil {
		t.Fatal("the deepest button is missing")
	}
	if deepest.depth < 10000 {
		t.Errorf("deepest button at depth %d, want > 10000", deepest.depth)
	}
	var lvl int
	for _, n := range nodes {
		if n.attr("class") == "lvl" {
			lvl++
		}
	}
	if lvl != 10000 {
		t.Errorf("%d nested divs, want 10000", lvl)
	}
}

func TestCaptureHostileStrings(t *testing.T) {
	p, _, _ := capOpen(t, "hostile.html")
	raw := capRaw(t, p)
	b, err := json.Marshal(raw)
	if err != nil || !json.Valid(b) {
		t.Fatalf("marshal: %v", err)
	}
	// Page strings are kept as they are; views sanitize them. The escape
	// sequences and the NUL survive the round trip through JSON.
	nodes := capAllNodes(t, raw)
	btn := capByID(nodes, "js-btn")
	if btn == nil || len(btn.Children) == 0 {
		t.Fatal("the JS-made button is missing")
	}
	if text := btn.Children[0].NodeValue; !strings.Contains(text, "\x1b[2J") || !strings.Contains(text, "\x00") {
		t.Errorf("button text %q lost its control characters", text)
	}
	if !strings.Contains(btn.attr("aria-label"), "\x1b[1;1H\a") {
		t.Errorf("aria-label %q", btn.attr("aria-label"))
	}
}

func TestCaptureDetachedPage(t *testing.T) {
	b := cdptest.Browser(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	p, err := b.NewPage(ctx, "about:blank")
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Detach(); err != nil {
		t.Fatal(err)
	}
	_, err = capture.Capture(ctx, p)
	if dom.CodeOf(err) != dom.NotAttached {
		t.Fatalf("capture of a detached page: %v, want NOT_ATTACHED", err)
	}
	if _, err := capture.Capture(ctx, nil); dom.CodeOf(err) != dom.NotAttached {
		t.Fatalf("capture of nil: %v", err)
	}
}

func TestCaptureNestedCrossOriginFrames(t *testing.T) {
	p, _, _ := capOpen(t, "frames-nested.html?other={other}")
	capWaitFrames(t, p, 2)
	raw := capRaw(t, p)
	if len(raw.Targets) != 3 {
		t.Fatalf("targets %d, want the page and two nested out-of-process frames", len(raw.Targets))
	}
	byID := map[string]dom.RawTarget{}
	for _, rt := range raw.Targets {
		byID[rt.TargetID] = rt
	}
	var mid, inner dom.RawTarget
	for _, rt := range raw.Targets[1:] {
		switch {
		case strings.Contains(rt.URL, "frame-mid.html"):
			mid = rt
		case strings.Contains(rt.URL, "frame-inner.html"):
			inner = rt
		}
	}
	if mid.TargetID == "" || inner.TargetID == "" {
		t.Fatalf("frames: %+v", raw.Targets[1:])
	}
	if mid.ParentTargetID != raw.TargetID || inner.ParentTargetID != mid.TargetID {
		t.Fatalf("parents: mid %s (want page %s), inner %s (want mid %s)", mid.ParentTargetID, raw.TargetID, inner.ParentTargetID, mid.TargetID)
	}
	// outer iframe at 50,60; the inner one at 20,40 inside it.
	if !capNear(mid.Offset, dom.Rect{X: 50, Y: 60, W: 400, H: 200}) || !capNear(inner.Offset, dom.Rect{X: 70, Y: 100, W: 200, H: 80}) {
		t.Errorf("offsets: mid %+v inner %+v", mid.Offset, inner.Offset)
	}
	nodes := capAllNodes(t, raw)
	var found bool
	for _, n := range nodes {
		found = found || (n.attr("id") == "inner-btn" && n.target == inner.TargetID)
	}
	if !found {
		t.Error("the button of the innermost frame is missing")
	}
}

func TestCaptureWithDialogOpenReturnsInTime(t *testing.T) {
	p, _, _ := capOpen(t, "semantic.html")
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	dialogs, stop := p.Subscribe("Page.javascriptDialogOpening")
	defer stop()
	// Open an alert without waiting for it (it blocks the page's script).
	go func() {
		_ = p.Call(ctx, "Runtime.evaluate", map[string]any{"expression": "setTimeout(() => alert('hi'), 0)"}, nil)
	}()
	select {
	case <-dialogs:
	case <-ctx.Done():
		t.Fatal("no dialog opened")
	}
	defer func() {
		_ = p.Call(ctx, "Page.handleJavaScriptDialog", map[string]any{"accept": true}, nil)
	}()
	cctx, ccancel := context.WithTimeout(ctx, 3*time.Second)
	defer ccancel()
	// Chrome may or may not answer while an alert is up. Either way the
	// capture must end with its deadline, never hang. The bound below is
	// only a hang guard: a loaded machine is slow, not broken.
	done := make(chan error, 1)
	go func() {
		_, err := capture.Capture(cctx, p)
		done <- err
	}()
	select {
	case err := <-done:
		t.Logf("capture with a dialog open: %v", err)
	case <-time.After(2 * time.Minute):
		t.Fatal("a capture with a dialog open did not end with its 3 s deadline")
	}
}

// TestCaptureBuildFrameBounds checks the frame offsets end to end. After
// build.Build, buttons inside a same-origin and a cross-origin frame have
// their places in the page. That holds with the page scrolled too.
func TestCaptureBuildFrameBounds(t *testing.T) {
	p, _, _ := capOpen(t, "frames.html?other={other}")
	capWaitFrames(t, p, 1)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := p.Call(ctx, "Runtime.evaluate", map[string]any{"expression": "window.scrollTo(0, 40)"}, nil); err != nil {
		t.Fatal(err)
	}
	raw := capRaw(t, p)
	if raw.Viewport.Y != 40 {
		t.Fatalf("viewport %+v, want scrolled by 40", raw.Viewport)
	}
	snap, err := build.Build(raw, build.Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]dom.Rect{ // top-left of the frames' content boxes (body margin 0)
		raw.Targets[0].TargetID: {X: 12, Y: 102},
		raw.Targets[1].TargetID: {X: 407, Y: 107},
	}
	seen := 0
	stack := []*dom.VirtualNode{snap.Root}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		stack = append(stack, n.Children...)
		if n.Attr("id") != "inner-btn" {
			continue
		}
		seen++
		w, ok := want[n.TargetID]
		if !ok {
			t.Errorf("button in unexpected target %s", n.TargetID)
			continue
		}
		if math.Abs(n.Bounds.X-w.X) > 1 || math.Abs(n.Bounds.Y-w.Y) > 1 || n.Bounds.W == 0 {
			t.Errorf("button in target %s at %+v, want top-left %v,%v", n.TargetID, n.Bounds, w.X, w.Y)
		}
	}
	if seen != 2 {
		t.Fatalf("found %d frame buttons, want 2", seen)
	}
}

// TestEngineConnectionErrors covers what a user meets first. A dead
// endpoint is a clear, quick error. Capturing a tab of "their" browser
// and detaching leaves the tab open.
func TestEngineConnectionErrors(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	// Refused, not waited out: the quick path, whatever the machine's speed.
	_, err := cdpconn.Connect(ctx, "http://127.0.0.1:9", false)
	if dom.CodeOf(err) != dom.AttachFailed || !strings.Contains(err.Error(), "no browser at http://127.0.0.1:9 (connection refused)") {
		t.Fatalf("dead endpoint: %v", err)
	}

	users, _, _ := capOpen(t, "semantic.html") // stands for a tab the user opened
	b := cdptest.Browser(t)
	tabs, err := b.Targets(ctx)
	if err != nil {
		t.Fatal(err)
	}
	pick, err := domtabs.Pick(tabs, users.TargetID())
	if err != nil {
		t.Fatal(err)
	}
	p, err := b.Attach(ctx, pick.ID)
	if err != nil {
		t.Fatal(err)
	}
	if raw, err := capture.Capture(ctx, p); err != nil || raw.Title != "Semantic controls" {
		t.Fatalf("capture of an attached tab: %v", err)
	}
	if err := p.Detach(); err != nil {
		t.Fatal(err)
	}
	tabs, err = b.Targets(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := domtabs.Pick(tabs, users.TargetID()); err != nil {
		t.Fatalf("the tab is gone after Detach: %v", err)
	}
}
