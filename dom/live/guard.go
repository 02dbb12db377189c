package live

import (
	"context"
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
const guardJS = `(() => {
  const K = Symbol.for("domscope.guard");
  const G = window[K] || (window[K] = {roots: new Set(), seen: new WeakMap(), done: new WeakSet(), last: null,
    on: new WeakSet(), scrolls: 0, loads: 0, rules: new Map(), hover: [], focus: [], active: [], changed: [],
    mo: null, dirty: true, docs: [], focused: null, href: "", blind: true});
  ` + findDocsJS + `
  const docs = findDocs(G, (d) => {
    if (!d.defaultView || G.on.has(d)) return;
    G.on.add(d);
    // the page's own scroll moves no box but fixed and sticky ones
    d.addEventListener("scroll", (e) => { if (e.target !== d) G.scrolls++; }, {capture: true, passive: true});
    d.addEventListener("load", () => G.loads++, {capture: true, passive: true});
    d.addEventListener("error", () => G.loads++, {capture: true, passive: true});
    if (d.fonts) d.fonts.addEventListener("loadingdone", () => G.loads++);
  });
  const scopes = docs.slice();
  for (const r of G.roots) if (r.isConnected) scopes.push(r);
  let why = "";
  ` + guardSigJS + `
  const {key, scroll} = sigOf(docs, scopes);
  // What dynamic states the style sheets style in a way that moves boxes.
  const harmless = /^(color|background|border-(top|right|bottom|left|block|inline)?-?(start|end)?-?color|outline|text-decoration|text-emphasis-color|text-underline|box-shadow|text-shadow|fill|stroke|caret-color|accent-color|transition|column-rule-color|scrollbar|-webkit-tap-highlight-color|-webkit-text-fill-color|-webkit-text-stroke-color|z-index|mask|clip-path|border-image)/;
  const states = {hover: /:hover/, focus: /:focus/, active: /:active/, form: /:(checked|indeterminate|valid|invalid|user-valid|user-invalid|placeholder-shown|autofill|default|in-range|out-of-range|blank)/, far: /:(has|target)\b/, always: /:(defined|state|popover-open|modal|open|closed|fullscreen|playing|paused|picture-in-picture|volume-locked|muted|seeking|stalled|buffering)\b/};
  const unsafe = {hover: false, focus: false, active: false, form: false, far: false, always: false, fixed: false};
  const scan = (rules) => {
    for (const r of rules) {
      if (r.cssRules && r.cssRules.length) scan(r.cssRules);
      if (!r.style) continue;
      if (/fixed|sticky/.test(r.style.position)) unsafe.fixed = true;
      if (!r.selectorText) continue;
      const s = r.selectorText;
      const hit = Object.keys(states).filter((k) => states[k].test(s));
      if (!hit.length) continue;
      let moves = false;
      for (let i = 0; i < r.style.length && !moves; i++) moves = !harmless.test(r.style[i]);
      if (moves) for (const k of hit) unsafe[k] = true;
    }
  };
  let blind = false; // a readable sheet styles a state no read follows
  let unreadable = false;
  for (const sc of scopes) {
    for (const sh of [...(sc.styleSheets || []), ...(sc.adoptedStyleSheets || [])]) {
      let rules = null;
      try { rules = sh.cssRules; } catch (e) {}
      if (!rules) {
        // A sheet whose load failed applies nothing (HTML's "ok status"):
        // same origin, an error status or no response at all.
        const t = sh.href && new URL(sh.href).origin === location.origin ? performance.getEntriesByName(sh.href).pop() : null;
        if (t && (t.responseStatus >= 400 || t.responseStatus === 0 && t.encodedBodySize === 0)) continue;
        // (Unknown states are tracked as if styled: hover, focus, form.
        // Those no read follows make the page blind, below.)
        for (const k in unsafe) unsafe[k] = true;
        unreadable = true;
        continue;
      }
      let u = G.rules.get(sh);
      if (!u || u.n !== rules.length) {
        const before = Object.assign({}, unsafe);
        for (const k in unsafe) unsafe[k] = false;
        scan(rules);
        u = {n: rules.length, u: Object.assign({}, unsafe)};
        Object.assign(unsafe, before);
        G.rules.set(sh, u);
      }
      for (const k in unsafe) unsafe[k] = unsafe[k] || u.u[k];
      blind = blind || u.u.always;
    }
  }
  if (docs.opaque) why = "a frame the page cannot read";
  if (G.last && G.last.scroll !== scroll) {
    for (const sc of scopes) unsafe.fixed = unsafe.fixed || !!sc.querySelector('[style*="fixed" i],[style*="sticky" i]');
    if (unsafe.fixed) why = why || "the page scrolled and has fixed or sticky boxes";
  }
  if (!G.last) why = why || "first read";
  else if (G.last.key !== key) why = why || "the page resized or changed its style sheets";
  else if (G.last.scrolls !== G.scrolls) why = why || "an element scrolled";
  else if (G.last.loads !== G.loads) why = why || "a resource or font loaded";
  for (const d of docs) {
    for (const a of d.getAnimations ? d.getAnimations() : []) {
      if (a.playState !== "finished" || !G.done.has(a)) why = why || "an animation ran";
      if (a.playState === "finished") G.done.add(a);
    }
  }
  // hover, focus, active: the chains now, against the last read's
  const chain = (sel) => { const out = []; for (const sc of scopes) for (const e of sc.querySelectorAll(sel)) out.push(e); return out; };
  const same = (a, b) => a.length === b.length && a.every((x, i) => x === b[i]);
  for (const [k, sel] of [["hover", ":hover"], ["focus", ":focus-within"], ["active", ":active"]]) {
    if (!unsafe[k]) { G[k] = null; continue; } // (no sheet styles it: not kept)
    const now = chain(sel);
    if (!G[k] || !same(now, G[k])) why = why || "the page styles a " + k + " state that changed";
    G[k] = now;
  }
  // :has and :target restyle far from what changed, but only when a
  // node, a tracked state or the fragment changes: a still read sees it.
  if (unsafe.far || unsafe.always) why = why || "the page's styles depend on states the guard cannot follow";
  const vals = [];
  G.changed = [];
  for (const sc of scopes) {
    for (const e of sc.querySelectorAll("input,textarea,option")) {
      const kind = e.localName === "input" ? 0 : e.localName === "textarea" ? 1 : 2;
      const v = kind === 2 ? [kind, "", e.selected] : [kind, e.value, kind === 0 && e.checked];
      const k = ` + controlKeyJS + `;
      if (G.seen.get(e) === k) continue;
      G.seen.set(e, k);
      G.changed.push(e);
      vals.push(v);
    }
  }
  if (vals.length && unsafe.form) why = why || "the page styles a form state that changed";
  G.last = {key, scroll, scrolls: G.scrolls, loads: G.loads};
  // From now on any change to the nodes marks the page dirty (stillJS).
  // The observer lets go at the first, so a busy page pays for one.
  // A page may have broken MutationObserver: then it is never still.
  try {
    if (!G.mo) G.mo = new MutationObserver((rs, obs) => { G.dirty = true; obs.disconnect(); });
    G.mo.takeRecords();
    G.mo.disconnect();
    for (const sc of scopes) G.mo.observe(sc, {subtree: true, childList: true, attributes: true, characterData: true});
    G.dirty = false;
  } catch (e) {
    try { if (G.mo) G.mo.disconnect(); } catch (e2) {}
    G.mo = null;
  }
  G.docs = docs.slice();
  G.href = location.href;
  G.focused = ` + deepFocusJS + `;
  // An unreadable sheet may style a media element's states, which no
  // read follows all of. (A custom element's :state() it may style too:
  // a known gap, see design.md. Blind on every page with one and a CDN
  // sheet would leave few pages still.)
  const media = () => scopes.some((sc) => sc.querySelector("video,audio"));
  G.blind = blind || (unreadable && media()); // (frames it cannot read: stillJS)
  G.popovers = openPopovers(scopes);
  G.states = otherStates(docs, scopes);
  if (vals.length > 64) { G.changed = []; return {why: why || "many form controls changed", vals: []}; }
  // (with a why too: the refresh reads their AX facts again)
  return {why, vals};
})()`

// findDocsJS defines findDocs(G, seen): the page's documents, its own
// and those of the frames it can read, in documents and in the guard's
// shadow roots, each passed to seen once. The result's opaque counts
// the frames it cannot read.
const findDocsJS = `const findDocs = (G, seen) => {
    const docs = [];
    docs.opaque = 0;
    const frames = (sc) => {
      for (const f of sc.querySelectorAll("iframe,frame")) {
        let cd = null;
        try { cd = f.contentDocument; } catch (e) {}
        if (cd) add(cd); else docs.opaque++;
      }
    };
    const add = (d) => {
      if (!d || docs.includes(d)) return;
      docs.push(d);
      seen(d);
      frames(d);
    };
    add(document);
    for (const r of G.roots) if (r.isConnected) frames(r);
    return docs;
  };`

// guardSigJS defines sigOf(docs, scopes), what the guard compares from
// one read to the next: {key, scroll}. key holds the documents' sizes,
// font status and fragment, and the style sheets of every scope. It
// also defines openPopovers(scopes) and otherStates(docs, scopes).
const guardSigJS = `const sigOf = (docs, scopes) => {
    const sig = [], scroll = [];
    for (const d of docs) {
      const w = d.defaultView;
      if (!w) continue;
      const e = d.documentElement;
      sig.push(w.innerWidth, w.innerHeight, e ? e.scrollWidth : 0, e ? e.scrollHeight : 0, d.fonts ? d.fonts.status : "", w.location.hash);
      scroll.push(w.scrollX, w.scrollY);
    }
    for (const sc of scopes) {
      const sheets = [...(sc.styleSheets || []), ...(sc.adoptedStyleSheets || [])];
      if (sc.nodeType !== 9 && !sheets.length) continue; // a shadow root without sheets
      sig.push(sheets.length);
      for (const sh of sheets) {
        let rules = null;
        try { rules = sh.cssRules; } catch (e) {}
        sig.push(sh.disabled ? 1 : 0, sh.media ? sh.media.mediaText : "", rules ? rules.length : -1);
      }
    }
    return {key: JSON.stringify(sig), scroll: JSON.stringify(scroll)};
  };
  // A popover opens and closes with no DOM change.
  const openPopovers = (scopes) => {
    const out = [];
    try { for (const sc of scopes) for (const e of sc.querySelectorAll(":popover-open")) out.push(e); } catch (e) {}
    return out;
  };
  // Other states a style sheet the page cannot read may style: custom
  // elements defined, full screen, media playing.
  const otherStates = (docs, scopes) => {
    const k = [];
    for (const d of docs) k.push(d.fullscreenElement ? 1 : 0);
    for (const sc of scopes) {
      k.push(sc.querySelectorAll(":not(:defined)").length);
      for (const m of sc.querySelectorAll("video,audio")) k.push(m.paused ? 0 : 1, m.ended ? 1 : 0);
    }
    return k.join(",");
  };`

// controlKeyJS is the state of form control e as the guard keys it. A
// box made indeterminate, or a field made invalid, changes it too; the
// model's keys (controlKeys) hold neither, so such a control registered
// with a shadow root counts as changed once.
const controlKeyJS = `(e.localName === "option" ? "\u0000" + e.selected : e.value + "\u0000" + (e.localName === "input" && e.checked) + (e.indeterminate ? "\u0000m" : "") + (e.validity && !e.validity.valid ? "\u0000i" : ""))`

// deepFocusJS is the focused element, through open shadow roots and
// same-origin frames.
const deepFocusJS = `(() => {
    let a = document.activeElement;
    for (;;) {
      if (a && a.shadowRoot && a.shadowRoot.activeElement) { a = a.shadowRoot.activeElement; continue; }
      let d = null;
      try { d = a && a.contentDocument; } catch (e) {}
      if (d && d.activeElement) { a = d.activeElement; continue; }
      return a;
    }
  })()`

// guardChangedJS is the guard's list of changed controls.
const guardChangedJS = `window[Symbol.for("domscope.guard")].changed`

// registeredJS lists the backend ids of the shadow roots the guard has
// (an earlier model of the document gave them).
const registeredJS = `(() => { const G = window[Symbol.for("domscope.guard")]; return G && G.ids ? [...G.ids] : []; })()`

// registerJS adds shadow roots (its arguments after keys and their
// backend ids) to the guard's. Each control's state is seen as the model
// holds it: keys[i] for roots[i]. The next guard reports what differs.
// It returns false if a root's controls are not the ones the model
// lists.
const registerJS = `function(keys, ids, ...roots) {
  const G = window[Symbol.for("domscope.guard")];
  if (!G) return false;
  G.ids = G.ids || new Set();
  let ok = true;
  roots.forEach((r, i) => {
    if (!r || G.roots.has(r)) return;
    G.roots.add(r);
    G.ids.add(ids[i]);
    G.dirty = true; // not watched since the guard last ran
    const els = r.querySelectorAll("input,textarea,option");
    if (els.length !== keys[i].length) { ok = false; return; }
    els.forEach((e, k) => G.seen.set(e, keys[i][k]));
  });
  return ok;
}`

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
