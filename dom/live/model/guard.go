package model

import (
	"context"
	_ "embed" // page scripts
	"encoding/json"
	"strconv"
	"strings"
	"sync"
	"time"

	"domscope/dom"
	"domscope/dom/capture"
	"domscope/dom/cdpjson"
)

// The page guard is a script the live model keeps in the page. At each
// refresh, before any layout is read, it runs. It tells whether anything
// DOM events do not report may have moved or restyled boxes since the
// last refresh. It watches for:
//   - a scroll, of the page or of any element.
//   - a new viewport or document size.
//   - a stylesheet added, removed or edited.
//   - fonts or images that loaded.
//   - a running or finished animation.
//   - a new hover, focus or form state, where a stylesheet styles that
//     state in a way that can change a box. ":hover { display: block }"
//     can; a colour cannot.
//
// If any did, the refresh reads the whole layout (DOMSnapshot). If none
// did, it reads only the changed subtrees' (partial.go). The guard also
// lists the form controls whose value, checked or selected state
// changed; a script sets them without events. It gives their new state,
// as DOMSnapshot would. It sees the page's documents and the shadow
// roots the model registered. Closed roots cannot be found from the
// page's side (registerRoots).

// guardJS runs the guard. It returns {why, vals}. why is "" when a
// partial read can do. vals are the changed controls' states: [kind,
// value, on], kind 0 input, 1 textarea, 2 option. It keeps their
// elements in the page (guardChangedJS) for the model to name.
var guardJS = PageJS(guardSrc, guardParts...)

//go:embed guard.js
var guardSrc string

// guardParts are the shared parts of guardJS and stillJS, which
// compare the same things.
var guardParts = []string{"findDocs", findDocsJS, "guardSig", guardSigJS, "controlKey", controlKeyJS, "deepFocus", deepFocusJS}

// findDocsJS defines findDocs(G, seen): the page's documents, its own
// and those of the frames it can read, in documents and in the guard's
// shadow roots, each passed to seen once. The result's opaque counts
// the frames it cannot read.
//
//go:embed guard_find_docs.js
var findDocsJS string

// guardSigJS defines sigOf(docs, scopes), what the guard compares from
// one read to the next: {key, scroll}. key holds the documents' sizes,
// font status and fragment, and the style sheets of every scope. It
// also defines openPopovers(scopes) and otherStates(docs, scopes).
//
//go:embed guard_sig.js
var guardSigJS string

// controlKeyJS is the state of form control e as the guard keys it. A
// box made indeterminate, or a field made invalid, changes it too; the
// model's keys (controlKeys) hold neither, so such a control registered
// with a shadow root counts as changed once.
//
//go:embed guard_control_key.js
var controlKeyJS string

// deepFocusJS is the focused element, through open shadow roots and
// same-origin frames.
//
//go:embed guard_deep_focus.js
var deepFocusJS string

// guardChangedJS is the guard's list of changed controls.
//
//go:embed guard_changed.js
var guardChangedJS string

// registeredJS lists the backend ids of the shadow roots the guard has
// (an earlier model of the document gave them).
//
//go:embed guard_registered.js
var registeredJS string

// registerJS adds shadow roots (its arguments after keys and their
// backend ids) to the guard's. Each control's state is seen as the model
// holds it: keys[i] for roots[i]. The next guard reports what differs.
// It returns false if a root's controls are not the ones the model
// lists.
//
//go:embed guard_register.js
var registerJS string

// control is a form control's state as the guard read it.
type control struct {
	id    int64 // backend id
	kind  int   // 0 input, 1 textarea, 2 option
	value string
	on    bool // checked or selected
}

// guardReply is what a guard read found.
type guardReply struct {
	why      string
	controls []control
}

