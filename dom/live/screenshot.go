package live

import (
	"context"

	"domscope/dom"
)

// Screenshot captures the visible part of the page at its CSS size (the
// UI's picture pane). It does not invalidate the snapshot: it changes
// nothing on the page.
func (s *Service) Screenshot(ctx context.Context) (*dom.Picture, error) {
	page, pctx, err := s.session()
	if err != nil {
		return nil, err
	}
	if d := s.Dialog(); d != nil {
		// the renderer is blocked in the dialog; a capture would wait
		return nil, dom.DialogBlocks(d, "cannot take a screenshot")
	}
	cctx, cancel := s.callCtx(ctx, pctx, s.cfg.CallTimeout)
	defer cancel()
	return dom.Screenshot(cctx, page)
}
