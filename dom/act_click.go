package dom

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strings"
)

// click scrolls the node into view, finds the centre of its largest visible
// quad, checks that the node (not something over it) would get the click,
// and dispatches a real mouse click on the top-level page.
func (s *Service) click(ctx context.Context, page Page, t *target, a Action, res *ActionResult) (*DialogInfo, error) {
	if t.node.Tag == "option" && a.Button == "" && a.ClickCount <= 1 && len(a.Modifiers) == 0 {
		// An <option> is chosen, not clicked: a real click on it lands in
		// the browser's own popup, which the page never sees.
		v, ok := t.node.Attrs["value"]
		if !ok {
			v = strings.TrimSpace(textOf(t.node))
		}
		return nil, s.selectOption(ctx, t, v)
	}
	button := strings.ToLower(a.Button)
	if button == "" {
		button = "left"
	}
	buttons := map[string]int{"left": 1, "right": 2, "middle": 4, "back": 8, "forward": 16}[button]
	if buttons == 0 {
		return nil, Errorf(ValidationError, nil, "unknown mouse button %q: use left, right or middle", a.Button)
	}
	count := a.ClickCount
	if count == 0 {
		count = 1
	}
	if count < 0 || count > 3 {
		return nil, Errorf(ValidationError, nil, "clickCount %d: use 1, 2 or 3", count)
	}
	mods, err := modifierBits(a.Modifiers)
	if err != nil {
		return nil, err
	}
	x, y, err := s.point(ctx, page, t, !a.Force)
	if err != nil {
		return nil, err
	}
	s.effect.ripple(x, y)
	if s.cfg.VisualEffects {
		res.VisualEffect = &VisualEffect{Type: "ripple", X: x, Y: y}
	}
	ev := func(typ string, n int) map[string]any {
		m := map[string]any{"type": typ, "x": x, "y": y, "modifiers": mods, "pointerType": "mouse"}
		if typ != "mouseMoved" {
			m["button"] = button
			m["clickCount"] = n
			if typ == "mousePressed" {
				m["buttons"] = buttons
			}
		}
		return m
	}
	if d, err := s.dispatch(ctx, page, "Input.dispatchMouseEvent", ev("mouseMoved", 0)); d != nil || err != nil {
		return d, err
	}
	for i := 1; i <= count; i++ {
		if d, err := s.dispatch(ctx, page, "Input.dispatchMouseEvent", ev("mousePressed", i)); d != nil || err != nil {
			return d, err
		}
		if d, err := s.dispatch(ctx, page, "Input.dispatchMouseEvent", ev("mouseReleased", i)); d != nil || err != nil {
			return d, err
		}
	}
	return nil, nil
}

// hover moves the mouse over the node's centre.
func (s *Service) hover(ctx context.Context, page Page, t *target, a Action) error {
	x, y, err := s.point(ctx, page, t, !a.Force)
	if err != nil {
		return err
	}
	mods, err := modifierBits(a.Modifiers)
	if err != nil {
		return err
	}
	_, err = s.dispatch(ctx, page, "Input.dispatchMouseEvent", map[string]any{"type": "mouseMoved", "x": x, "y": y, "modifiers": mods})
	return err
}

// point returns where to click the node, in CSS pixels of the top-level
// viewport. With hitTest it fails OCCLUDED when another element is on top.
func (s *Service) point(ctx context.Context, page Page, t *target, hitTest bool) (float64, float64, error) {
	return s.pointOnce(ctx, page, t, hitTest, false)
}

func (s *Service) pointOnce(ctx context.Context, page Page, t *target, hitTest, retried bool) (float64, float64, error) {
	// Bring each out-of-process frame into view in its parent, then the node.
	for _, h := range t.hosts {
		_ = s.call(ctx, h.sess, "DOM.scrollIntoViewIfNeeded", map[string]any{"backendNodeId": h.node.BackendID}, nil)
	}
	if err := s.call(ctx, t.sess, "DOM.scrollIntoViewIfNeeded", map[string]any{"backendNodeId": t.node.BackendID}, nil); err != nil {
		if CodeOf(err) != NotInteractable {
			return 0, 0, withNode(err, t.node)
		}
		// No layout object: the quads below say NOT_INTERACTABLE precisely.
	}
	quads, err := s.quads(ctx, t.sess, t.node.BackendID)
	if err != nil {
		return 0, 0, withNode(err, t.node)
	}
	ox, oy, err := s.frameOffset(ctx, t)
	if err != nil {
		return 0, 0, err
	}
	pm, err := s.metrics(ctx, page)
	if err != nil {
		return 0, 0, err
	}
	best, bestArea := rect{}, 0.0
	for _, q := range quads {
		r := q.bounds().shift(ox, oy).clip(rect{0, 0, pm.w, pm.h})
		if a := r.w * r.h; a > bestArea {
			best, bestArea = r, a
		}
	}
	if bestArea < 1 {
		return 0, 0, Errorf(NotInteractable, nil, "%s has no visible area in the viewport (zero size, clipped or off-screen even after scrolling)", describeNode(t.node))
	}
	x, y := best.x+best.w/2, best.y+best.h/2
	if hitTest {
		if err := s.hitTest(ctx, page, t, x, y, ox, oy, pm); err != nil {
			if CodeOf(err) != Occluded || retried {
				return 0, 0, err
			}
			// A sticky header or footer often covers a node scrolled just
			// into view: centre it and look again before giving up.
			if s.callOn(ctx, t.sess, t.node.BackendID, centreInView, nil, nil) != nil {
				return 0, 0, err
			}
			return s.pointOnce(ctx, page, t, hitTest, true)
		}
	}
	return x, y, nil
}