// readGuard runs the guard and names the changed controls by backend id.
func readGuard(ctx context.Context, p dom.Session, group string) (guardReply, error) {
	var ev struct {
		Result struct {
			Value struct {
				Why  string              `json:"why"`
				Vals [][]json.RawMessage `json:"vals"`
			} `json:"value"`
		} `json:"result"`
		ExceptionDetails json.RawMessage `json:"exceptionDetails"`
	}
	if err := p.Call(ctx, "Runtime.evaluate", map[string]any{"expression": guardJS, "returnByValue": true}, &ev); err != nil {
		return guardReply{}, err
	}
	if len(ev.ExceptionDetails) > 0 {
		return guardReply{why: "the page guard failed"}, nil
	}
	g := guardReply{why: ev.Result.Value.Why}
	if len(ev.Result.Value.Vals) == 0 {
		return g, nil
	}
	for _, v := range ev.Result.Value.Vals {
		var c control
		if len(v) < 3 || json.Unmarshal(v[0], &c.kind) != nil || json.Unmarshal(v[1], &c.value) != nil || json.Unmarshal(v[2], &c.on) != nil {
			return guardReply{why: "an unreadable guard reply"}, nil
		}
		g.controls = append(g.controls, c)
	}
	ids, err := nameObjects(ctx, p, guardChangedJS, group)
	if err != nil {
		return guardReply{}, err
	}
	if len(ids) != len(g.controls) {
		return guardReply{why: "the changed form controls could not be named"}, nil
	}
	for i := range g.controls {
		g.controls[i].id = ids[i]
	}
	return g, nil
}

// nameObjects gives the backend ids of the nodes in the array an
// expression returns, in order. One that could not be named gets 0.
func nameObjects(ctx context.Context, p dom.Session, expr, group string) ([]int64, error) {
	var ev struct {
		Result struct {
			ObjectID string `json:"objectId"`
		} `json:"result"`
	}
	if err := p.Call(ctx, "Runtime.evaluate", map[string]any{"expression": expr, "objectGroup": group}, &ev); err != nil {
		return nil, err
	}
	var props struct {
		Result []struct {
			Name  string `json:"name"`
			Value struct {
				ObjectID string `json:"objectId"`
			} `json:"value"`
		} `json:"result"`
	}
	if err := p.Call(ctx, "Runtime.getProperties", map[string]any{"objectId": ev.Result.ObjectID, "ownProperties": true}, &props); err != nil {
		return nil, err
	}
	var objs []string
	for _, r := range props.Result {
		if r.Value.ObjectID != "" && r.Name != "length" && r.Name != "__proto__" {
			objs = append(objs, r.Value.ObjectID)
		}
	}
	out := make([]int64, len(objs))
	var wg sync.WaitGroup
	var mu sync.Mutex
	var firstErr error
	for i, obj := range objs {
		wg.Go(func() {
			var d struct {
				Node struct {
					BackendNodeID int64 `json:"backendNodeId"`
				} `json:"node"`
			}
			if err := p.Call(ctx, "DOM.describeNode", map[string]any{"objectId": obj}, &d); err != nil {
				if nodeErr(err) != nil {
					mu.Lock()
					firstErr = err
					mu.Unlock()
				}
				return
			}
			out[i] = d.Node.BackendNodeID
		})
	}
	wg.Wait()
	return out, firstErr
}

// registerRoots gives the guard the model's shadow roots it does not
// have yet. A closed one is out of the page scripts' reach. It reports
// whether every one is registered. m.mu is not held.
func (m *Model) registerRoots(ctx context.Context, p dom.Session) (bool, error) {
	m.regMu.Lock()
	defer m.regMu.Unlock()
	return m.registerLocked(ctx, p)
}

