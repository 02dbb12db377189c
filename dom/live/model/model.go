// Package model is the live page model under the service: a page's
// capture decoded once, kept current from the DOM events the service
// drains into it, and refreshed by targeted reads instead of a full
// capture. The service (dom/live) owns the page and its events; this
// package owns what they are applied to.
package model

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"
	"weak"

	"domscope/dom"
	"domscope/dom/build"
	"domscope/dom/cdpjson"
)

// Model is a page's capture decoded once and kept current from DOM
// events (Apply). So a later snapshot refreshes only what changed
// (Refresh) and builds with the same Build as a full capture. The page's
// own target is followed. Its out-of-process frames (other renderer
// processes, other sessions) are captured whole at every refresh.
//
// Nothing secret enters it. Every event that touches a sensitive field
// (SensitiveField) or its subtree is redacted as the capture is. So are
// the AX and layout replies a refresh fetches.
type Model struct {
	mu     sync.Mutex
	raw    *dom.RawCapture // the capture's metadata; the decoded data is in ti and frames
	ti     *cdpjson.Target
	frames []*cdpjson.Target       // out-of-process frames, as raw.Targets[1:]
	byNode map[int64]*cdpjson.Node // frontend nodeId -> node
	parent map[int64]*cdpjson.Node // nodeId -> parent (host for a shadow root, <iframe> for its document)
	byBack map[int64]*cdpjson.Node // backendNodeId -> node

	// What changed since the last refresh, by nodeId.
	dirty    map[int64]bool // the whole subtree (attributes, inserted)
	touched  map[int64]bool // the node itself (text, children list)
	inserted map[int64]bool // inserted roots: their listeners are fetched
	styled   map[int64]bool // inline style changed: attributes re-read
	cut      map[int64]bool // children Chrome has not sent yet
	grown    chan struct{}  // closed and replaced when cut nodes get children
	events   int
	// broken is why the next read must be a full capture ("" if none).
	broken  string
	focused int64 // backend id of the focused element at the last refresh
	// axFocused are the nodes the capture's AX tree marks focused, until
	// the first refresh: their focus may have gone since.
	axFocused []int64
	// minID is the document's node id. Chrome numbers the nodes of a
	// getDocument reply after every id it gave before. So an event naming
	// a smaller id came before the capture and is already in it.
	minID   int64
	secrets []string
	// urlSecrets are the credentials the capture's URLs held
	// (dom.RawCapture.URLSecrets), hidden in every later string too.
	urlSecrets []string
	// axEnabled: the Accessibility domain is on (Refresh turns it on the
	// first time it must ask which ignored nodes Chrome's tree holds).
	axEnabled bool
	// version counts the changes to the model. A snapshot built from it
	// can be written out as a capture while the version is the same.
	version uint64
	// draft is the build of the last snapshot made from the model, at
	// draftVersion (keepDraft).
	draft        *build.Draft
	draftVersion uint64
	// sameNext is the last snapshot made, when it repeats samePrev node
	// for node (a copy of its tree, put right with no change).
	sameNext, samePrev weak.Pointer[dom.Snapshot]
	// applied is when the last applied event came off the wire.
	applied time.Time
	// A read holds the model at a mark (holdAtMark). holding is set while
	// it does, marked once the mark came. held are the events after it.
	holding, marked bool
	markNode        int64 // the node id of the mark it holds at
	markCh          chan struct{}
	held            []dom.EventMessage

	// guarded: the page guard (guard.go) ran before the layout the model
	// holds was read. So the next refresh may read changed parts only.
	guarded bool
	// registered are the shadow roots (backend ids) the guard was given.
	registered map[int64]bool
	regMu      sync.Mutex // held while roots are registered
	regSynced  bool       // registered holds what the page had at the start
	// fullBoxes is how many boxes the last whole layout held.
	fullBoxes int
	// partialWhy is why the last refresh read the whole layout ("" if it
	// read the changed parts only).
	partialWhy string
	// w sees what flashes between two reads (nil: nobody asks).
	w Watcher
	// scope and frameTarget are set on a model of an out-of-process
	// frame (frame.go): the witness keeps its ids apart.
	scope       int64
	frameTarget string
}

