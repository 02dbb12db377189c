package live

import (
	"context"

	"domscope/dom"
	"domscope/dom/screenshot"
)

// Screenshot captures the visible part of the page at its CSS size (the
// UI's picture pane). Every sensitive field is painted over: those the
// page has now and those this document's snapshots found. It does not
// invalidate the snapshot: it changes nothing on the page.
func (s *Service) Screenshot(ctx context.Context) (*screenshot.Picture, error) {
	page, pctx, err := s.session()
	if err != nil {
		return nil, err
	}
	if d := s.Dialog(); d != nil {
		// the renderer is blocked in the dialog; a capture would wait
		return nil, dom.DialogBlocks(d, "cannot take a screenshot")
	}
	s.mu.Lock()
	known := s.secrets.Clone()
	s.mu.Unlock()
	// two looks for the fields per picture, a few pictures while fields
	// move: more than one call's time
	cctx, cancel := s.callCtx(ctx, pctx, 6*s.cfg.CallTimeout)
	defer cancel()
	return screenshot.Screenshot(cctx, page, known)
}