// centreInView scrolls the node to the middle of its scroll containers.
const centreInView = `function() {
  const el = this.nodeType === 1 ? this : this.parentElement;
  if (el) el.scrollIntoView({block: 'center', inline: 'center', behavior: 'instant'});
}`

// withNode adds the node's description to an error message.
func withNode(err error, n *VirtualNode) error {
	var de *Error
	if asError(err, &de) && (de.Code == NodeStale || de.Code == NotInteractable) {
		c := *de
		c.Message = fmt.Sprintf("%s (%s): %s", n.ID, describeNode(n), de.Message)
		return &c
	}
	return err
}

type quad [8]float64

func (q quad) bounds() rect {
	minX, minY := math.Inf(1), math.Inf(1)
	maxX, maxY := math.Inf(-1), math.Inf(-1)
	for i := 0; i < 8; i += 2 {
		minX, maxX = math.Min(minX, q[i]), math.Max(maxX, q[i])
		minY, maxY = math.Min(minY, q[i+1]), math.Max(maxY, q[i+1])
	}
	return rect{minX, minY, maxX - minX, maxY - minY}
}

type rect struct{ x, y, w, h float64 }

func (r rect) shift(dx, dy float64) rect { return rect{r.x + dx, r.y + dy, r.w, r.h} }

func (r rect) clip(v rect) rect {
	x0, y0 := math.Max(r.x, v.x), math.Max(r.y, v.y)
	x1, y1 := math.Min(r.x+r.w, v.x+v.w), math.Min(r.y+r.h, v.y+v.h)
	if x1 <= x0 || y1 <= y0 {
		return rect{}
	}
	return rect{x0, y0, x1 - x0, y1 - y0}
}

// quads returns the node's content quads, falling back to its border box.
func (s *Service) quads(ctx context.Context, sess Session, backend int64) ([]quad, error) {
	var cq struct {
		Quads [][]float64 `json:"quads"`
	}
	err := s.call(ctx, sess, "DOM.getContentQuads", map[string]any{"backendNodeId": backend}, &cq)
	if err != nil && CodeOf(err) != NotInteractable {
		return nil, err
	}
	var out []quad
	for _, q := range cq.Quads {
		if len(q) == 8 {
			out = append(out, quad(q))
		}
	}
	if len(out) > 0 {
		return out, nil
	}
	var bm struct {
		Model struct {
			Border []float64 `json:"border"`
		} `json:"model"`
	}
	if err := s.call(ctx, sess, "DOM.getBoxModel", map[string]any{"backendNodeId": backend}, &bm); err != nil {
		if CodeOf(err) == NotInteractable || CodeOf(err) == CDPError {
			return nil, Errorf(NotInteractable, err, "the node has no box on screen (hidden, display:none or zero size)")
		}
		return nil, err
	}
	if len(bm.Model.Border) != 8 {
		return nil, Errorf(NotInteractable, nil, "the node has no box on screen (hidden, display:none or zero size)")
	}
	return []quad{quad(bm.Model.Border)}, nil
}

// frameOffset is where the node's frame viewport sits in the top-level
// viewport: the sum of the content-box origins of the out-of-process
// <iframe> elements around it (same-process frames need none: Chrome
// reports their quads in top-level coordinates already).
func (s *Service) frameOffset(ctx context.Context, t *target) (float64, float64, error) {
	ox, oy := 0.0, 0.0
	for _, h := range t.hosts {
		var bm struct {
			Model struct {
				Content []float64 `json:"content"`
			} `json:"model"`
		}
		if err := s.call(ctx, h.sess, "DOM.getBoxModel", map[string]any{"backendNodeId": h.node.BackendID}, &bm); err != nil {
			return 0, 0, withNode(err, h.node)
		}
		if len(bm.Model.Content) != 8 {
			return 0, 0, Errorf(NotInteractable, nil, "the frame holding the node (%s) has no box", describeNode(h.node))
		}
		ox += bm.Model.Content[0]
		oy += bm.Model.Content[1]
	}
	return ox, oy, nil
}

