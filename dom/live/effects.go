package live

import (
	"context"
	"sync"
	"time"

	"domscope/dom"
)

// effects shows the service's visual feedback in the browser through the
// Overlay domain. It draws over the page without adding DOM nodes. So
// nothing of it can appear in a snapshot or trigger a mutation. All of it
// is fire-and-forget: failures are ignored and nothing waits for it.
type effects struct {
	s     *Service
	mu    sync.Mutex
	timer *time.Timer
	stop  bool
}

// rippleTime is how long the click marker stays on screen.
const rippleTime = 350 * time.Millisecond

func newEffects(s *Service) *effects { return &effects{s: s} }

// highlightConfig is the look of a highlighted node (DevTools-like blue).
var highlightConfig = map[string]any{
	"showInfo":     true,
	"contentColor": map[string]any{"r": 111, "g": 168, "b": 220, "a": 0.55},
	"paddingColor": map[string]any{"r": 147, "g": 196, "b": 125, "a": 0.45},
	"borderColor":  map[string]any{"r": 255, "g": 229, "b": 153, "a": 0.8},
	"marginColor":  map[string]any{"r": 246, "g": 178, "b": 107, "a": 0.45},
}

// ripple marks a click point for a moment, then restores the node
// highlight (if any) or clears the overlay.
func (e *effects) ripple(x, y float64) {
	if !e.s.cfg.VisualEffects {
		return
	}
	page, _, err := e.s.session()
	if err != nil {
		return
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.stop {
		return
	}
	if e.timer != nil {
		e.timer.Stop()
	}
	e.s.wg.Add(1)
	go func() {
		defer e.s.wg.Done()
		ctx, cancel := context.WithTimeout(e.s.ctx, e.s.cfg.CallTimeout)
		defer cancel()
		_ = page.Call(ctx, "Overlay.enable", nil, nil)
		_ = page.Call(ctx, "Overlay.highlightRect", map[string]any{
			"x": int(x) - 12, "y": int(y) - 12, "width": 24, "height": 24,
			"color":        map[string]any{"r": 255, "g": 64, "b": 64, "a": 0.45},
			"outlineColor": map[string]any{"r": 200, "g": 0, "b": 0, "a": 0.9},
		}, nil)
	}()
	e.timer = time.AfterFunc(rippleTime, func() { e.restore(page) })
}

// restore puts the node highlight back after a ripple, or hides the overlay.
func (e *effects) restore(page dom.Page) {
	e.mu.Lock()
	if e.stop {
		e.mu.Unlock()
		return
	}
	e.s.wg.Add(1)
	e.mu.Unlock()
	defer e.s.wg.Done()
	ctx, cancel := context.WithTimeout(e.s.ctx, e.s.cfg.CallTimeout)
	defer cancel()
	e.s.mu.Lock()
	n := e.s.highlight
	e.s.mu.Unlock()
	if n == nil {
		_ = page.Call(ctx, "Overlay.hideHighlight", nil, nil)
		return
	}
	_ = e.s.showHighlight(ctx, page, n)
}

func (e *effects) close() {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.stop = true
	if e.timer != nil {
		e.timer.Stop()
	}
}

// Highlight shows the browser's node overlay on id (from the current or
// last snapshot) or hides it when id is "". It never changes the DOM.
func (s *Service) Highlight(ctx context.Context, id string) error {
	page, _, err := s.session()
	if err != nil {
		return err
	}
	if d := s.Dialog(); d != nil {
		// The renderer is blocked in the dialog; the overlay would wait.
		return dom.DialogBlocks(d, "cannot highlight")
	}
	if id == "" {
		s.mu.Lock()
		s.highlight = nil
		s.mu.Unlock()
		return s.call(ctx, page, "Overlay.hideHighlight", nil, nil)
	}
	s.mu.Lock()
	snap := s.current
	if snap == nil {
		snap = s.last
	}
	s.mu.Unlock()
	if snap == nil {
		return dom.Errorf(dom.ValidationError, nil, "no snapshot yet: take one first")
	}
	n := snap.Node(id)
	if n == nil {
		return dom.Errorf(dom.NodeNotFound, nil, "%s is not in the current snapshot", dom.NormalizeID(id))
	}
	// A detached copy. The node's tree (tens of MB on a large page) must
	// not stay alive after the next snapshot replaces it.
	c := *n
	c.Parent, c.Children = nil, nil
	s.mu.Lock()
	s.highlight = &c
	s.mu.Unlock()
	return s.showHighlight(ctx, page, &c)
}

// showHighlight draws the overlay on n, in the session that owns n.
func (s *Service) showHighlight(ctx context.Context, page dom.Page, n *dom.VirtualNode) error {
	sess := dom.Session(page)
	if !s.ownedByPage(page, n) {
		frames, err := page.Frames(ctx)
		if err != nil {
			return err
		}
		for _, f := range frames {
			if f.TargetID == n.TargetID {
				sess = f.Session
			}
		}
	}
	_ = s.call(ctx, sess, "Overlay.enable", nil, nil)
	return s.call(ctx, sess, "Overlay.highlightNode", map[string]any{"highlightConfig": highlightConfig, "backendNodeId": n.BackendID}, nil)
}