// maxLiveEvents is how many DOM events the model applies between two
// reads before a full capture is cheaper than following them.
const maxLiveEvents = 20000

// NewModel decodes a full capture into a live model, taking its CDP
// JSON (raw keeps its metadata). It returns nil and the reason when the
// page cannot be followed live (a target without a document).
func NewModel(raw *dom.RawCapture) (*Model, string) {
	if raw == nil || len(raw.Targets) == 0 {
		return nil, "the capture has no targets"
	}
	// The capture's JSON is let go as it is decoded; raw keeps only its
	// metadata. The model is the capture from now on (Snapshot.Capture).
	c, err := cdpjson.Decode(raw, true)
	if err != nil || c.Targets[0].Root == nil {
		return nil, "the capture has no readable document"
	}
	targets := c.Targets
	ti := targets[0]
	meta := *raw
	meta.Targets = slices.Clone(raw.Targets)
	meta.Timings = nil
	for i := range meta.Targets {
		t := &meta.Targets[i]
		t.Document, t.DocumentParts, t.AXTrees, t.Layout = nil, nil, nil, nil
		targets[i].Raw = t
	}
	m := &Model{raw: &meta, ti: ti, frames: targets[1:], byNode: map[int64]*cdpjson.Node{}, parent: map[int64]*cdpjson.Node{}, byBack: map[int64]*cdpjson.Node{}, grown: make(chan struct{}),
		registered: map[int64]bool{}, fullBoxes: len(ti.Layout)}
	m.resetSets()
	m.urlSecrets = raw.URLSecrets
	if p, ok := guardedRaws.LoadAndDelete(raw); ok {
		m.guarded = true
		defer m.registerAhead(p.(dom.Session))
	}
	m.minID = ti.Root.NodeID
	m.index(ti.Root, nil)
	for id, a := range ti.AX {
		if slices.Contains(a.Properties, cdpjson.AXProperty{Name: "focused", Value: "true"}) {
			m.axFocused = append(m.axFocused, id)
		}
	}
	if len(m.cut) > 0 {
		// It builds as the capture does, but cannot follow changes.
		m.broken = "the capture has nodes without their children"
	}
	return m, ""
}

func (m *Model) resetSets() {
	m.dirty, m.touched, m.inserted, m.styled = map[int64]bool{}, map[int64]bool{}, map[int64]bool{}, map[int64]bool{}
	if m.cut == nil {
		m.cut = map[int64]bool{}
	}
	m.events = 0
}

// Build builds a snapshot from the model as it is now.
func (m *Model) Build(opts build.Options) (*dom.Snapshot, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.buildLocked(opts, time.Now())
}

// decoded is the model as a decoded capture. m.mu is held.
func (m *Model) decoded() *cdpjson.Capture {
	return &cdpjson.Capture{Raw: m.raw, Targets: append([]*cdpjson.Target{m.ti}, m.frames...)}
}

func (m *Model) buildLocked(opts build.Options, start time.Time) (*dom.Snapshot, error) {
	d, err := build.NewDraft(m.decoded(), opts, start)
	if err != nil {
		return nil, err
	}
	s := d.Snapshot()
	s.Raw, s.Source = nil, &modelSource{m: m, version: m.version}
	m.keepDraft(d)
	return s, nil
}

// keepDraft remembers the draft of the snapshot just built from the
// model. The next refresh copies it when the model is the same
// (buildAhead). Out-of-process frames are read whole at every refresh:
// a tree with them is not kept. m.mu is held.
func (m *Model) keepDraft(d *build.Draft) {
	m.draft, m.draftVersion = nil, 0
	m.sameNext, m.samePrev = weak.Pointer[dom.Snapshot]{}, weak.Pointer[dom.Snapshot]{}
	if len(m.frames) == 0 {
		m.draft, m.draftVersion = d, m.version
	}
}

// SameTree is the snapshot whose tree s repeats node for node, when s is
// the last one the model made and one copied from it with no change. It
// is nil otherwise.
func (m *Model) SameTree(s *dom.Snapshot) *dom.Snapshot {
	if m == nil || s == nil {
		return nil
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.sameNext.Value() != s {
		return nil
	}
	return m.samePrev.Value()
}

// Broken reports why the next read must be a full capture ("" when the
// model can be refreshed).
func (m *Model) Broken() string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.broken
}

