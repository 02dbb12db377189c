package live

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"domscope/dom"
	"domscope/dom/build"
	"domscope/dom/capture"
	"domscope/dom/cdpjson"
	"domscope/dom/urls"
)

// maxAXRefresh is the most AX nodes a refresh fetches one by one. A
// change set that needs more is cheaper as a full capture.
const maxAXRefresh = 200

// maxListenerRoots is the most inserted subtrees whose listeners a
// refresh asks for one by one.
const maxListenerRoots = 40

// focusJS finds the focused element, through open shadow roots and
// same-origin frames, where the AX tree marks it focused. The guard
// keeps it: a read that finds the same focus needs no refresh (still.go).
const focusJS = `(() => {
  const a = ` + deepFocusJS + `;
  const G = window[Symbol.for("domscope.guard")];
  if (G) G.focused = a;
  return a;
})()`

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

func (m *Model) refresh(ctx context.Context, p dom.Page, hint []int64, opts build.Options) (*dom.Snapshot, string, error) {
	start := time.Now()
	if why := m.Broken(); why != "" {
		return nil, why, nil
	}
	if err := m.fetchCut(ctx, p); err != nil {
		return nil, "", err
	}

	// The remote objects a refresh makes are released together, in a
	// group of this refresh's own (see capture.ObjectGroup).
	group := capture.ObjectGroup("domscope-live")
	defer func() {
		go func() {
			rctx, cancel := context.WithTimeout(context.Background(), capture.ReleaseTimeout)
			defer cancel()
			_ = p.Call(rctx, "Runtime.releaseObjectGroup", map[string]any{"objectGroup": group}, nil)
		}()
	}()
	// The events of the page's last task may still be on their way to
	// the model when a refresh starts. A partial layout reads only what
	// the sets name, so the sets must hold them: a mark in the event
	// stream waits for them (one round trip).
	marker := ""
	if err := m.holdAtMark(ctx, p, group, &marker); err != nil {
		m.release()
		return nil, "", capture.Err(err, "marking the page's events")
	}
	m.mu.Lock()
	if m.broken != "" {
		m.releaseLocked()
		m.mu.Unlock()
		return nil, m.broken, nil
	}
	dirty, touched, inserted, styled := m.dirty, m.touched, m.inserted, m.styled
	m.resetSets()
	m.releaseLocked()
	var roots []int64
	for id := range inserted {
		if n := m.byNode[id]; n != nil && n.NodeType == dom.ElementNode {
			roots = append(roots, n.BackendNodeID)
		}
	}
	delegating := m.delegatingRoots()
	m.mu.Unlock()
	// A copy of the last tree needs no lock on the model. So it is made
	// while the page guard runs, long before the layout comes.
	var cloned *ahead
	cloneDone := make(chan struct{})
	if len(roots) == 0 && len(styled) == 0 {
		go func() {
			defer close(cloneDone)
			cloned = m.cloneAhead(opts)
		}()
	} else {
		close(cloneDone)
	}
	defer func() { <-cloneDone }() // an early return leaves no copy running
	// An inline style change says nothing of the new style. So the
	// attributes are read again, first. The tree built ahead reads them,
	// and a field's type may have changed with them.
	if len(styled) > 0 {
		attrs := fetchAttributes(ctx, p, styled)
		m.mu.Lock()
		for id, a := range attrs {
			if n := m.byNode[id]; n != nil {
				n.Attributes = a
				m.scrubAround(n)
			}
		}
		m.mu.Unlock()
	}
	if len(roots) > maxListenerRoots {
		m.Break(fmt.Sprintf("%d subtrees were inserted", len(roots)))
		return nil, m.Broken(), nil
	}

	// The page guard runs before any layout is read: it tells whether
	// reading the changed parts' layout can do (guard.go, partial.go).
	registered, err := m.registerRoots(ctx, p)
	if err != nil {
		return nil, "", capture.Err(err, "giving the page guard its shadow roots")
	}
	g, err := readGuard(ctx, p, group)
	if err != nil {
		return nil, "", capture.Err(err, "running the page guard")
	}
	m.mu.Lock()
	partialWhy := g.why
	switch {
	case !m.guarded:
		partialWhy = "the last layout was read without the page guard"
	case !registered:
		partialWhy = "new shadow roots"
	}
	m.guarded = false // until this refresh succeeds
	m.mu.Unlock()
	changed := make([]int64, 0, len(dirty)+len(touched))
	for id := range dirty {
		changed = append(changed, id)
	}
	for id := range touched {
		if !dirty[id] {
			changed = append(changed, id)
		}
	}

	// The fetches that do not depend on each other go together. The
	// renderer answers one at a time, but overlapping saves the round trips.
	var wg sync.WaitGroup
	var layoutErr, metaErr, focusErr, lisErr error
	var title, url string
	var viewport dom.Rect
	var focus int64
	var listeners []dom.RawListener
	// The layout is decoded as soon as it comes, while the AX replies
	// queued behind it come in.
	var inside, fields map[int64]bool
	setsReady := make(chan struct{})
	var fresh *cdpjson.Target
	var layoutSecrets []string
	var layoutWhy string
	wg.Go(func() {
		if partialWhy == "" {
			f, secrets, why, err := m.partialLayout(ctx, p, changed, g.controls, group, func() (map[int64]bool, map[int64]bool) {
				<-setsReady
				return inside, fields
			})
			if err != nil {
				layoutErr = err
				return
			}
			if f != nil {
				fresh, layoutSecrets = f, secrets
				return
			}
			partialWhy = why
		}
		var layout json.RawMessage
		if layoutErr = p.Call(ctx, "DOMSnapshot.captureSnapshot", dom.LayoutParams(), &layout); layoutErr != nil {
			return
		}
		<-setsReady
		// Only nodes inside a sensitive field are redacted: with none on
		// the page (most pages) the layout need not be read twice.
		if len(inside) > 0 {
			var err error
			if layout, layoutSecrets, err = capture.RedactLayout(layout, inside, fields); err != nil {
				layoutWhy = "the layout could not be checked for sensitive values"
				return
			}
		}
		snap, err := cdpjson.DecodeDOMSnapshot(layout)
		if err != nil {
			layoutWhy = "an unreadable layout"
			return
		}
		fresh = &cdpjson.Target{Raw: m.ti.Raw, Boxes: map[int64]*cdpjson.Box{}}
		fresh.IndexLayout(snap)
	})
	var frames []dom.FrameTarget
	var frameTargets []dom.RawTarget
	var framesErr error
	wg.Go(func() {
		if frames, framesErr = p.Frames(ctx); framesErr == nil && len(frames) > 0 {
			// Out-of-process frames are read whole, by their own
			// renderers, while this one makes its layout.
			frameTargets = capture.FrameTargets(ctx, p, frames, func(string, time.Time) {})
		}
	})
	// While the browser makes the layout, ask what is sensitive (to
	// redact the replies). Also ask the AX facts of what the DOM events,
	// the old focus and the action's target say changed. Those calls
	// queue behind the layout and are answered while it is decoded. Only
	// what the layout adds is asked for after it.
	need := map[int64]bool{}
	var early axBatch
	var ah *ahead
	wg.Go(func() {
		m.mu.Lock()
		inside, fields = m.sensitiveSets()
		close(setsReady)
		for id := range dirty {
			if n := m.byNode[id]; n != nil {
				n.Each(func(x *cdpjson.Node) { need[x.BackendNodeID] = true })
				need[n.BackendNodeID] = false // so addUp walks its ancestors
				m.addUp(need, n)
			}
		}
		for id := range touched {
			if n := m.byNode[id]; n != nil {
				m.addUp(need, n)
			}
		}
		for _, id := range append(append([]int64{m.focused}, m.axFocused...), hint...) {
			if n := m.byBack[id]; n != nil {
				m.addUp(need, n)
			}
		}
		// A control a script changed: made indeterminate or invalid, its
		// layout may say nothing of it.
		for _, c := range g.controls {
			if n := m.byBack[c.id]; n != nil {
				m.addUp(need, n)
			}
		}
		m.addNamers(need, need)
		ids := m.known(need, nil)
		m.mu.Unlock()
		if len(roots) == 0 {
			// The tree is built while Chrome makes the layout, from the
			// last one (ahead.go). It holds m.mu, so it starts only once
			// the sets above are made.
			wg.Go(func() {
				if <-cloneDone; cloned != nil {
					ah = cloned
				} else {
					ah = m.buildAhead(opts)
				}
			})
		}
		early = m.fetchAX(ctx, p, ids, inside, fields)
	})
	wg.Go(func() { title, url, viewport, metaErr = capture.Meta(ctx, p) })
	wg.Go(func() { focus, focusErr = fetchFocus(ctx, p, group) })
	wg.Go(func() {
		for _, id := range roots {
			ls, err := fetchListenersOf(ctx, p, id, group)
			if err != nil {
				lisErr = err
				return
			}
			for _, l := range ls {
				if !delegating[l.BackendID] {
					listeners = append(listeners, l)
				}
			}
		}
	})
	wg.Wait()
	for _, e := range []struct {
		err  error
		what string
	}{{framesErr, "listing out-of-process frames"}, {layoutErr, "DOMSnapshot.captureSnapshot"}, {metaErr, "reading title and viewport"}, {focusErr, "reading the focused element"}, {lisErr, "DOMDebugger.getEventListeners"}} {
		if e.err != nil {
			return nil, "", capture.Err(e.err, e.what)
		}
	}
	if layoutWhy != "" {
		return nil, layoutWhy, nil
	}

	// What AX facts to fetch again.
	m.mu.Lock()
	had := maps.Clone(need)
	more := map[int64]bool{}
	boxChanged, stateChanged := layoutDiff(m.ti, fresh)
	oldLayout := m.ti.Layout
	for _, id := range append(append(boxChanged, stateChanged...), focus) {
		if n := m.byBack[id]; n != nil {
			m.addUp(need, n)
		}
	}
	for id := range need {
		if _, ok := had[id]; !ok {
			more[id] = true
		}
	}
	m.addNamers(more, need)
	late := m.known(need, had)
	m.mu.Unlock()
	if early.err != nil {
		return nil, "", early.err
	}
	ids := append(early.ids, late...)
	if len(ids) > maxAXRefresh {
		m.Break(fmt.Sprintf("%d nodes changed", len(ids)))
		return nil, m.Broken(), nil
	}
	b := m.fetchAX(ctx, p, late, inside, fields)
	if b.err != nil {
		return nil, "", b.err
	}
	ax, included, axSecrets := early.ax, early.included, append(early.secrets, b.secrets...)
	maps.Copy(ax, b.ax)
	maps.Copy(included, b.included)

	frameIdx, frameSecrets, frameURLSecrets := m.readFrames(ctx, p, frames, frameTargets, viewport, append(append(slices.Clone(layoutSecrets), axSecrets...), m.pendingSecrets()...))

	// The build sees the model between two changes of the page, and each
	// node of it laid out (unlaid.go).
	defer m.release()
	ins, why, err := m.settle(ctx, p, fresh, viewport, group, &marker, start)
	if err != nil || why != "" {
		return nil, why, err
	}
	defer m.mu.Unlock()
	maps.Copy(ax, ins.ax)
	maps.Copy(included, ins.included)
	ids = append(ids, ins.ids...)
	axSecrets = append(axSecrets, ins.secrets...)
	if len(ids) > maxAXRefresh {
		m.broken = fmt.Sprintf("%d nodes changed", len(ids))
		return nil, m.broken, nil
	}
	// The tree built ahead stands if the model is as it was built from,
	// but for this refresh's AX facts and layout. No box may have
	// appeared, gone or changed style.
	keepAhead := ah != nil && m.version == ah.version && len(boxChanged) == 0 &&
		len(frames) == 0 && len(frameIdx) == 0
	m.version++
	for _, id := range ids {
		// An ignored node is in the model only when Chrome's tree has it.
		if a := ax[id]; a != nil && (!a.Ignored || included[id]) {
			m.ti.AX[id] = a
		} else {
			delete(m.ti.AX, id)
		}
	}
	for _, id := range roots {
		if n := m.byBack[id]; n != nil {
			n.Each(func(x *cdpjson.Node) { delete(m.ti.Listeners, x.BackendNodeID) })
		}
	}
	for _, l := range listeners {
		if cdpjson.ClickFamily[l.Type] || l.Type == "" {
			m.ti.Listeners[l.BackendID] = true
		}
	}
	m.ti.Boxes, m.ti.Layout, m.ti.Listed, m.ti.Strings, m.ti.Values, m.ti.Selected, m.ti.Checked, m.ti.DocViewport =
		fresh.Boxes, fresh.Layout, fresh.Listed, fresh.Strings, fresh.Values, fresh.Selected, fresh.Checked, fresh.DocViewport
	m.focused, m.axFocused = focus, nil
	m.guarded, m.partialWhy = true, partialWhy
	if partialWhy != "" {
		m.fullBoxes = len(fresh.Layout)
	}
	m.raw.Title, m.raw.Viewport = title, viewport
	m.ti.Raw.Viewport = viewport
	// A same-document navigation (history.pushState) sends no DOM event.
	if safe := urls.Safe(url); url != "" && safe != m.raw.URL {
		m.raw.URL, m.ti.Raw.URL = safe, safe
		keepAhead = false // it shows the old address
	}
	m.setFrames(frameIdx)
	m.raw.Timestamp = start.UTC().Format(time.RFC3339Nano)
	secrets := dom.CleanSecrets(slices.Concat(m.secrets, layoutSecrets, axSecrets, frameSecrets))
	m.secrets = nil
	if len(secrets) > 0 {
		keepAhead = false // built before they were scrubbed
		m.scrubSecrets(secrets)
	}
	// A capture hides its URLs' credentials in every string. New ones
	// came with the address, inserted links or the frames read again.
	learnt := m.learnURLSecrets(url, dirty, ax, frameURLSecrets)
	if learnt {
		keepAhead = false // built from the strings before
	}
	moved := learnt || len(dirty)+len(touched)+len(ids)+len(stateChanged)+len(frameIdx) > 0 || partialWhy != ""
	if len(m.urlSecrets) > 0 && moved && m.hideURLSecrets() {
		keepAhead = false
	}
	if keepAhead {
		if out, ok := ah.finish(m, oldLayout, ids, stateChanged); ok {
			out.Taken = start
			// the build overlapped the wait: the two add up to the refresh
			out.CaptureTime = time.Since(start) - out.BuildTime
			return out, "", nil
		}
	}
	captured := time.Now()
	out, err := m.buildLocked(opts, captured)
	if err != nil {
		return nil, "", err
	}
	out.Taken = start
	out.CaptureTime = captured.Sub(start)
	return out, "", nil
}