// viewport returns the size of the top-level visual viewport in CSS pixels.
func (s *Service) viewport(ctx context.Context, page Page) (float64, float64, error) {
	m, err := s.metrics(ctx, page)
	return m.w, m.h, err
}

type metrics struct{ w, h, scrollX, scrollY float64 }

// metrics returns a target's viewport size and scroll offset (CSS pixels).
func (s *Service) metrics(ctx context.Context, sess Session) (metrics, error) {
	var lm struct {
		Visual struct {
			W     float64 `json:"clientWidth"`
			H     float64 `json:"clientHeight"`
			PageX float64 `json:"pageX"`
			PageY float64 `json:"pageY"`
		} `json:"cssVisualViewport"`
		Layout struct {
			W     float64 `json:"clientWidth"`
			H     float64 `json:"clientHeight"`
			PageX float64 `json:"pageX"`
			PageY float64 `json:"pageY"`
		} `json:"cssLayoutViewport"`
	}
	if err := s.call(ctx, sess, "Page.getLayoutMetrics", nil, &lm); err != nil {
		return metrics{}, err
	}
	if lm.Visual.W > 0 && lm.Visual.H > 0 {
		return metrics{lm.Visual.W, lm.Visual.H, lm.Visual.PageX, lm.Visual.PageY}, nil
	}
	return metrics{lm.Layout.W, lm.Layout.H, lm.Layout.PageX, lm.Layout.PageY}, nil
}

// hitTest checks that the element at (x, y) is the target, inside it
// (shadow-including), or a label of it. For a node in an out-of-process
// frame, the page must hit the frame's <iframe>, then the frame's own
// session must hit the node at frame coordinates.
func (s *Service) hitTest(ctx context.Context, page Page, t *target, x, y, ox, oy float64, pm metrics) error {
	sess, hx, hy, m := Session(page), x, y, &pm
	if len(t.hosts) > 0 {
		outer := t.hosts[0]
		hit, err := s.nodeAt(ctx, page, x, y, m)
		if err != nil {
			return err
		}
		if hit != outer.node.BackendID {
			return s.occluded(ctx, page, t, page, hit, &target{node: outer.node, sess: page, snap: t.snap})
		}
		sess, hx, hy, m = t.sess, x-ox, y-oy, nil
	}
	hit, err := s.nodeAt(ctx, sess, hx, hy, m)
	if err != nil {
		return err
	}
	// A text node is hit through the element that holds it.
	anchor := t.node
	if anchor.NodeType == TextNode && anchor.Parent != nil {
		anchor = anchor.Parent
	}
	if hit == t.node.BackendID || hit == anchor.BackendID {
		return nil
	}
	if n := findBackend(t.snap, t.node.TargetID, hit, page.TargetID()); n != nil && contains(anchor, n) {
		return nil
	}
	return s.occluded(ctx, page, t, sess, hit, t)
}

// nodeAt returns the backend id of the element a click at viewport point
// (x, y) of sess's frame would hit. DOM.getNodeForLocation takes document
// coordinates, so the frame's scroll offset is added.
func (s *Service) nodeAt(ctx context.Context, sess Session, x, y float64, known *metrics) (int64, error) {
	if known == nil {
		m, err := s.metrics(ctx, sess)
		if err != nil {
			return 0, err
		}
		known = &m
	}
	m := *known
	var r struct {
		BackendNodeID int64 `json:"backendNodeId"`
	}
	// pointer-events:none elements are skipped, like a real click skips
	// them (ignorePointerEventsNone stays false); user-agent shadow DOM is
	// included so a hit inside an <input> resolves to the input's subtree.
	err := s.call(ctx, sess, "DOM.getNodeForLocation", map[string]any{
		"x": int64(math.Floor(x + m.scrollX)), "y": int64(math.Floor(y + m.scrollY)),
		"includeUserAgentShadowDOM": true, "ignorePointerEventsNone": false,
	}, &r)
	if err != nil {
		return 0, err
	}
	return r.BackendNodeID, nil
}

// occludeCheck runs in the page with this = the target and hit = the
// element at the click point: is the hit inside the target (crossing shadow
// roots and same-origin frames), or a label of it? It also names the hit.
const occludeCheck = `function(hit) {
  const t = this.nodeType === 3 ? this.parentNode : this;
  const up = (n) => {
    if (n.assignedSlot) return n.assignedSlot;
    if (n.parentNode) return n.parentNode;
    if (n.host) return n.host;
    if (n.defaultView && n.defaultView.frameElement) return n.defaultView.frameElement;
    return null;
  };
  const within = (n, anc) => { for (let p = n; p; p = up(p)) if (p === anc) return true; return false; };
  let inside = within(hit, t);
  if (!inside && t.labels) for (const l of t.labels) if (within(hit, l)) inside = true;
  if (!inside && t.control && within(hit, t.control)) inside = true;
  let el = hit.nodeType === 1 ? hit : (hit.parentElement || hit);
  let d = (el.localName || el.nodeName || '?');
  if (el.id) d += '#' + el.id;
  if (el.classList) d += Array.from(el.classList).slice(0, 3).map(c => '.' + c).join('');
  const name = (el.getAttribute && (el.getAttribute('aria-label') || '')) || (el.innerText || el.textContent || '').trim();
  if (name) d += ' "' + name.replace(/\s+/g, ' ').slice(0, 60) + '"';
  return {inside, desc: d};
}`

