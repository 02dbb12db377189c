package model

import (
	"context"
	"sync"
	"time"

	"domscope/dom"
	"domscope/dom/build"
	"domscope/dom/capture"
	"domscope/dom/cdpjson"
)

// maxAXRefresh is the most AX nodes a refresh fetches one by one. A
// change set that needs more is cheaper as a full capture.
const maxAXRefresh = 200

// maxListenerRoots is the most inserted subtrees whose listeners a
// refresh asks for one by one.
const maxListenerRoots = 40

// Refresh brings the model up to date with the page and builds a
// snapshot that prints what a full capture of the same state prints.
//
// It refetches the layout of the changed parts only when the page guard
// says nothing else can have moved (guard.go, partial.go). Else it
// refetches all of it with DOMSnapshot. That gives boxes, styles,
// values, checked and selected state, which change without DOM events.
// It also reads the title and viewport, the focused element and the
// listeners of inserted subtrees. Then it fetches the AX facts of the
// nodes the changes can affect:
//   - the changed nodes, and their subtrees when attributes changed.
//   - their ancestors, since names come from content.
//   - the nodes whose layout, style or state changed.
//   - the old and new focus, and the hint nodes (an action's target).
//   - the nodes named after a changed one (aria-labelledby, <label>).
//
// A page may change while it is read. Then it builds the model as the
// page was between two of its tasks. Each node inserted after the
// layout is read by itself (settle).
//
// When it cannot (broken model, too much changed, an error), it returns
// no snapshot and the reason or the error. The caller then takes a full
// capture. Such a refresh may already have taken the model's change
// sets, so it also breaks the model. The next read is then a full
// capture, never a refresh that misses those changes.
func (m *Model) Refresh(ctx context.Context, p dom.Page, hint []int64, opts build.Options) (snap *dom.Snapshot, why string, err error) {
	defer func() { // also when refresh panics
		if snap == nil {
			if why != "" {
				m.Break(why)
			} else {
				m.Break("the last refresh failed")
			}
		}
	}()
	return m.refresh(ctx, p, hint, opts)
}

// refreshRun is one refresh, from its plan to the snapshot. The plan
// takes the model's change sets and runs the page guard
// (refresh_plan.go). The fetchers read the page, most of them at once:
// layout, AX facts, frames, focus, listeners (refresh_*.go). The
// verify step waits for a model between two changes of the page
// (unlaid.go) and checks the refresh is not too big. The apply step
// writes what was read into the model and builds (refresh_apply.go).
type refreshRun struct {
	m     *Model
	p     dom.Page
	hint  []int64
	opts  build.Options
	start time.Time
	// group holds the remote objects this refresh makes; marker is the
	// element its event marks use (holdAtMark).
	group, marker string

	// The plan.
	dirty, touched, inserted, styled map[int64]bool // the change sets taken
	roots                            []int64        // inserted elements' backend ids
	delegating                       map[int64]bool // nodes whose listeners delegate
	cloned                           *ahead         // a copy of the last tree, made meanwhile
	cloneDone                        chan struct{}  // closed once cloned is made (or not)
	guard                            guardReply
	partialWhy                       string // why the whole layout is read, "" if not
	changed                          []int64

	// The fetches.
	fresh         *cdpjson.Target // the new layout
	layoutSecrets []string
	layoutWhy     string         // why the layout cannot do
	inside        map[int64]bool // sensitiveSets, set before setsReady closes
	fields        map[int64]bool
	setsReady     chan struct{}
	frames        []dom.FrameTarget
	frameTargets  []dom.RawTarget
	need          map[int64]bool // the nodes whose AX facts are fetched
	early         axBatch        // those asked before the layout came
	ah            *ahead         // the tree built while Chrome made the layout
	title, url    string
	viewport      dom.Rect
	focus         int64
	listeners     []dom.RawListener

	// What the fetches found, for apply.
	boxChanged, stateChanged []int64
	oldLayout                []cdpjson.Box
	ids                      []int64 // the nodes whose AX facts were fetched again
	ax                       map[int64]*cdpjson.AXNode
	included                 map[int64]bool
	axSecrets                []string
	frameIdx                 []*cdpjson.Target
	frameSecrets             []string
	frameURLSecrets          []string
}

