package model

import (
	"context"
	_ "embed" // page scripts
	"encoding/json"
	neturl "net/url"
	"reflect"
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

// A page that did not change since the last read needs no refresh: the
// last tree, copied, is what a refresh would build. Most reads of a page
// at rest (an agent's repeated dom_snapshot, a served snapshot) are
// such reads. Proving it takes one script in the page (stillJS) and the
// focused element's AX facts, no refresh. The script asks the page guard (guard.go), which keeps a
// MutationObserver on the documents and the model's shadow roots. It is
// still when, since the guard last ran:
//   - no node, attribute or text changed.
//   - the address, sizes, scroll offsets and style sheets are the same.
//   - no resource loaded, no animation ran, nothing scrolled.
//   - focus, hover, form and popover states are the same, and so are
//     custom elements defined, full screen and media playing.
//
// What the observer cannot see, a new shadow root, comes as a DOM event.
// So the model's event stream is drained up to the script's reply
// (dom.EventMarker) and must have brought nothing.

// stillJS reports whether the page is as the guard last saw it: -1 when
// not, else how many frames it holds that it cannot read. It changes
// nothing the guard compares with, so a refresh that follows finds what
// the guard would have found.
var stillJS = PageJS(stillSrc, guardParts...)

//go:embed still.js
var stillSrc string

// Still returns a copy of the last tree as the snapshot of the page now,
// when nothing can have changed since it was read. Else it returns nil,
// and the caller refreshes. drain waits until the model's event stream
// holds every event the browser sent before the last reply.
func (m *Model) Still(ctx context.Context, p dom.Page, opts build.Options, drain func(context.Context) error) *dom.Snapshot {
	start := time.Now()
	m.mu.Lock()
	frames := len(m.frames)
	resting := m.restingLocked(frames > 0)
	m.mu.Unlock()
	if !resting {
		return nil
	}
	// Roots still to register are not yet watched by the guard.
	if ok, err := m.registerRoots(ctx, p); !ok || err != nil {
		return nil
	}
	var a *ahead
	var wg sync.WaitGroup
	if frames == 0 {
		wg.Go(func() { a = m.cloneAhead(opts) })
	}
	// The focused element's own state (indeterminate, a custom element's
	// ARIA) changes with no event. Its AX facts are read again, as a
	// refresh does, beside the script.
	sameFocus := true
	wg.Go(func() { sameFocus = m.focusedAXSame(ctx, p) })
	var ev struct {
		Result struct {
			Value *int `json:"value"`
		} `json:"result"`
		ExceptionDetails json.RawMessage `json:"exceptionDetails"`
	}
	err := p.Call(ctx, "Runtime.evaluate", map[string]any{"expression": stillJS, "returnByValue": true}, &ev)
	opaque := -1 // a script that threw or said nothing proves nothing
	if ev.Result.Value != nil && len(ev.ExceptionDetails) == 0 {
		opaque = *ev.Result.Value
	}
	if err == nil && opaque >= 0 {
		err = drain(ctx)
	}
	wg.Wait()
	if err != nil || opaque < 0 || !sameFocus {
		return nil
	}
	if frames > 0 {
		return m.stillWithFrames(ctx, p, opts, start, opaque)
	}
	if opaque > 0 || a == nil {
		return nil
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if !m.restingLocked(false) || a.version != m.version {
		return nil
	}
	stamp := m.raw.Timestamp
	m.raw.Timestamp = start.UTC().Format(time.RFC3339Nano)
	out, ok := a.finish(m, m.ti.Layout, nil, nil)
	if !ok {
		m.raw.Timestamp = stamp
		return nil
	}
	out.Taken = start
	out.CaptureTime = time.Since(start) - out.BuildTime
	return out
}

// stillWithFrames is Still for a page at rest that holds out-of-process
// frames. Their renderers' changes reach no guard and no event of the
// page's. So they are read whole, as a refresh reads them, and the tree
// is built again; the page's own reads are saved. Each frame the page
// cannot read must be one of them, hosted by the page: a same-process
// frame of another origin could have changed unseen.
func (m *Model) stillWithFrames(ctx context.Context, p dom.Page, opts build.Options, start time.Time, opaque int) *dom.Snapshot {
	m.mu.Lock()
	unsure := m.framesUnsure()
	m.mu.Unlock()
	if unsure != "" {
		return nil
	}
	fs, err := p.Frames(ctx)
	if err != nil {
		return nil
	}
	m.mu.Lock()
	version, viewport := m.version, m.raw.Viewport
	had := map[string]bool{}
	for _, f := range m.frames {
		had[f.Raw.TargetID] = true
	}
	m.mu.Unlock()
	hosted := 0
	for _, f := range fs {
		if !had[f.TargetID] {
			return nil
		}
		if f.ParentID == p.TargetID() {
			hosted++
		}
	}
	if len(fs) != len(had) || hosted != opaque {
		return nil
	}
	targets := capture.FrameTargets(ctx, p, fs, func(string, time.Time) {})
	frameIdx, frameSecrets, frameURLSecrets := m.readFrames(ctx, p, fs, targets, viewport, m.pendingSecrets())
	m.mu.Lock()
	defer m.mu.Unlock()
	if !m.restingLocked(true) || m.version != version {
		return nil
	}
	m.version++
	m.setFrames(frameIdx)
	m.raw.Timestamp = start.UTC().Format(time.RFC3339Nano)
	if secrets := dom.CleanSecrets(frameSecrets); len(secrets) > 0 {
		m.scrubSecrets(secrets)
	}
	if m.learnURLSecrets("", nil, nil, frameURLSecrets) {
		m.hideURLSecrets()
	}
	built := time.Now()
	out, err := m.buildLocked(opts, built)
	if err != nil {
		return nil
	}
	out.Taken, out.CaptureTime = start, built.Sub(start)
	return out
}

// focusedAXSame reports whether the AX facts of the focused element and
// its ancestors are the ones the model holds, as a refresh reads them
// again. Until the first refresh, the focused ones are those the
// capture's AX tree marks. A sensitive value in the facts counts as a
// change: the refresh then redacts it as it always does.
func (m *Model) focusedAXSame(ctx context.Context, p dom.Session) bool {
	m.mu.Lock()
	focused := m.axFocused
	if m.focused != 0 {
		focused = []int64{m.focused}
	}
	need := map[int64]bool{}
	for _, id := range focused {
		n := m.byBack[id]
		if n == nil {
			m.mu.Unlock()
			return false
		}
		m.addUp(need, n)
	}
	ids := m.known(need, nil)
	had := map[int64]*cdpjson.AXNode{}
	inside, fields := map[int64]bool{}, map[int64]bool{}
	for _, id := range ids {
		if a := m.ti.AX[id]; a != nil {
			c := *a // the model may change once m.mu is let go
			c.Properties = slices.Clone(a.Properties)
			had[id] = &c
		}
		n := m.byBack[id]
		for x := n; x != nil; x = m.parent[x.NodeID] {
			if x.Sensitive() {
				inside[id], fields[id] = true, x == n
				break
			}
		}
	}
	m.mu.Unlock()
	if len(ids) == 0 {
		return true
	}
	ax, _, secrets, err := fetchPartialAX(ctx, p, ids, inside, fields)
	if err != nil || len(secrets) > 0 {
		return false
	}
	m.mu.Lock()
	secretsNow := m.urlSecrets
	m.mu.Unlock()
	for _, id := range ids {
		now := ax[id]
		if now != nil {
			// as the model holds them: URL credentials hidden
			now = safeAX(now, secretsNow)
		}
		if had[id] == nil {
			// the model keeps no facts of an ignored node outside Chrome's tree
			if now != nil && !now.Ignored {
				return false
			}
		} else if now == nil || !reflect.DeepEqual(now, safeAX(had[id], secretsNow)) {
			return false
		}
	}
	return true
}

// safeAX is a copy of a with its URLs made safe and the page's URL
// credentials hidden, as a capture and the model show them.
func safeAX(a *cdpjson.AXNode, secrets []string) *cdpjson.AXNode {
	c := *a
	c.Name, c.Value = capture.HideURLSecrets(c.Name, secrets), capture.HideURLSecrets(c.Value, secrets)
	c.Properties = slices.Clone(a.Properties)
	for i, p := range c.Properties {
		if p.Name == "url" {
			p.Value = urls.Safe(p.Value)
		}
		c.Properties[i].Value = capture.HideURLSecrets(p.Value, secrets)
	}
	return &c
}

// framesUnsure says why a page with out-of-process frames cannot take a
// still read ("" if it can). A frame the page cannot read that is no
// out-of-process frame (another origin, a sandbox) could change unseen.
// A sensitive field's value could have been passed to a frame: only a
// refresh, which reads the page's layout, knows it to redact it there.
// m.mu is held.
func (m *Model) framesUnsure() string {
	why := ""
	page := origin(m.raw.URL)
	m.ti.Root.Each(func(x *cdpjson.Node) {
		switch {
		case why != "":
		case x.Sensitive():
			why = "a sensitive field"
		case x.NodeType == dom.ElementNode && (strings.EqualFold(x.NodeName, "iframe") || strings.EqualFold(x.NodeName, "frame")) && hasSandbox(x):
			why = "a sandboxed frame"
		case x.NodeType == dom.DocumentNode && x != m.ti.Root && !strings.HasPrefix(x.DocumentURL, "about:") && origin(x.DocumentURL) != page:
			why = "a frame of another origin in the page's process"
		}
	})
	return why
}

// hasSandbox reports whether frame element x has a sandbox attribute.
func hasSandbox(x *cdpjson.Node) bool {
	_, ok := cdpjson.AttrMap(x.Attributes)["sandbox"]
	return ok
}

// origin is the scheme, host and port of an absolute URL ("" if none).
func origin(u string) string {
	p, err := neturl.Parse(u)
	if err != nil || p.Host == "" {
		return ""
	}
	return p.Scheme + "://" + p.Host
}

// restingLocked reports whether the model saw no change since the last
// read. Without frames it must hold a tree of that read to copy; with
// out-of-process frames the tree is built again. m.mu is held.
func (m *Model) restingLocked(frames bool) bool {
	ok := m.broken == "" && m.guarded && !m.holding && m.events == 0 &&
		len(m.dirty) == 0 && len(m.touched) == 0 && len(m.inserted) == 0 && len(m.styled) == 0 && len(m.cut) == 0 &&
		len(m.secrets) == 0
	if frames {
		return ok && len(m.frames) > 0
	}
	return ok && len(m.frames) == 0 && m.draft != nil && m.draftVersion == m.version
}
