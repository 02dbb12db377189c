package live

import (
	"context"
	"math"

	"domscope/dom"
)

// scroll scrolls the page (no node) or the node. With no delta it brings
// the node into view, or pages the window down by most of a viewport.
// With a delta it turns the mouse wheel over the node (or the viewport's
// centre). So the nearest scrollable container under it scrolls, as for
// a person. Positions are read back to say whether anything moved.
func (s *Service) scroll(ctx context.Context, page dom.Page, t *target, dx, dy float64) error {
	if math.IsNaN(dx) || math.IsNaN(dy) || math.IsInf(dx, 0) || math.IsInf(dy, 0) {
		return dom.Errorf(dom.ValidationError, nil, "scroll deltas must be finite numbers")
	}
	vw, vh, err := s.viewport(ctx, page)
	if err != nil {
		return err
	}
	x, y := vw/2, vh/2
	if t != nil {
		if dx == 0 && dy == 0 {
			for _, h := range t.hosts {
				_ = s.call(ctx, h.sess, "DOM.scrollIntoViewIfNeeded", map[string]any{"backendNodeId": h.node.BackendID}, nil)
			}
			return withNode(s.call(ctx, t.sess, "DOM.scrollIntoViewIfNeeded", map[string]any{"backendNodeId": t.node.BackendID}, nil), t.node)
		}
		px, py, err := s.point(ctx, page, t, false)
		if err != nil {
			return err
		}
		x, y = px, py
	} else if dx == 0 && dy == 0 {
		dy = math.Round(vh * 0.8)
	}
	_, err = s.dispatch(ctx, page, "Input.dispatchMouseEvent", map[string]any{
		"type": "mouseWheel", "x": x, "y": y, "deltaX": dx, "deltaY": dy,
	})
	return err
}
