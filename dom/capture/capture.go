// Package capture fetches a page's capture over CDP: DOM, AX trees,
// layout, listeners, frames. It scrubs every sensitive value from it at
// the door, before any later stage sees it.
package capture

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"time"

	"domscope/dom"
	"domscope/dom/cdpjson"
)

// captureTimeout bounds a whole capture whose context has no deadline.
const captureTimeout = 90 * time.Second

// Capture fetches one snapshot of the page. For the page target and each
// out-of-process iframe target it reads:
//   - the DOM, pierced: shadow roots, open and closed, and same-process
//     iframe documents.
//   - the accessibility tree of every frame.
//   - layout and style facts (DOMSnapshot).
//   - elements with their own click-family listeners.
//   - where each target sits in the page.
//
// The values of sensitive fields (SensitiveField) are scrubbed from
// everything it returns (see Scrub). Errors are *Error: NOT_ATTACHED when
// the page is gone, SNAPSHOT_FAILED otherwise.
func Capture(ctx context.Context, p dom.Page) (*dom.RawCapture, error) {
	return capture(ctx, p, nil)
}

// capture is Capture. A non-nil sink is handed the page's parts as they
// arrive (see sink).
func capture(ctx context.Context, p dom.Page, k *sink) (*dom.RawCapture, error) {
	if p == nil {
		return nil, dom.Errorf(dom.NotAttached, nil, "no page to capture: attach to a tab first")
	}
	select {
	case <-p.Done():
		return nil, dom.Errorf(dom.NotAttached, nil, "the page is no longer attached (tab closed or browser gone)")
	default:
	}
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, captureTimeout)
		defer cancel()
	}
	start := time.Now()
	raw := &dom.RawCapture{Version: 1, TargetID: p.TargetID(), Timestamp: start.UTC().Format(time.RFC3339Nano), Timings: map[string]float64{}}
	var tmu sync.Mutex
	timed := func(phase string, since time.Time) {
		tmu.Lock()
		raw.Timings[phase] += float64(time.Since(since).Microseconds()) / 1000
		tmu.Unlock()
	}

	// The page and its out-of-process frames are captured concurrently.
	// Each lives in its own renderer process. The page's reads start at
	// once. Only its same-process frames wait for the list of the others.
	dom.ReportPhase(ctx, "listing frames")
	var frames []dom.FrameTarget
	var framesErr error
	listed := make(chan struct{})
	go func() {
		t0 := time.Now()
		frames, framesErr = p.Frames(ctx)
		timed("frames", t0)
		close(listed)
	}()
	oop := func() map[string]bool {
		<-listed
		return oopSet(frames)
	}
	var main dom.RawTarget
	var meta targetMeta
	var err error
	var frameTargets []dom.RawTarget
	var wg sync.WaitGroup
	wg.Go(func() {
		meta, err = captureTarget(ctx, p, p.TargetID(), oop, &main, timed, k)
	})
	<-listed
	var boxes *oopBoxes
	if framesErr == nil {
		boxes = askOOPBoxes(ctx, p, frames)
		wg.Go(func() { frameTargets = FrameTargets(ctx, p, frames, timed) })
	}
	wg.Wait()
	defer boxes.wait()
	if framesErr != nil {
		return nil, Err(framesErr, "listing out-of-process frames")
	}
	if err != nil {
		return nil, Err(err, "capturing the page")
	}
	raw.URL, raw.Title, raw.Viewport = meta.url, meta.title, meta.viewport
	raw.Targets = append([]dom.RawTarget{main}, frameTargets...)

	t0 := time.Now()
	placeFramesOf(ctx, p, frames, raw, false, boxes)
	timed("frameOffsets", t0)

	// The sink reads the page's JSON. It is done before the scrub runs.
	k.wait()
	t0 = time.Now()
	Scrub(raw)
	timed("privacy", t0)
	raw.Timings["total"] = float64(time.Since(start).Microseconds()) / 1000
	return raw, nil
}

// oopSet is the target ids of out-of-process frames.
func oopSet(frames []dom.FrameTarget) map[string]bool {
	oop := map[string]bool{}
	for _, f := range frames {
		oop[f.TargetID] = true
	}
	return oop
}