func (m *Model) refresh(ctx context.Context, p dom.Page, hint []int64, opts build.Options) (*dom.Snapshot, string, error) {
	r := &refreshRun{m: m, p: p, hint: hint, opts: opts, start: time.Now()}
	if why := m.Broken(); why != "" {
		return nil, why, nil
	}
	if err := m.fetchCut(ctx, p); err != nil {
		return nil, "", err
	}
	// The remote objects a refresh makes are released together, in a
	// group of this refresh's own (see capture.ObjectGroup).
	r.group = capture.ObjectGroup("domscope-live")
	defer releaseGroup(p, r.group)
	defer r.waitClone() // an early return leaves no copy running

	if why, err := r.plan(ctx); why != "" || err != nil {
		return nil, why, err
	}
	if why, err := r.fetch(ctx); why != "" || err != nil {
		return nil, why, err
	}
	if why, err := r.fetchAfterLayout(ctx); why != "" || err != nil {
		return nil, why, err
	}

	// Verify: the build sees the model between two changes of the page,
	// and each node of it laid out (unlaid.go).
	defer m.release()
	ins, why, err := m.settle(ctx, p, r.fresh, r.viewport, r.group, &r.marker, r.start)
	if err != nil || why != "" {
		return nil, why, err
	}
	defer m.mu.Unlock() // settle returns with it held
	if why := r.addSettled(ins); why != "" {
		return nil, why, nil
	}
	return r.apply()
}

// releaseGroup releases a refresh's remote objects, in the background.
func releaseGroup(p dom.Page, group string) {
	go func() {
		rctx, cancel := context.WithTimeout(context.Background(), capture.ReleaseTimeout)
		defer cancel()
		_ = p.Call(rctx, "Runtime.releaseObjectGroup", map[string]any{"objectGroup": group}, nil)
	}()
}

// fetch runs the fetches that do not depend on each other together.
// The renderer answers one at a time, but overlapping saves the round
// trips. While the browser makes the layout, the AX facts of what the
// events say changed are asked: those calls queue behind the layout
// and are answered while it is decoded.
func (r *refreshRun) fetch(ctx context.Context) (string, error) {
	var wg sync.WaitGroup
	var layoutErr, framesErr, metaErr, focusErr, lisErr error
	r.need, r.setsReady = map[int64]bool{}, make(chan struct{})
	wg.Go(func() { layoutErr = r.fetchLayout(ctx) })
	wg.Go(func() { framesErr = r.fetchFrames(ctx) })
	wg.Go(func() { r.fetchEarlyAX(ctx, &wg) })
	wg.Go(func() { r.title, r.url, r.viewport, metaErr = capture.Meta(ctx, r.p) })
	wg.Go(func() { r.focus, focusErr = fetchFocus(ctx, r.p, r.group) })
	wg.Go(func() { lisErr = r.fetchListeners(ctx) })
	wg.Wait()
	for _, e := range []struct {
		err  error
		what string
	}{{framesErr, "listing out-of-process frames"}, {layoutErr, "DOMSnapshot.captureSnapshot"}, {metaErr, "reading title and viewport"}, {focusErr, "reading the focused element"}, {lisErr, "DOMDebugger.getEventListeners"}} {
		if e.err != nil {
			return "", capture.Err(e.err, e.what)
		}
	}
	return r.layoutWhy, nil
}

// fetchAfterLayout fetches what the layout says changed too: the AX
// facts of its changed boxes and states, and the frames it holds.
func (r *refreshRun) fetchAfterLayout(ctx context.Context) (string, error) {
	if why, err := r.fetchLateAX(ctx); why != "" || err != nil {
		return why, err
	}
	r.decodeFrames(ctx)
	return "", nil
}
