package live

import (
	"context"

	"domscope/dom"
)

// viewportHandler emulates the window the action names (a.Viewport; nil or
// zero goes back to the browser's own) and keeps it, so a reconnect to the
// page applies it again.
func viewportHandler(s *Service, ctx context.Context, page dom.Page, _ *target, a dom.Action, _ *dom.ActionResult) (*dom.DialogInfo, error) {
	var vp dom.Viewport
	if a.Viewport != nil {
		vp = *a.Viewport
	}
	if err := vp.Check(); err != nil {
		return nil, err
	}
	cctx, cancel := context.WithTimeout(ctx, s.cfg.CallTimeout)
	defer cancel()
	if err := dom.Emulate(cctx, page, vp); err != nil {
		return nil, err
	}
	s.mu.Lock()
	s.vp = vp
	s.mu.Unlock()
	return nil, nil
}

// Viewport is the window the service emulates (zero: the browser's own).
func (s *Service) Viewport() dom.Viewport {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.vp
}

// applyViewport emulates the kept window on a page just attached. A
// failure surfaces on the next action, as for the other domains.
func (s *Service) applyViewport(ctx context.Context, p dom.Page) {
	s.mu.Lock()
	vp := s.vp
	s.mu.Unlock()
	if !vp.IsZero() {
		_ = dom.Emulate(ctx, p, vp)
	}
}
