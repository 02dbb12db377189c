package live

import (
	"context"
	_ "embed" // page scripts
	"fmt"
	"math"

	"domscope/dom"
)

// point returns where to click the node, in CSS pixels of the top-level
// viewport. With hitTest it fails OCCLUDED when another element is on top.
func (s *Service) point(ctx context.Context, page dom.Page, t *target, hitTest bool) (float64, float64, error) {
	return s.pointOnce(ctx, page, t, hitTest, false)
}

func (s *Service) pointOnce(ctx context.Context, page dom.Page, t *target, hitTest, retried bool) (float64, float64, error) {
	// Bring each out-of-process frame into view in its parent, then the node.
	for _, h := range t.hosts {
		_ = s.call(ctx, h.sess, "DOM.scrollIntoViewIfNeeded", map[string]any{"backendNodeId": h.node.BackendID}, nil)
	}
	if err := s.call(ctx, t.sess, "DOM.scrollIntoViewIfNeeded", map[string]any{"backendNodeId": t.node.BackendID}, nil); err != nil {
		if dom.CodeOf(err) != dom.NotInteractable {
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
		return 0, 0, dom.Errorf(dom.NotInteractable, nil, "%s has no visible area in the viewport (zero size, clipped or off-screen even after scrolling)", describeNode(t.node))
	}
	x, y := best.x+best.w/2, best.y+best.h/2
	if hitTest {
		if err := s.hitTest(ctx, page, t, x, y, ox, oy, pm); err != nil {
			if dom.CodeOf(err) != dom.Occluded || retried {
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
//
//go:embed point_centre.js
var centreInView string

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
func (s *Service) quads(ctx context.Context, sess dom.Session, backend int64) ([]quad, error) {
	var cq struct {
		Quads [][]float64 `json:"quads"`
	}
	err := s.call(ctx, sess, "DOM.getContentQuads", map[string]any{"backendNodeId": backend}, &cq)
	if err != nil && dom.CodeOf(err) != dom.NotInteractable {
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
		if dom.CodeOf(err) == dom.NotInteractable || dom.CodeOf(err) == dom.CDPError {
			return nil, dom.Errorf(dom.NotInteractable, err, "the node has no box on screen (hidden, display:none or zero size)")
		}
		return nil, err
	}
	if len(bm.Model.Border) != 8 {
		return nil, dom.Errorf(dom.NotInteractable, nil, "the node has no box on screen (hidden, display:none or zero size)")
	}
	return []quad{quad(bm.Model.Border)}, nil
}

// hitTest checks that the element at (x, y) is the target, inside it
// (shadow-including), or a label of it. For a node in an out-of-process
// frame, the page must hit the frame's <iframe>. Then the frame's own
// session must hit the node at frame coordinates.
func (s *Service) hitTest(ctx context.Context, page dom.Page, t *target, x, y, ox, oy float64, pm metrics) error {
	sess, hx, hy, m := dom.Session(page), x, y, &pm
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
	if anchor.NodeType == dom.TextNode && anchor.Parent != nil {
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
func (s *Service) nodeAt(ctx context.Context, sess dom.Session, x, y float64, known *metrics) (int64, error) {
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
	// them (ignorePointerEventsNone stays false). User-agent shadow DOM is
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
// element at the click point. Is the hit inside the target, or a label
// of it? Inside crosses shadow roots and same-origin frames. It also
// names the hit.
//
//go:embed point_occlude.js
var occludeCheck string

// occluded decides, in the page, whether hit belongs to the target after
// all (labels, nodes newer than the snapshot). If not it fails OCCLUDED.
func (s *Service) occluded(ctx context.Context, page dom.Page, t *target, sess dom.Session, hit int64, want *target) error {
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
	return dom.Errorf(dom.Occluded, nil, "%s (%s) is covered by %s, which would receive the click: close or scroll it away, or use force", t.node.ID, describeNode(t.node), desc)
}