// Break makes the next read a full capture (a command reset the
// browser's node ids, the page navigated).
func (m *Model) Break(why string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.broken == "" {
		m.broken = why
	}
}

// HasFrames reports whether the page had out-of-process frames at the
// last read: their changes are seen only by reading them again.
func (m *Model) HasFrames() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.frames) > 0
}

// Pending reports how many DOM events arrived since the last refresh.
func (m *Model) Pending() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.events
}

// index adds n's subtree under parent to the lookup maps.
func (m *Model) index(n, parent *cdpjson.Node) {
	type pair struct{ n, p *cdpjson.Node }
	stack := []pair{{n, parent}}
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if x.n == nil {
			continue
		}
		m.byNode[x.n.NodeID] = x.n
		m.byBack[x.n.BackendNodeID] = x.n
		if x.p != nil {
			m.parent[x.n.NodeID] = x.p
		}
		if x.n.Cut() {
			m.cut[x.n.NodeID] = true
		}
		for _, c := range x.n.Children {
			stack = append(stack, pair{c, x.n})
		}
		for _, c := range x.n.ShadowRoots {
			stack = append(stack, pair{c, x.n})
		}
		stack = append(stack, pair{x.n.ContentDocument, x.n}, pair{x.n.TemplateContent, x.n})
	}
}

// unindex drops n's subtree from the lookup maps and the AX facts.
func (m *Model) unindex(n *cdpjson.Node) {
	n.Each(func(x *cdpjson.Node) {
		delete(m.byNode, x.NodeID)
		delete(m.parent, x.NodeID)
		if m.byBack[x.BackendNodeID] == x {
			delete(m.byBack, x.BackendNodeID)
			delete(m.ti.AX, x.BackendNodeID)
			delete(m.ti.Listeners, x.BackendNodeID)
		}
		delete(m.cut, x.NodeID)
		delete(m.dirty, x.NodeID)
		delete(m.touched, x.NodeID)
		delete(m.inserted, x.NodeID)
		delete(m.styled, x.NodeID)
	})
}

// hasFrame reports whether n's subtree holds a frame (its document comes
// with no event the model could follow).
func hasFrame(n *cdpjson.Node) bool {
	found := false
	n.Each(func(x *cdpjson.Node) {
		if x.ContentDocument != nil || x.FrameID != "" {
			found = true
			return
		}
		switch strings.ToUpper(x.NodeName) {
		case "IFRAME", "FRAME", "OBJECT", "EMBED", "PORTAL", "FENCEDFRAME":
			found = true
		}
	})
	return found
}