// occluded decides, in the page, whether hit belongs to the target after
// all (labels, nodes newer than the snapshot); if not it fails OCCLUDED.
func (s *Service) occluded(ctx context.Context, page Page, t *target, sess Session, hit int64, want *target) error {
	var res struct {
		Inside bool   `json:"inside"`
		Desc   string `json:"desc"`
	}
	err := s.callOn(ctx, want.sess, want.node.BackendID, occludeCheck, []any{hit}, &res)
	if err == nil && res.Inside {
		return nil
	}
	desc := res.Desc
	if n := findBackend(t.snap, want.node.TargetID, hit, page.TargetID()); n != nil {
		desc = n.ID + " " + describeNode(n)
	}
	if desc == "" {
		desc = fmt.Sprintf("backend node %d", hit)
	}
	return Errorf(Occluded, nil, "%s (%s) is covered by %s, which would receive the click: close or scroll it away, or use force", t.node.ID, describeNode(t.node), desc)
}

// callOn runs a function in the page with this = the node (backend id) and
// the given arguments (backend ids of other nodes, or plain JSON values),
// decoding its return value into result.
func (s *Service) callOn(ctx context.Context, sess Session, backend int64, fn string, args []any, result any) error {
	obj, err := s.resolveObject(ctx, sess, backend)
	if err != nil {
		return err
	}
	defer s.release(sess, obj)
	var cargs []map[string]any
	for _, a := range args {
		if id, ok := a.(int64); ok {
			o, err := s.resolveObject(ctx, sess, id)
			if err != nil {
				return err
			}
			defer s.release(sess, o)
			cargs = append(cargs, map[string]any{"objectId": o})
			continue
		}
		cargs = append(cargs, map[string]any{"value": a})
	}
	var r struct {
		Result struct {
			Value json.RawMessage `json:"value"`
		} `json:"result"`
		ExceptionDetails *struct {
			Text      string `json:"text"`
			Exception struct {
				Description string `json:"description"`
			} `json:"exception"`
		} `json:"exceptionDetails"`
	}
	params := map[string]any{"functionDeclaration": fn, "objectId": obj, "returnByValue": true, "awaitPromise": false}
	if len(cargs) > 0 {
		params["arguments"] = cargs
	}
	if err := s.call(ctx, sess, "Runtime.callFunctionOn", params, &r); err != nil {
		return err
	}
	if r.ExceptionDetails != nil {
		msg := r.ExceptionDetails.Exception.Description
		if msg == "" {
			msg = r.ExceptionDetails.Text
		}
		return Errorf(CDPError, nil, "script in the page failed: %s", clip(msg, 200))
	}
	if result != nil && len(r.Result.Value) > 0 {
		if err := json.Unmarshal(r.Result.Value, result); err != nil {
			return Errorf(CDPError, err, "unexpected answer from the page")
		}
	}
	return nil
}

func (s *Service) resolveObject(ctx context.Context, sess Session, backend int64) (string, error) {
	var r struct {
		Object struct {
			ObjectID string `json:"objectId"`
		} `json:"object"`
	}
	if err := s.call(ctx, sess, "DOM.resolveNode", map[string]any{"backendNodeId": backend, "objectGroup": "domscope"}, &r); err != nil {
		return "", err
	}
	if r.Object.ObjectID == "" {
		return "", Errorf(NodeStale, nil, "the node is no longer in the page")
	}
	return r.Object.ObjectID, nil
}

// release frees a remote object in the background: best effort, it must
// not delay the action.
func (s *Service) release(sess Session, obj string) {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return
	}
	s.wg.Add(1)
	s.mu.Unlock()
	go func() {
		defer s.wg.Done()
		ctx, cancel := context.WithTimeout(s.ctx, s.cfg.CallTimeout)
		defer cancel()
		_ = sess.Call(ctx, "Runtime.releaseObject", map[string]any{"objectId": obj}, nil)
	}()
}

// textOf is the text under a node, from the snapshot.
func textOf(n *VirtualNode) string {
	var b strings.Builder
	Walk(n, func(c *VirtualNode) {
		if c.NodeType == TextNode {
			b.WriteString(c.Text)
		}
	})
	return b.String()
}