// FrameTargets captures each out-of-process frame of p whole, side by
// side. Each lives in its own renderer process. A frame that went away
// mid-capture is kept with its error, so the user sees it. It keeps no
// data and does not fail the page.
func FrameTargets(ctx context.Context, p dom.Page, frames []dom.FrameTarget, timed func(string, time.Time)) []dom.RawTarget {
	targets := make([]dom.RawTarget, len(frames))
	oop := oopSet(frames)
	known := func() map[string]bool { return oop }
	var wg sync.WaitGroup
	for i, f := range frames {
		wg.Go(func() {
			if _, err := captureTarget(ctx, f.Session, f.TargetID, known, &targets[i], timed, nil); err != nil {
				// Keep no partial data: a frame is either whole or marked.
				targets[i] = dom.RawTarget{TargetID: f.TargetID, URL: f.URL, Error: err.Error()}
			}
			targets[i].ParentTargetID = f.ParentID
			if targets[i].ParentTargetID == "" {
				targets[i].ParentTargetID = p.TargetID()
			}
		})
	}
	wg.Wait()
	return targets
}

// targetMeta is what captureTarget learns besides the RawTarget.
type targetMeta struct {
	url, title string
	viewport   dom.Rect // the target's layout viewport in its own document coordinates
}

// captureTarget fills rt with one target's DOM, AX trees, layout and
// listeners. oop gives the out-of-process frames; it may wait for them.
// k, if not nil, is handed the document, main AX tree and layout as they
// arrive.
//
// The renderer answers one command at a time, in the order they were
// sent. Sending them together overlaps its work with the transfer and
// decoding of earlier replies. The first reads go out in the order of
// sendOrder. First go those whose replies lead to a second step. The
// frame tree leads to the AX trees of same-process frames. The document
// object leads to its listeners. Then go the document, the AX tree and
// the layout.
func captureTarget(ctx context.Context, s dom.Session, targetID string, oop func() map[string]bool, rt *dom.RawTarget, timed func(string, time.Time), k *sink) (targetMeta, error) {
	var m targetMeta
	rt.TargetID = targetID
	prog := newParts(ctx)
	for _, part := range partOrder {
		prog.start(part)
	}
	var wg sync.WaitGroup
	var treeErr, docErr, axErr, layoutErr, lisErr, metaErr error
	order := newSendOrder(s, 7)

	var ft struct {
		FrameTree cdpjson.FrameTree `json:"frameTree"`
	}
	treeDone := make(chan struct{})
	wg.Go(func() {
		t0 := time.Now()
		treeErr = order.session(s, 0).Call(ctx, "Page.getFrameTree", nil, &ft)
		timed("frameTree", t0)
		close(treeDone)
	})
	wg.Go(func() {
		t0 := time.Now()
		rt.Listeners, lisErr = fetchListeners(ctx, order.session(s, 1))
		timed("listeners", t0)
		prog.done("listeners")
	})
	wg.Go(func() {
		t0 := time.Now()
		m.title, _, m.viewport, metaErr = Meta(ctx, order.session(s, 2, 3))
		timed("meta", t0)
	})
	wg.Go(func() {
		t0 := time.Now()
		docErr = fetchDocument(ctx, order.session(s, 4), rt)
		timed("document", t0)
		prog.done("DOM")
		if docErr == nil {
			k.documentIn(rt)
		}
	})
	// The main frame's tree needs no frame id. The others wait for the
	// frame tree.
	var mainAX json.RawMessage
	axStart := time.Now()
	mainDone := make(chan struct{})
	wg.Go(func() {
		defer close(mainDone)
		if axErr = order.session(s, 5).Call(ctx, "Accessibility.getFullAXTree", map[string]any{}, &mainAX); axErr == nil {
			k.axIn(mainAX)
		}
	})
	wg.Go(func() {
		t0 := time.Now()
		layoutErr = order.session(s, 6).Call(ctx, "DOMSnapshot.captureSnapshot", map[string]any{"computedStyles": dom.LayoutStyles}, &rt.Layout)
		timed("layout", t0)
		prog.done("layout")
		if layoutErr == nil {
			k.layoutIn(rt.Layout)
		}
	})
	<-treeDone
	var local []dom.RawFrame
	var boxes *frameBoxes
	var childAX []json.RawMessage
	var childErrs []error
	if treeErr == nil {
		rt.FrameID = ft.FrameTree.Frame.ID
		rt.URL = ft.FrameTree.Frame.URL
		local = localFrames(&ft.FrameTree, rt.FrameID, oop())
		childAX = make([]json.RawMessage, len(local))
		childErrs = make([]error, len(local))
		// Where each frame sits is asked now. The replies come with the
		// big reads instead of after them.
		boxes = askFrameBoxes(ctx, s, local)
		// A child frame gone mid-capture is not fatal. Its tree is nil.
		for i := 1; i < len(local); i++ {
			wg.Go(func() {
				childErrs[i] = s.Call(ctx, "Accessibility.getFullAXTree", map[string]any{"frameId": local[i].FrameID}, &childAX[i])
			})
		}
	}
	wg.Go(func() {
		<-mainDone
		timed("axTree", axStart)
	})
	wg.Wait()
	prog.done("accessibility")
	m.url = rt.URL
	if treeErr != nil {
		if boxes != nil {
			boxes.wg.Wait()
		}
		return m, treeErr
	}
	rt.Frames = local
	rt.AXTrees = childAX
	rt.AXTrees[0] = mainAX
	for i := 1; i < len(childErrs); i++ {
		if childErrs[i] != nil {
			rt.AXTrees[i] = nil
		}
	}
	for _, e := range []struct {
		err  error
		what string
	}{{docErr, "DOM.getDocument"}, {axErr, "Accessibility.getFullAXTree"}, {layoutErr, "DOMSnapshot.captureSnapshot"}, {lisErr, "DOMDebugger.getEventListeners"}, {metaErr, "reading title and viewport"}} {
		if e.err != nil {
			boxes.wg.Wait()
			return m, Err(e.err, e.what)
		}
	}
	rt.Viewport = m.viewport
	boxes.place(rt.Frames, rt.Viewport)
	return m, nil
}