// Apply applies DOM events to the model, in order, at once. The events
// of one change of the page often come in one batch. An event the model
// cannot follow (a new document, an unknown node, a frame) breaks it.
// The next read is then a full capture. Events after the mark a read
// holds the model at (holdAtMark) wait until it lets go.
func (m *Model) Apply(evs ...dom.EventMessage) {
	if len(evs) == 0 {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.applyLocked(evs)
}

func (m *Model) applyLocked(evs []dom.EventMessage) {
	for _, ev := range evs {
		if m.marked {
			m.held = append(m.held, ev)
			continue
		}
		if id, ok := markOf(ev); ok {
			if m.holding {
				m.marked, m.markNode = true, id
				close(m.markCh)
			}
			continue
		}
		if ev.Method == "Runtime.bindingCalled" {
			m.reported(ev) // in order: after the removals it tells of
			continue
		}
		m.version++
		m.applied = ev.At
		if m.applied.IsZero() {
			m.applied = time.Now()
		}
		if m.broken != "" {
			continue
		}
		m.events++
		if m.events > maxLiveEvents {
			m.broken = "too many changes"
			continue
		}
		if why := m.apply(ev); why != "" {
			m.broken = why
		}
	}
}

// A read must see the model between two changes of the page. It must
// never see a text removed and its replacement not yet inserted
// (textContent). The page's events come one by one. So the read puts a
// mark in their stream and holds the model there. It asks Chrome to
// describe an element that is in no document (DOM.requestNode). Chrome
// answers with a DOM.setChildNodes event for parent 0. That event comes
// in order with the page's events, between two of its tasks. The page
// sees nothing of it.

// markTag names the element of a mark.
const markTag = "domscope-mark"

// MarkWait bounds the wait for a mark's event after Chrome answered: it
// is already on its way then.
const MarkWait = 2 * time.Second

// markOf reports whether ev is a mark, and the node id Chrome gave it. A
// detached node pushed by anyone else is no mark, and nothing to the
// model either.
func markOf(ev dom.EventMessage) (int64, bool) {
	if ev.Method != "DOM.setChildNodes" || !strings.Contains(string(ev.Params), markTag) {
		return 0, false
	}
	var e struct {
		ParentID int64 `json:"parentId"`
		Nodes    []struct {
			NodeID    int64  `json:"nodeId"`
			LocalName string `json:"localName"`
		} `json:"nodes"`
	}
	if cdpjson.Unmarshal(ev.Params, &e) != nil || e.ParentID != 0 || len(e.Nodes) != 1 || e.Nodes[0].LocalName != markTag {
		return 0, false
	}
	return e.Nodes[0].NodeID, true
}

// holdAtMark puts a mark in the page's event stream and waits until the
// model reaches it. The model is then as the page was between two of
// its tasks. It stays so until release; later events wait. marker is
// the detached element the read marks with (made on first use, in
// group).
func (m *Model) holdAtMark(ctx context.Context, p dom.Session, group string, marker *string) error {
	m.mu.Lock()
	m.releaseLocked()
	m.holding, m.markCh = true, make(chan struct{})
	reached := m.markCh
	m.mu.Unlock()
	if *marker == "" {
		var ev struct {
			Result struct {
				ObjectID string `json:"objectId"`
			} `json:"result"`
		}
		expr := fmt.Sprintf("document.createElement(%q)", markTag)
		if err := p.Call(ctx, "Runtime.evaluate", map[string]any{"expression": expr, "objectGroup": group}, &ev); err != nil {
			return err
		}
		if ev.Result.ObjectID == "" {
			return dom.Errorf(dom.SnapshotFailed, nil, "the page would not make an element to mark its events with")
		}
		*marker = ev.Result.ObjectID
	}
	var r struct {
		NodeID int64 `json:"nodeId"`
	}
	if err := p.Call(ctx, "DOM.requestNode", map[string]any{"objectId": *marker}, &r); err != nil {
		return err
	}
	t := time.NewTimer(MarkWait)
	defer t.Stop()
	select {
	case <-reached:
	case <-ctx.Done():
		return dom.Errorf(dom.Timeout, ctx.Err(), "waiting for the page's events")
	case <-t.C:
		return dom.Errorf(dom.SnapshotFailed, nil, "the page's DOM events stopped coming")
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.markNode != r.NodeID {
		return dom.Errorf(dom.SnapshotFailed, nil, "the page's DOM events came out of order")
	}
	return nil
}

// release lets the model follow the page again after holdAtMark.
func (m *Model) release() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.releaseLocked()
}

func (m *Model) releaseLocked() {
	if !m.holding {
		return
	}
	held := m.held
	m.holding, m.marked, m.held = false, false, nil
	m.applyLocked(held)
}

func (m *Model) apply(ev dom.EventMessage) string {
	var e struct {
		NodeID          int64           `json:"nodeId"`
		ParentID        int64           `json:"parentId"`
		ParentNodeID    int64           `json:"parentNodeId"`
		PreviousNodeID  int64           `json:"previousNodeId"`
		HostID          int64           `json:"hostId"`
		RootID          int64           `json:"rootId"`
		Name            string          `json:"name"`
		Value           string          `json:"value"`
		CharacterData   string          `json:"characterData"`
		ChildNodeCount  int             `json:"childNodeCount"`
		Node            *cdpjson.Node   `json:"node"`
		Root            *cdpjson.Node   `json:"root"`
		Nodes           []*cdpjson.Node `json:"nodes"`
		NodeIDs         []int64         `json:"nodeIds"`
		PseudoElement   *cdpjson.Node   `json:"pseudoElement"`
		PseudoElementID int64           `json:"pseudoElementId"`
	}
	if ev.Method == "DOM.documentUpdated" {
		return "a new document"
	}
	if err := cdpjson.Unmarshal(ev.Params, &e); err != nil {
		return "an unreadable " + ev.Method + " event"
	}
	node := func(id int64) *cdpjson.Node { return m.byNode[id] }
	for _, id := range []int64{e.NodeID, e.ParentID, e.ParentNodeID, e.HostID} {
		if id != 0 {
			if id < m.minID {
				return "" // from before the capture
			}
			break
		}
	}
	switch ev.Method {
	case "DOM.setChildNodes":
		if e.ParentID == 0 {
			return "" // a node in no document, pushed on request
		}
		p := node(e.ParentID)
		if p == nil {
			return "children for an unknown node"
		}
		for _, c := range p.Children {
			m.unindex(c)
		}
		p.Children = e.Nodes
		p.ChildNodeCount = len(e.Nodes)
		delete(m.cut, p.NodeID)
		for _, c := range e.Nodes {
			if hasFrame(c) {
				return "a frame was inserted"
			}
			m.index(c, p)
			m.inserted[c.NodeID] = true
			m.dirty[c.NodeID] = true
		}
		m.touched[p.NodeID] = true
		m.scrubAround(p)
		close(m.grown)
		m.grown = make(chan struct{})
	case "DOM.childNodeInserted":
		p := node(e.ParentNodeID)
		if p == nil || e.Node == nil {
			return "an insertion under an unknown node"
		}
		if hasFrame(e.Node) {
			return "a frame was inserted"
		}
		at := 0
		if e.PreviousNodeID != 0 {
			at = -1
			for i, c := range p.Children {
				if c.NodeID == e.PreviousNodeID {
					at = i + 1
					break
				}
			}
			if at < 0 {
				return "an insertion after an unknown node"
			}
		}
		if old := node(e.Node.NodeID); old != nil {
			m.detach(old)
		}
		p.Children = append(p.Children, nil)
		copy(p.Children[at+1:], p.Children[at:])
		p.Children[at] = e.Node
		p.ChildNodeCount = len(p.Children)
		m.index(e.Node, p)
		m.inserted[e.Node.NodeID] = true
		m.dirty[e.Node.NodeID] = true
		m.touched[p.NodeID] = true
		m.scrubAround(e.Node)
		if m.w != nil {
			m.w.Inserted(m, e.Node, m.applied)
		}
	case "DOM.childNodeRemoved":
		p, n := node(e.ParentNodeID), node(e.NodeID)
		if p == nil || n == nil {
			return "a removal of an unknown node"
		}
		if m.w != nil {
			m.w.Removing(m, n, m.applied)
		}
		m.detach(n)
		m.touched[p.NodeID] = true
	case "DOM.attributeModified", "DOM.attributeRemoved":
		n := node(e.NodeID)
		if n == nil {
			return "an attribute of an unknown node"
		}
		set := ev.Method == "DOM.attributeModified"
		if m.w != nil {
			m.w.Attr(m, n, e.Name, e.Value, set, m.applied)
		}
		found := false
		for i := 0; i+1 < len(n.Attributes); i += 2 {
			if n.Attributes[i] == e.Name {
				found = true
				if set {
					n.Attributes[i+1] = e.Value
				} else {
					n.Attributes = append(n.Attributes[:i], n.Attributes[i+2:]...)
				}
				break
			}
		}
		if set && !found {
			n.Attributes = append(n.Attributes, e.Name, e.Value)
		}
		m.dirty[n.NodeID] = true
		m.scrubAround(n)
	case "DOM.characterDataModified":
		n := node(e.NodeID)
		if n == nil {
			return "a text change of an unknown node"
		}
		n.NodeValue = e.CharacterData
		m.touched[n.NodeID] = true
		m.scrubAround(n)
		if m.w != nil {
			m.w.Changed(m, n, m.applied)
		}
	case "DOM.childNodeCountUpdated":
		n := node(e.NodeID)
		if n == nil {
			return "a count change of an unknown node"
		}
		n.ChildNodeCount = e.ChildNodeCount
		if n.Cut() {
			m.cut[n.NodeID] = true
		}
		m.touched[n.NodeID] = true
	case "DOM.shadowRootPushed":
		h := node(e.HostID)
		if h == nil || e.Root == nil {
			return "a shadow root of an unknown node"
		}
		if hasFrame(e.Root) {
			return "a frame was inserted"
		}
		h.ShadowRoots = append(h.ShadowRoots, e.Root)
		m.index(e.Root, h)
		m.inserted[e.Root.NodeID] = true
		m.dirty[h.NodeID] = true
		m.scrubAround(e.Root)
	case "DOM.shadowRootPopped":
		h, r := node(e.HostID), node(e.RootID)
		if h == nil || r == nil {
			return "a shadow root of an unknown node"
		}
		m.detach(r)
		m.dirty[h.NodeID] = true
	case "DOM.pseudoElementAdded":
		// Pseudo-elements are not in the tree, but their content is in
		// their parent's name and layout.
		if n := node(e.ParentID); n != nil {
			m.dirty[n.NodeID] = true
		}
	case "DOM.pseudoElementRemoved":
		if n := node(e.ParentID); n != nil {
			m.dirty[n.NodeID] = true
		}
	case "DOM.inlineStyleInvalidated":
		for _, id := range e.NodeIDs {
			if node(id) == nil {
				return "a style change of an unknown node"
			}
			m.styled[id] = true
			m.dirty[id] = true
		}
	}
	return ""
}

// detach removes n from wherever it hangs in the tree.
func (m *Model) detach(n *cdpjson.Node) {
	if p := m.parent[n.NodeID]; p != nil {
		drop := func(list []*cdpjson.Node) []*cdpjson.Node {
			for i, c := range list {
				if c == n {
					return append(list[:i:i], list[i+1:]...)
				}
			}
			return list
		}
		p.Children = drop(p.Children)
		p.ShadowRoots = drop(p.ShadowRoots)
		if p.ContentDocument == n {
			p.ContentDocument = nil
		}
		if p.TemplateContent == n {
			p.TemplateContent = nil
		}
		if p.Children != nil {
			p.ChildNodeCount = len(p.Children)
		}
	}
	m.unindex(n)
}

// fieldOf returns the sensitive field n is in (n itself included), or nil.
func (m *Model) fieldOf(n *cdpjson.Node) *cdpjson.Node {
	var found *cdpjson.Node
	for x := n; x != nil; x = m.parent[x.NodeID] {
		if x.Sensitive() {
			found = x // the outermost one, as the capture's walk finds it
		}
	}
	return found
}

// scrubAround redacts what changed at n the way the capture does. It
// redacts the whole field n is in, and every field in n's subtree.
func (m *Model) scrubAround(n *cdpjson.Node) {
	if f := m.fieldOf(n); f != nil {
		m.redactField(f)
		return
	}
	n.Each(func(x *cdpjson.Node) {
		if x.Sensitive() {
			m.redactField(x)
		}
	})
}

// redactField blanks the text and value attributes of a field's subtree,
// as the capture's redactDOM does; the field's own value becomes Mask.
func (m *Model) redactField(f *cdpjson.Node) {
	f.Each(func(x *cdpjson.Node) {
		if x.NodeValue != "" {
			m.secrets = append(m.secrets, x.NodeValue)
			x.NodeValue = ""
		}
		for i := 0; i+1 < len(x.Attributes); i += 2 {
			if v := x.Attributes[i+1]; v != "" && strings.EqualFold(x.Attributes[i], "value") {
				repl := ""
				if x == f {
					repl = dom.Mask
				}
				if v != repl {
					m.secrets = append(m.secrets, v)
				}
				x.Attributes[i+1] = repl
			}
		}
	})
}

// sensitiveSets returns the sensitive fields and every node of their
// subtrees by backend id, for redacting replies (capture.RedactAX, capture.RedactLayout).
func (m *Model) sensitiveSets() (inside, fields map[int64]bool) {
	inside, fields = map[int64]bool{}, map[int64]bool{}
	m.ti.Root.Each(func(n *cdpjson.Node) {
		if !n.Sensitive() || fields[n.BackendNodeID] {
			return
		}
		fields[n.BackendNodeID] = true
		n.Each(func(x *cdpjson.Node) { inside[x.BackendNodeID] = true })
	})
	return inside, fields
}