// fetchAttributes reads the attributes of nodes (by node id) together;
// a node gone meanwhile is left out (its removal event follows).
func fetchAttributes(ctx context.Context, p dom.Session, ids map[int64]bool) map[int64][]string {
	out := map[int64][]string{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	for id := range ids {
		wg.Go(func() {
			var r struct {
				Attributes []string `json:"attributes"`
			}
			if p.Call(ctx, "DOM.getAttributes", map[string]any{"nodeId": id}, &r) == nil {
				mu.Lock()
				out[id] = r.Attributes
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	return out
}

// addUp adds n and its ancestors to need, up to the first already in it.
func (m *Model) addUp(need map[int64]bool, n *cdpjson.Node) {
	for x := n; x != nil && !need[x.BackendNodeID]; x = m.parent[x.NodeID] {
		need[x.BackendNodeID] = true
	}
}

// known lists the nodes of need that are in the model, leaving out those
// in skip.
func (m *Model) known(need, skip map[int64]bool) []int64 {
	var ids []int64
	for id := range need {
		if _, ok := skip[id]; !ok && m.byBack[id] != nil {
			ids = append(ids, id)
		}
	}
	return ids
}

// axBatch is one round of AX fetches. It holds the nodes asked about,
// their AX facts, and which ignored ones Chrome's tree holds. It also
// holds the sensitive values the replies held.
type axBatch struct {
	ids      []int64
	ax       map[int64]*cdpjson.AXNode
	included map[int64]bool
	secrets  []string
	err      error
}

// fetchAX fetches the AX facts of ids (none beyond maxAXRefresh: the
// caller then takes a full capture).
func (m *Model) fetchAX(ctx context.Context, p dom.Session, ids []int64, inside, fields map[int64]bool) axBatch {
	b := axBatch{ids: ids, ax: map[int64]*cdpjson.AXNode{}, included: map[int64]bool{}}
	if len(ids) == 0 || len(ids) > maxAXRefresh {
		return b
	}
	ax, parents, secrets, err := fetchPartialAX(ctx, p, ids, inside, fields)
	if err != nil {
		b.err = capture.Err(err, "Accessibility.getPartialAXTree")
		return b
	}
	included, err := m.axMembers(ctx, p, parents)
	if err != nil {
		b.err = capture.Err(err, "Accessibility.getChildAXNodes")
		return b
	}
	b.ax, b.included, b.secrets = ax, included, secrets
	return b
}

// pendingSecrets are the sensitive values events brought since the last
// refresh (not yet scrubbed from the model).
func (m *Model) pendingSecrets() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Clone(m.secrets)
}

// readFrames places, redacts and decodes the out-of-process frames a
// refresh captured, as Capture does with the whole page. Sensitive
// values leave every frame's data before it is decoded: the frames' own
// and the page's (pageSecrets). So do URL credentials, the page's and
// the frames'. It returns the frames' decoded targets, their own
// secrets, which the page is scrubbed of, and the URL credentials.
func (m *Model) readFrames(ctx context.Context, p dom.Page, frames []dom.FrameTarget, captured []dom.RawTarget, viewport dom.Rect, pageSecrets []string) ([]*cdpjson.Target, []string, []string) {
	if len(captured) == 0 {
		return nil, nil, nil
	}
	m.mu.Lock()
	page := *m.ti.Raw
	known := m.urlSecrets
	m.mu.Unlock()
	// The page's same-process frames are placed by its own reads; only
	// the out-of-process ones are placed here.
	page.Frames = slices.Clone(page.Frames[:min(1, len(page.Frames))])
	page.Viewport = viewport
	raw := &dom.RawCapture{TargetID: p.TargetID(), Targets: append([]dom.RawTarget{page}, captured...)}
	capture.PlaceFrames(ctx, p, frames, raw)
	capture.ScrubURLsKnown(raw, known)
	own, _ := capture.ScrubTargets(raw.Targets[1:], pageSecrets)
	out := make([]*cdpjson.Target, 0, len(captured))
	for i := 1; i < len(raw.Targets); i++ {
		rt := &raw.Targets[i]
		ti, err := cdpjson.DecodeTarget(rt, true)
		if err != nil {
			ti = cdpjson.EmptyTarget(rt)
		}
		out = append(out, ti)
	}
	return out, own, raw.URLSecrets
}

// setFrames makes frames the model's out-of-process frames: their
// metadata joins the page's in raw.Targets. m.mu is held.
func (m *Model) setFrames(frames []*cdpjson.Target) {
	if len(frames) == 0 && len(m.frames) == 0 {
		return
	}
	targets := make([]dom.RawTarget, 1+len(frames))
	targets[0] = *m.ti.Raw
	m.ti.Raw = &targets[0]
	for i, f := range frames {
		targets[i+1] = *f.Raw
		f.Raw = &targets[i+1]
	}
	m.raw.Targets = targets
	m.frames = frames
}

// fetchCut asks Chrome for the children of nodes it inserted without them
// and waits until they arrive (as DOM.setChildNodes events, through Apply).
func (m *Model) fetchCut(ctx context.Context, p dom.Page) error {
	for round := 0; round < 64; round++ {
		m.mu.Lock()
		var ids []int64
		for id := range m.cut {
			ids = append(ids, id)
		}
		m.mu.Unlock()
		if len(ids) == 0 {
			return nil
		}
		for _, id := range ids {
			if err := p.Call(ctx, "DOM.requestChildNodes", map[string]any{"nodeId": id, "depth": -1, "pierce": true}, nil); err != nil {
				m.mu.Lock()
				delete(m.cut, id) // gone meanwhile: its removal event follows
				m.mu.Unlock()
			}
		}
		timer := time.NewTimer(5 * time.Second)
		for {
			m.mu.Lock()
			left := 0
			for _, id := range ids {
				if m.cut[id] {
					left++
				}
			}
			broken := m.broken
			grown := m.grown
			m.mu.Unlock()
			if left == 0 || broken != "" {
				break
			}
			select {
			case <-grown:
				continue
			case <-timer.C:
				m.Break("children of inserted nodes did not come")
			case <-ctx.Done():
				timer.Stop()
				return dom.Errorf(dom.Timeout, ctx.Err(), "waiting for the children of inserted nodes")
			}
		}
		timer.Stop()
	}
	m.Break("the page kept growing while it was read")
	return nil
}

// delegatingRoots are the main document, its <html> and <body>: a
// listener there delegates, it does not make the node clickable.
func (m *Model) delegatingRoots() map[int64]bool {
	out := map[int64]bool{}
	r := m.ti.Root
	out[r.BackendNodeID] = true
	for _, c := range r.Children {
		if strings.EqualFold(c.NodeName, "HTML") {
			out[c.BackendNodeID] = true
			for _, cc := range c.Children {
				if strings.EqualFold(cc.NodeName, "BODY") {
					out[cc.BackendNodeID] = true
				}
			}
		}
	}
	return out
}

// addNamers adds to need the nodes that take their name or description
// from a node in of. Those are the referrers of aria-labelledby and
// aria-describedby, the control of a <label for>, and the controls
// inside a <label>.
func (m *Model) addNamers(of, need map[int64]bool) {
	if len(of) == 0 {
		return
	}
	ids := map[string]bool{}
	for id := range of {
		n := m.byBack[id]
		if n == nil || n.NodeType != dom.ElementNode {
			continue
		}
		a := cdpjson.AttrMap(n.Attributes)
		if v := a["id"]; v != "" {
			ids[v] = true
		}
		if strings.EqualFold(n.NodeName, "LABEL") {
			if f := a["for"]; f != "" {
				ids["for:"+f] = true
			}
			n.Each(func(x *cdpjson.Node) {
				switch strings.ToUpper(x.NodeName) {
				case "INPUT", "SELECT", "TEXTAREA", "BUTTON", "METER", "OUTPUT", "PROGRESS":
					need[x.BackendNodeID] = true
				}
			})
		}
	}
	if len(ids) == 0 {
		return
	}
	m.ti.Root.Each(func(x *cdpjson.Node) {
		if x.NodeType != dom.ElementNode || len(x.Attributes) == 0 {
			return
		}
		for i := 0; i+1 < len(x.Attributes); i += 2 {
			switch strings.ToLower(x.Attributes[i]) {
			case "aria-labelledby", "aria-describedby", "aria-owns", "aria-activedescendant", "aria-controls":
				for _, ref := range strings.Fields(x.Attributes[i+1]) {
					if ids[ref] {
						need[x.BackendNodeID] = true
					}
				}
			case "id":
				if ids["for:"+x.Attributes[i+1]] {
					need[x.BackendNodeID] = true
				}
			}
		}
	})
}

// layoutDiff lists what differs between two layouts, in two lists.
// The first holds the nodes whose box appeared or went or whose computed
// styles changed. The second holds those whose value, checked or
// selected state changed, and not their box. Bounds alone change no AX
// fact.
func layoutDiff(old, fresh *cdpjson.Target) (boxes, states []int64) {
	seen := map[int64]bool{}
	out := &boxes
	add := func(id int64) {
		if !seen[id] {
			seen[id] = true
			*out = append(*out, id)
		}
	}
	sameStyles := func(ob, b *cdpjson.Box) bool {
		for k := range dom.LayoutStyles {
			if old.StyleAt(ob, k) != fresh.StyleAt(b, k) {
				return false
			}
		}
		return true
	}
	// Two layouts of a page list its boxes in the same order up to the
	// first box added or removed. So compare them in step that far, then
	// by id. A lookup each, at random places in memory, is most of the
	// cost.
	i := 0
	for ; i < len(old.Layout) && i < len(fresh.Layout); i++ {
		ob, b := &old.Layout[i], &fresh.Layout[i]
		if ob.ID != b.ID {
			break
		}
		if !sameStyles(ob, b) {
			add(b.ID)
		}
	}
	for k := i; k < len(fresh.Layout); k++ {
		b := &fresh.Layout[k]
		if ob := old.Boxes[b.ID]; ob == nil || !sameStyles(ob, b) {
			add(b.ID)
		}
	}
	for k := i; k < len(old.Layout); k++ {
		if id := old.Layout[k].ID; fresh.Boxes[id] == nil {
			add(id)
		}
	}
	out = &states
	for id, v := range fresh.Values {
		if ov, ok := old.Values[id]; !ok || ov != v {
			add(id)
		}
	}
	for id := range old.Values {
		if _, ok := fresh.Values[id]; !ok {
			add(id)
		}
	}
	for _, pair := range [][2]map[int64]bool{{old.Selected, fresh.Selected}, {old.Checked, fresh.Checked}} {
		for id := range pair[0] {
			if !pair[1][id] {
				add(id)
			}
		}
		for id := range pair[1] {
			if !pair[0][id] {
				add(id)
			}
		}
	}
	return boxes, states
}

// fetchFocus returns the backend id of the focused element (0 if none).
func fetchFocus(ctx context.Context, p dom.Session, group string) (int64, error) {
	var ev struct {
		Result struct {
			ObjectID string `json:"objectId"`
		} `json:"result"`
	}
	if err := p.Call(ctx, "Runtime.evaluate", map[string]any{"expression": focusJS, "objectGroup": group}, &ev); err != nil {
		return 0, err
	}
	if ev.Result.ObjectID == "" {
		return 0, nil
	}
	var d struct {
		Node struct {
			BackendNodeID int64 `json:"backendNodeId"`
		} `json:"node"`
	}
	if err := p.Call(ctx, "DOM.describeNode", map[string]any{"objectId": ev.Result.ObjectID}, &d); err != nil {
		return 0, err
	}
	return d.Node.BackendNodeID, nil
}

// fetchListenersOf lists the click-family listeners in one subtree.
func fetchListenersOf(ctx context.Context, p dom.Session, backendID int64, group string) ([]dom.RawListener, error) {
	var r struct {
		Object struct {
			ObjectID string `json:"objectId"`
		} `json:"object"`
	}
	if err := p.Call(ctx, "DOM.resolveNode", map[string]any{"backendNodeId": backendID, "objectGroup": group}, &r); err != nil {
		return nil, nil // removed meanwhile
	}
	var res struct {
		Listeners []struct {
			Type          string `json:"type"`
			BackendNodeID int64  `json:"backendNodeId"`
		} `json:"listeners"`
	}
	if err := p.Call(ctx, "DOMDebugger.getEventListeners", map[string]any{"objectId": r.Object.ObjectID, "depth": -1, "pierce": true}, &res); err != nil {
		return nil, err
	}
	var out []dom.RawListener
	for _, l := range res.Listeners {
		if l.BackendNodeID != 0 && slices.Contains(dom.ListenerTypes, l.Type) {
			out = append(out, dom.RawListener{BackendID: l.BackendNodeID, Type: l.Type})
		}
	}
	return out, nil
}

// fetchPartialAX fetches the AX node of each backend id, redacted as the
// capture redacts the full tree. A node with no AX node is left out.
// A partial reply also gives ignored nodes the full tree leaves out.
// Chrome keeps only some ignored nodes in its tree, by rules of its own.
// For those, parents maps the backend id to its AX parent's id, which
// axMembers asks about.
func fetchPartialAX(ctx context.Context, p dom.Session, ids []int64, inside, fields map[int64]bool) (map[int64]*cdpjson.AXNode, map[int64]string, []string, error) {
	out, parents := map[int64]*cdpjson.AXNode{}, map[int64]string{}
	var secrets []string
	var mu sync.Mutex
	var firstErr error
	work := make(chan int64)
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for id := range work {
				var blob json.RawMessage
				if err := p.Call(ctx, "Accessibility.getPartialAXTree", map[string]any{"backendNodeId": id, "fetchRelatives": false}, &blob); err != nil {
					if dom.CodeOf(err) == dom.CDPError {
						continue // the node went away
					}
					mu.Lock()
					if firstErr == nil {
						firstErr = err
					}
					mu.Unlock()
					continue
				}
				clean, s, err := capture.RedactAX(blob, inside, fields)
				if err != nil {
					continue // not checkable: keep none of it
				}
				got := map[int64]*cdpjson.AXNode{}
				if cdpjson.DecodeAXTree(clean, got) != nil {
					continue
				}
				parent := ""
				if a := got[id]; a != nil && a.Ignored {
					var r struct {
						Nodes []struct {
							ParentID string `json:"parentId"`
							Backend  int64  `json:"backendDOMNodeId"`
						} `json:"nodes"`
					}
					if json.Unmarshal(clean, &r) != nil {
						continue
					}
					for _, n := range r.Nodes {
						if n.Backend == id {
							parent = n.ParentID
							break
						}
					}
					if parent == "" {
						continue // no AX object: Chrome made one up for the reply
					}
				}
				mu.Lock()
				if a := got[id]; a != nil {
					out[id] = a
					if parent != "" {
						parents[id] = parent
					}
				}
				secrets = append(secrets, s...)
				mu.Unlock()
			}
		})
	}
	for _, id := range ids {
		work <- id
	}
	close(work)
	wg.Wait()
	return out, parents, secrets, firstErr
}

// axMembers tells which ignored nodes are in Chrome's AX tree, as
// getFullAXTree walks it. Those are the ones their AX parent lists as
// children (Accessibility.getChildAXNodes, one call per parent).
// Nothing in the reply itself (ignored reasons, the parent's childIds)
// says it.
func (m *Model) axMembers(ctx context.Context, p dom.Session, parents map[int64]string) (map[int64]bool, error) {
	in := map[int64]bool{}
	if len(parents) == 0 {
		return in, nil
	}
	if !m.axEnabled {
		// getChildAXNodes needs the domain on; it also keeps Chrome's AX
		// tree alive between reads, which makes later reads cheaper.
		if err := p.Call(ctx, "Accessibility.enable", nil, nil); err != nil {
			return nil, err
		}
		m.axEnabled = true
	}
	// An AX id is one of its frame's tree: a node of a same-process child
	// frame is asked about in that frame.
	type axParent struct{ frame, id string }
	byParent := map[axParent][]int64{}
	m.mu.Lock()
	for id, par := range parents {
		k := axParent{m.frameOf(m.byBack[id]), par}
		byParent[k] = append(byParent[k], id)
	}
	m.mu.Unlock()
	var mu sync.Mutex
	var firstErr error
	work := make(chan axParent)
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for par := range work {
				var r struct {
					Nodes []struct {
						Backend int64 `json:"backendDOMNodeId"`
					} `json:"nodes"`
				}
				params := map[string]any{"id": par.id}
				if par.frame != "" {
					params["frameId"] = par.frame
				}
				if err := p.Call(ctx, "Accessibility.getChildAXNodes", params, &r); err != nil {
					if dom.CodeOf(err) != dom.CDPError {
						mu.Lock()
						if firstErr == nil {
							firstErr = err
						}
						mu.Unlock()
					}
					continue // the parent went away: its children with it
				}
				mu.Lock()
				for _, n := range r.Nodes {
					in[n.Backend] = true
				}
				mu.Unlock()
			}
		})
	}
	for par := range byParent {
		work <- par
	}
	close(work)
	wg.Wait()
	for id := range in {
		if _, asked := parents[id]; !asked {
			delete(in, id)
		}
	}
	return in, firstErr
}

