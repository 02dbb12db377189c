package live

import (
	"context"
	"fmt"

	"domscope/dom"
)

// viewportHandler emulates the window the action names (a.Viewport).
// nil or zero goes back to the browser's own. It keeps the window, so a
// reconnect to the page applies it again.
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
	if err := Emulate(cctx, page, vp); err != nil {
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
		_ = Emulate(ctx, p, vp)
	}
}

// Emulate makes the page's window v (the zero Viewport clears every
// override). The overrides belong to this DevTools session: they end when
// it detaches, so a user's own tab gets its window back.
func Emulate(ctx context.Context, s dom.Session, v dom.Viewport) error {
	if err := v.Check(); err != nil {
		return err
	}
	if v.IsZero() {
		for _, c := range []struct {
			method string
			params any
		}{
			{"Emulation.clearDeviceMetricsOverride", nil},
			{"Emulation.setTouchEmulationEnabled", map[string]any{"enabled": false}},
			// An empty user agent removes the override.
			{"Emulation.setUserAgentOverride", map[string]any{"userAgent": ""}},
		} {
			if err := s.Call(ctx, c.method, c.params, nil); err != nil {
				return fmt.Errorf("clearing the viewport emulation: %w", err)
			}
		}
		return nil
	}
	// Width and height 0 keep the window's own size (only the scale changes).
	metrics := map[string]any{
		"width": v.Width, "height": v.Height,
		"deviceScaleFactor": v.Scale,
		"mobile":            v.Mobile,
	}
	if err := s.Call(ctx, "Emulation.setDeviceMetricsOverride", metrics, nil); err != nil {
		return fmt.Errorf("setting the viewport to %s: %w", v, err)
	}
	touch := map[string]any{"enabled": v.Touch}
	if v.Touch {
		touch["maxTouchPoints"] = 5
	}
	if err := s.Call(ctx, "Emulation.setTouchEmulationEnabled", touch, nil); err != nil {
		return fmt.Errorf("setting touch emulation: %w", err)
	}
	if err := s.Call(ctx, "Emulation.setUserAgentOverride", map[string]any{"userAgent": v.UserAgent}, nil); err != nil {
		return fmt.Errorf("setting the user agent: %w", err)
	}
	return nil
}
