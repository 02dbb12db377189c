package capture

import (
	"context"
	_ "embed" // the page walker's scripts
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"domscope/dom"
	"domscope/dom/build"
	"domscope/dom/cdpjson"
)

// The page path (`snapshot --capture page`, experimental) reads roles,
// names and states with a script in the page instead of
// Accessibility.getFullAXTree. That call is most of a cold capture on
// mid-size pages: most of its nodes are inline text boxes Build never
// reads. Everything else is read as before. The walker's answer is
// written in the shape of a getFullAXTree reply, so Scrub, the sink and
// Build take it unchanged. Out-of-process frames keep CDP's AX tree.

//go:embed pagewalk.js
var pageWalkJS string

// pageWalkAX is dom-accessibility-api, bundled by esbuild from
// pagewalk_ax_entry.js. It sets globalThis.__domscopeAX in the world.
//
//go:embed pagewalk_ax.js
var pageWalkAX string

// pageWalkWorld is the isolated world the walker runs in.
const pageWalkWorld = "domscope-pagewalk"

// TakePage is Take with the AX trees of the page's renderer computed in
// the page. Frames the walker cannot read fall back to CDP's tree.
func TakePage(ctx context.Context, p dom.Page, opts build.Options) (*dom.Snapshot, error) {
	snap, _, err := takePage(ctx, p, opts)
	return snap, err
}

// PageWalkStats says how a page-path capture went.
type PageWalkStats struct {
	Walked    int // frames whose AX tree the walker made
	FellBack  int // frames read with getFullAXTree instead
	Unmatched int // DOM nodes the walker's rows did not line up with
	Why       []string
	// Script is the time of the walker's calls in the page (the world,
	// closed roots, the walk). LineUp is the time spent in Go on its rows.
	Script, LineUp time.Duration
}

func takePage(ctx context.Context, p dom.Page, opts build.Options) (*dom.Snapshot, *PageWalkStats, error) {
	w := newWalkPage(p)
	snap, err := take(ctx, w, opts, newSink())
	st := w.stats()
	if snap != nil && snap.Raw != nil && snap.Raw.Timings != nil {
		snap.Raw.Timings["pagewalk"] = w.walkMS()
	}
	return snap, st, err
}

// walkPage is a Page whose main-renderer getFullAXTree calls are answered
// by the page walker. Every other call goes to the page.
type walkPage struct {
	dom.Page
	docOnce sync.Once
	docDone chan struct{}
	docData []byte

	parseOnce sync.Once
	root      *cdpjson.Node
	parseErr  error

	mu    sync.Mutex
	st    PageWalkStats
	walkT atomic.Int64 // microseconds spent in walks
}

func newWalkPage(p dom.Page) *walkPage { return &walkPage{Page: p, docDone: make(chan struct{})} }

func (w *walkPage) stats() *PageWalkStats {
	w.mu.Lock()
	defer w.mu.Unlock()
	st := w.st
	return &st
}

func (w *walkPage) walkMS() float64 { return float64(w.walkT.Load()) / 1000 }

func (w *walkPage) Call(ctx context.Context, method string, params, result any) error {
	return w.CallSent(ctx, method, params, result, nil)
}

// CallSent keeps the capture's send order (SentCaller).
func (w *walkPage) CallSent(ctx context.Context, method string, params, result any, sent func()) error {
	switch method {
	case "DOM.getDocument":
		err := w.send(ctx, method, params, result, sent)
		w.docOnce.Do(func() {
			// A deep document comes in parts: the walker is not used.
			if raw, ok := result.(*json.RawMessage); ok && err == nil && wholeDepth(params) {
				w.docData = *raw
			}
			close(w.docDone)
		})
		return err
	case "Accessibility.getFullAXTree":
		if sent != nil {
			sent()
		}
		raw, ok := result.(*json.RawMessage)
		if !ok {
			return w.Page.Call(ctx, method, params, result)
		}
		frameID, _ := paramString(params, "frameId")
		t0 := time.Now()
		data, unmatched, err := w.walk(ctx, frameID)
		w.walkT.Add(time.Since(t0).Microseconds())
		w.mu.Lock()
		if err != nil {
			w.st.FellBack++
			w.st.Why = append(w.st.Why, err.Error())
		} else {
			w.st.Walked++
			w.st.Unmatched += unmatched
		}
		w.mu.Unlock()
		if err != nil {
			return w.Page.Call(ctx, method, params, result)
		}
		*raw = data
		return nil
	}
	return w.send(ctx, method, params, result, sent)
}

func (w *walkPage) send(ctx context.Context, method string, params, result any, sent func()) error {
	if sc, ok := w.Page.(SentCaller); ok && sent != nil {
		return sc.CallSent(ctx, method, params, result, sent)
	}
	if sent != nil {
		sent()
	}
	return w.Page.Call(ctx, method, params, result)
}

