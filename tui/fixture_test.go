package tui

import (
	"context"
	"strconv"
	"sync"
	"time"

	"domscope/dom"
	"domscope/dom/build"
)

// fixture builds a small hand-made VirtualNode tree. It is a view
// fixture, not a fake browser.
type fixture struct {
	next int
	s    *dom.Snapshot
}

func newFixture(title string) *fixture {
	f := &fixture{}
	root := &dom.VirtualNode{NodeType: dom.DocumentNode, Tag: "#document", Role: "RootWebArea", Tier: dom.Structural, Visible: true}
	f.s = &dom.Snapshot{Seq: 1, URL: "http://127.0.0.1:8080/form.html", Title: title, TargetID: "TARGET1",
		Taken: time.Date(2026, 11, 22, 18, 0, 0, 0, time.UTC), CaptureTime: 42 * time.Millisecond,
		ByID: map[string]*dom.VirtualNode{}, Raw: &dom.RawCapture{Version: 1, URL: "http://127.0.0.1:8080/form.html", Targets: []dom.RawTarget{{TargetID: "TARGET1"}}}}
	f.add(nil, root)
	f.s.Root = root
	return f
}

func (f *fixture) add(parent, n *dom.VirtualNode) *dom.VirtualNode {
	f.next++
	if n.ID == "" {
		n.ID = "node_" + strconv.Itoa(f.next)
	}
	n.BackendID = int64(100 + f.next)
	if n.NodeType == 0 {
		n.NodeType = dom.ElementNode
	}
	if n.Hidden == "" {
		n.Visible = true
		n.InViewport = true
	}
	n.Parent = parent
	if parent != nil {
		parent.Children = append(parent.Children, n)
	}
	f.s.ByID[n.ID] = n
	return n
}

func el(tag string, attrs ...string) *dom.VirtualNode {
	n := &dom.VirtualNode{Tag: tag, Role: tag, Attrs: map[string]string{}}
	for i := 0; i+1 < len(attrs); i += 2 {
		n.Attrs[attrs[i]] = attrs[i+1]
	}
	return n
}

func sem(n *dom.VirtualNode, role, name string) *dom.VirtualNode {
	n.Tier, n.Role, n.Name, n.Why = dom.Semantic, role, name, "ax:"+role
	return n
}

// formPage is the demo-like page the view tests use.
func formPage(title string) *dom.Snapshot {
	f := newFixture(title)
	html := f.add(f.s.Root, el("html", "lang", "en"))
	head := f.add(html, el("head"))
	f.add(head, el("title"))
	body := f.add(html, el("body"))
	wrap := f.add(body, el("div", "class", "page-wrapper container"))
	form := f.add(wrap, sem(el("form", "id", "signup"), "form", "Sign up"))
	grp := f.add(form, el("div", "class", "form-group"))
	f.add(grp, sem(el("label", "for", "email"), "LabelText", "Email"))
	in := f.add(grp, sem(el("input", "id", "email", "type", "email", "placeholder", "you@example.com"), "textbox", "Email"))
	in.States = map[string]string{"focusable": "true", "required": "true"}
	in.Bounds = dom.Rect{X: 120, Y: 340, W: 300, H: 28}
	div := f.add(form, el("div", "onclick", "submit()", "data-testid", "submit"))
	div.Tier, div.Why, div.Name = dom.NonSemantic, "heuristic:onclick", "Submit"
	f.add(div, &dom.VirtualNode{NodeType: dom.TextNode, Tag: "#text", Text: "Submit"})
	hid := f.add(body, el("div", "style", "display:none"))
	hid.Hidden = "display:none"
	f.add(hid, sem(el("button"), "button", "Secret"))
	host := f.add(body, el("my-widget"))
	sr := f.add(host, &dom.VirtualNode{NodeType: dom.FragmentNode, Tag: "#shadow-root", ShadowType: "closed"})
	f.add(sr, sem(el("button", "class", "btn"), "button", "Shadow button"))
	f.add(body, sem(el("iframe", "src", "https://other.example/"), "Iframe", ""))
	return f.s
}

// testActor is a small in-test dom.Actor. It serves prepared snapshots and
// records the actions it was asked to do.
type testActor struct {
	mu      sync.Mutex
	snaps   []*dom.Snapshot // returned in turn by Snapshot
	actions []dom.Action
	events  chan dom.Event // nil: tests deliver events as messages, so no command blocks
	hl      []string
	result  dom.ActionResult
}

func newTestActor(snaps ...*dom.Snapshot) *testActor {
	return &testActor{snaps: snaps, result: dom.ActionResult{Success: true, SnapshotInvalidated: true, Duration: 12 * time.Millisecond}}
}

func (a *testActor) Snapshot(ctx context.Context, force bool) (*dom.Snapshot, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if len(a.snaps) == 0 {
		return nil, dom.Errorf(dom.SnapshotFailed, nil, "no snapshot prepared")
	}
	s := a.snaps[0]
	if len(a.snaps) > 1 {
		a.snaps[0] = nil // served: only the UI may keep it now
		a.snaps = a.snaps[1:]
	}
	return s, nil
}

func (a *testActor) Current() *dom.Snapshot { return nil }

// SetTierRules rebuilds the next prepared snapshot with the rules. The
// service rebuilds its latest one the same way.
func (a *testActor) SetTierRules(off map[string]bool) (*dom.Snapshot, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if len(a.snaps) == 0 || !a.snaps[0].HasCapture() {
		return nil, nil
	}
	ns, err := build.Rebuild(a.snaps[0], off)
	if err != nil {
		return nil, err
	}
	a.snaps[0] = ns
	return ns, nil
}

func (a *testActor) Do(ctx context.Context, act dom.Action) dom.ActionResult {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.actions = append(a.actions, act)
	r := a.result
	r.Action, r.ID = act.Kind, act.ID
	return r
}

func (a *testActor) Highlight(ctx context.Context, id string) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.hl = append(a.hl, id)
	return nil
}

func (a *testActor) Events() <-chan dom.Event { return a.events }
func (a *testActor) State() dom.ConnState     { return dom.Connected }
func (a *testActor) Close() error             { return nil }

// prompt is the open prompt, or nil.
func (m *Model) prompt() *promptLayer {
	p, _ := topAs[*promptLayer](m)
	return p
}

// topList is the list on top (help, rules, diff, tabs), or nil.
func (m *Model) topList() *list {
	switch l := m.top().(type) {
	case *helpLayer:
		return &l.list
	case *rulesLayer:
		return &l.list
	case *diffLayer:
		return &l.list
	case *tabsLayer:
		return &l.list
	}
	return nil
}