// frameOf is the id of the same-process child frame whose document holds
// n, "" for the page's own document. m.mu is held.
func (m *Model) frameOf(n *cdpjson.Node) string {
	for x := n; x != nil; x = m.parent[x.NodeID] {
		if x.NodeType != dom.DocumentNode {
			continue
		}
		if host := m.parent[x.NodeID]; host != nil && host.FrameID != "" {
			return host.FrameID
		}
		return ""
	}
	return ""
}

// scrubSecrets removes the values of sensitive fields from every string of
// the model, as capture.Scrub does in a capture.
func (m *Model) scrubSecrets(secrets []string) {
	scrub := func(s string) string {
		for _, sec := range secrets {
			s = dom.ScrubString(s, sec)
		}
		return s
	}
	m.ti.Root.Each(func(x *cdpjson.Node) {
		x.NodeValue = scrub(x.NodeValue)
		for i := 1; i < len(x.Attributes); i += 2 {
			if x.Attributes[i] != dom.Mask {
				x.Attributes[i] = scrub(x.Attributes[i])
			}
		}
	})
	for _, a := range m.ti.AX {
		a.Name = scrub(a.Name)
		if a.Value != dom.Mask {
			a.Value = scrub(a.Value)
		}
	}
	for i, s := range m.ti.Strings {
		if s != dom.Mask {
			m.ti.Strings[i] = scrub(s)
		}
	}
	for id, v := range m.ti.Values {
		if v != dom.Mask {
			m.ti.Values[id] = scrub(v)
		}
	}
	m.raw.Title = scrub(m.raw.Title)
}