// localFrames lists the same-process frames of a target in document
// order, its main frame first. Frames that are out-of-process targets of
// their own (in oop) are captured there.
func localFrames(tree *cdpjson.FrameTree, mainID string, oop map[string]bool) []dom.RawFrame {
	var local []dom.RawFrame
	tree.Walk(func(f *cdpjson.FrameTree) bool {
		if oop[f.Frame.ID] && f.Frame.ID != mainID {
			return false
		}
		local = append(local, dom.RawFrame{FrameID: f.Frame.ID, ParentFrameID: f.Frame.ParentID, URL: f.Frame.URL, Name: f.Frame.Name})
		return true
	})
	return local
}

// Meta reads the document title, its URL and the layout viewport, side
// by side. The URL is the frame tree's: without the fragment. The
// viewport is in document coordinates: the scroll position and the
// visible size.
func Meta(ctx context.Context, s dom.Session) (title, url string, vp dom.Rect, err error) {
	var ev struct {
		Result struct {
			Value []string `json:"value"`
		} `json:"result"`
	}
	var lm struct {
		CSSLayoutViewport struct {
			PageX        float64 `json:"pageX"`
			PageY        float64 `json:"pageY"`
			ClientWidth  float64 `json:"clientWidth"`
			ClientHeight float64 `json:"clientHeight"`
		} `json:"cssLayoutViewport"`
	}
	var titleErr, metricsErr error
	var wg sync.WaitGroup
	wg.Go(func() {
		titleErr = s.Call(ctx, "Runtime.evaluate", map[string]any{"expression": metaJS, "returnByValue": true}, &ev)
	})
	metricsErr = s.Call(ctx, "Page.getLayoutMetrics", nil, &lm)
	wg.Wait()
	if titleErr != nil {
		return "", "", dom.Rect{}, titleErr
	}
	if metricsErr != nil {
		return "", "", dom.Rect{}, metricsErr
	}
	if v := ev.Result.Value; len(v) == 2 {
		title, url = v[0], v[1]
	}
	v := lm.CSSLayoutViewport
	return title, url, dom.Rect{X: v.PageX, Y: v.PageY, W: v.ClientWidth, H: v.ClientHeight}, nil
}

// metaJS is the title and the URL without its fragment.
const metaJS = `[String(document.title), location.href.replace(/#[\s\S]*$/, "")]`

// Err classifies an error of the capture. It is NOT_ATTACHED when the
// target went away, and the original code for timeouts. Anything else is
// SNAPSHOT_FAILED.
func Err(err error, what string) error {
	var e *dom.Error
	if errors.As(err, &e) {
		switch e.Code {
		case dom.NotAttached, dom.Timeout, dom.SnapshotFailed:
			if strings.HasPrefix(e.Message, what) {
				return e
			}
			return &dom.Error{Code: e.Code, Message: what + ": " + e.Message, Recoverable: e.Recoverable, Err: e.Err}
		}
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return dom.Errorf(dom.Timeout, nil, "%s: the page is not answering the DevTools protocol (no reply in time)", what)
	}
	return dom.Errorf(dom.SnapshotFailed, err, "%s", what)
}