func wholeDepth(params any) bool {
	m, ok := params.(map[string]any)
	return ok && m["depth"] == -1
}

func paramString(params any, key string) (string, bool) {
	m, ok := params.(map[string]any)
	if !ok {
		return "", false
	}
	s, ok := m[key].(string)
	return s, ok
}

// document waits for the pierced document and parses it once.
func (w *walkPage) document(ctx context.Context) (*cdpjson.Node, error) {
	select {
	case <-w.docDone:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	w.parseOnce.Do(func() {
		if w.docData == nil {
			w.parseErr = errors.New("no whole document to line the walk up with")
			return
		}
		w.root, w.parseErr = cdpjson.ParseDocument(w.docData)
	})
	return w.root, w.parseErr
}

// walk runs the walker in one frame's document and returns its answer as
// a getFullAXTree reply. frameID "" is the target's main frame.
func (w *walkPage) walk(ctx context.Context, frameID string) (json.RawMessage, int, error) {
	root, err := w.document(ctx)
	if err != nil {
		return nil, 0, err
	}
	doc := frameDocument(root, frameID)
	if doc == nil {
		return nil, 0, fmt.Errorf("frame %q: document not in the DOM reply", frameID)
	}
	if frameID == "" {
		// A target's main frame has the target's id.
		frameID = w.Page.TargetID()
	}
	t0 := time.Now()
	defer func() { w.addScript(time.Since(t0)) }()
	var world struct {
		ID int64 `json:"executionContextId"`
	}
	if err := w.Page.Call(ctx, "Page.createIsolatedWorld", map[string]any{"frameId": frameID, "worldName": pageWalkWorld, "grantUniveralAccess": false}, &world); err != nil {
		return nil, 0, err
	}
	args := []map[string]any{}
	for _, id := range closedRoots(doc) {
		var obj struct {
			Object struct {
				ObjectID string `json:"objectId"`
			} `json:"object"`
		}
		if err := w.Page.Call(ctx, "DOM.resolveNode", map[string]any{"backendNodeId": id, "executionContextId": world.ID}, &obj); err != nil {
			return nil, 0, fmt.Errorf("closed shadow root %d: %w", id, err)
		}
		args = append(args, map[string]any{"objectId": obj.Object.ObjectID})
	}
	var res struct {
		Result struct {
			Value string `json:"value"`
		} `json:"result"`
		Exception *struct {
			Text string `json:"text"`
		} `json:"exceptionDetails"`
	}
	fn := "function(...c){" + pageWalkAX + "\nreturn (" + pageWalkJS + ")(...c);}"
	err = w.Page.Call(ctx, "Runtime.callFunctionOn", map[string]any{
		"functionDeclaration": fn, "executionContextId": world.ID, "arguments": args,
		"returnByValue": true, "silent": true,
	}, &res)
	if err != nil {
		return nil, 0, err
	}
	if res.Exception != nil {
		return nil, 0, fmt.Errorf("page walker threw: %s", res.Exception.Text)
	}
	t1 := time.Now()
	defer func() { w.addLineUp(time.Since(t1)) }()
	rows, err := decodeRows([]byte(res.Result.Value))
	if err != nil {
		return nil, 0, fmt.Errorf("page walker answer: %w", err)
	}
	return lineUp(doc, rows)
}

func (w *walkPage) addScript(d time.Duration) {
	w.mu.Lock()
	w.st.Script += d
	w.mu.Unlock()
}

// addLineUp moves d from Script to LineUp: Script's deferred call
// counts the whole walk.
func (w *walkPage) addLineUp(d time.Duration) {
	w.mu.Lock()
	w.st.LineUp += d
	w.st.Script -= d
	w.mu.Unlock()
}

// frameDocument finds the document of a frame in a pierced DOM tree.
func frameDocument(root *cdpjson.Node, frameID string) *cdpjson.Node {
	if frameID == "" {
		return root
	}
	var found *cdpjson.Node
	root.Each(func(n *cdpjson.Node) {
		if found == nil && n.FrameID == frameID && n.ContentDocument != nil {
			found = n.ContentDocument
		}
	})
	return found
}

// closedRoots lists a document's closed shadow roots, outside its frames.
func closedRoots(doc *cdpjson.Node) []int64 {
	var ids []int64
	stack := []*cdpjson.Node{doc}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, s := range n.ShadowRoots {
			if s.ShadowRootType == "closed" {
				ids = append(ids, s.BackendNodeID)
			}
		}
		stack = append(stack, walkKids(n)...)
	}
	return ids
}

// walkKids are a node's children in the walker's order: its shadow root
// (not a user-agent one: scripts cannot see it), then its children.
func walkKids(n *cdpjson.Node) []*cdpjson.Node {
	var kids []*cdpjson.Node
	for _, s := range n.ShadowRoots {
		if s.ShadowRootType != "user-agent" {
			kids = append(kids, s)
		}
	}
	return append(kids, n.Children...)
}