// registerLocked is registerRoots with m.regMu held.
func (m *Model) registerLocked(ctx context.Context, p dom.Session) (bool, error) {
	if !m.regSynced {
		var ev struct {
			Result struct {
				Value []int64 `json:"value"`
			} `json:"result"`
		}
		if err := p.Call(ctx, "Runtime.evaluate", map[string]any{"expression": registeredJS, "returnByValue": true}, &ev); err != nil {
			return false, err
		}
		m.mu.Lock()
		for _, id := range ev.Result.Value {
			m.registered[id] = true
		}
		m.regSynced = true
		m.mu.Unlock()
	}
	m.mu.Lock()
	var todo []int64
	var backs []int64
	var keys [][]string
	m.ti.Root.Each(func(x *cdpjson.Node) {
		for _, s := range x.ShadowRoots {
			if s.ShadowRootType != "user-agent" && !m.registered[s.BackendNodeID] {
				todo = append(todo, s.NodeID)
				backs = append(backs, s.BackendNodeID)
				keys = append(keys, m.controlKeys(s))
			}
		}
	})
	m.mu.Unlock()
	if len(todo) == 0 {
		return true, nil
	}
	const group = "domscope-guard"
	objs := make([]string, len(todo))
	var wg sync.WaitGroup
	work := make(chan int)
	for range 8 {
		wg.Go(func() {
			for i := range work {
				var r struct {
					Object struct {
						ObjectID string `json:"objectId"`
					} `json:"object"`
				}
				if p.Call(ctx, "DOM.resolveNode", map[string]any{"nodeId": todo[i], "objectGroup": group}, &r) == nil {
					objs[i] = r.Object.ObjectID
				}
			}
		})
	}
	for i := range todo {
		work <- i
	}
	close(work)
	wg.Wait()
	args := []any{map[string]any{"value": keys}, map[string]any{"value": backs}}
	for _, o := range objs {
		if o == "" {
			return false, nil // gone meanwhile: try again next time
		}
		args = append(args, map[string]any{"objectId": o})
	}
	var ev struct {
		Result struct {
			Value bool `json:"value"`
		} `json:"result"`
	}
	err := p.Call(ctx, "Runtime.callFunctionOn", map[string]any{"objectId": objs[0], "functionDeclaration": registerJS, "arguments": args, "returnByValue": true}, &ev)
	_ = p.Call(ctx, "Runtime.releaseObjectGroup", map[string]any{"objectGroup": group}, nil)
	if err != nil || !ev.Result.Value {
		return false, err
	}
	m.mu.Lock()
	for _, b := range backs {
		m.registered[b] = true
	}
	m.mu.Unlock()
	return true, nil
}

// controlKeys lists the states of the form controls under a shadow root
// as the model holds them, keyed as guardJS keys them. The order is the
// one root.querySelectorAll gives: tree order, not into nested shadow
// roots. m.mu is held.
func (m *Model) controlKeys(root *cdpjson.Node) []string {
	out := []string{}
	stack := []*cdpjson.Node{root}
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if x != root && x.NodeType == dom.ElementNode {
			id := x.BackendNodeID
			switch strings.ToUpper(x.NodeName) {
			case "INPUT":
				out = append(out, m.ti.Values[id]+"\x00"+strconv.FormatBool(m.ti.Checked[id]))
			case "TEXTAREA":
				out = append(out, m.ti.Values[id]+"\x00false")
			case "OPTION":
				out = append(out, "\x00"+strconv.FormatBool(m.ti.Selected[id]))
			}
		}
		for i := len(x.Children) - 1; i >= 0; i-- {
			stack = append(stack, x.Children[i])
		}
	}
	return out
}

// guardedRaws are the captures the page guard ran just before (see
// CaptureGuarded); NewModel takes its mark from here.
var guardedRaws sync.Map

// CaptureGuarded runs the page guard (when guard: a live model will be
// made), then a full capture (full: capture.Capture but in tests).
// So the model made from that capture may read its first refresh's
// layout in parts.
func CaptureGuarded(ctx context.Context, p dom.Page, full func(context.Context, dom.Page) (*dom.RawCapture, error), guard bool) (*dom.RawCapture, error) {
	if !guard {
		return full(ctx, p)
	}
	group := capture.ObjectGroup("domscope-guard")
	g, err := readGuard(ctx, p, group)
	raw, cerr := full(ctx, p)
	if len(g.controls) > 0 {
		_ = p.Call(ctx, "Runtime.releaseObjectGroup", map[string]any{"objectGroup": group}, nil)
	}
	if cerr == nil && err == nil && g.why != "the page guard failed" {
		guardedRaws.Store(raw, p)
	}
	return raw, cerr
}

// registerAhead gives the guard the model's shadow roots in the
// background, while the snapshot is built and the user acts. A page of
// 50,000 elements has a thousand, one round trip each. The first
// refresh waits for it (regMu).
func (m *Model) registerAhead(p dom.Session) {
	m.regMu.Lock()
	go func() {
		defer m.regMu.Unlock()
		ctx, cancel := context.WithTimeout(context.Background(), registerTimeout)
		defer cancel()
		_, _ = m.registerLocked(ctx, p)
	}()
}

// registerTimeout bounds registerAhead.
const registerTimeout = 30 * time.Second
