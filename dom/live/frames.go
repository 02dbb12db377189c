package live

import (
	"context"

	"domscope/dom"
)

// frameOffset is where the node's frame viewport sits in the top-level
// viewport. It sums the content-box origins of the out-of-process
// <iframe> elements around it. Same-process frames need none: Chrome
// reports their quads in top-level coordinates already.
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
			return 0, 0, dom.Errorf(dom.NotInteractable, nil, "the frame holding the node (%s) has no box", describeNode(h.node))
		}
		ox += bm.Model.Content[0]
		oy += bm.Model.Content[1]
	}
	return ox, oy, nil
}

// viewport returns the size of the top-level visual viewport in CSS pixels.
func (s *Service) viewport(ctx context.Context, page dom.Page) (float64, float64, error) {
	m, err := s.metrics(ctx, page)
	return m.w, m.h, err
}

type metrics struct{ w, h, scrollX, scrollY float64 }

// metrics returns a target's viewport size and scroll offset (CSS pixels).
func (s *Service) metrics(ctx context.Context, sess dom.Session) (metrics, error) {
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
