package live

import (
	"context"

	"domscope/dom"
	"domscope/dom/query"
)

// QueryCSS runs a selector on the top-level document and maps the matches
// to nodes of the current snapshot. Matches the snapshot lacks are left out.
func (s *Service) QueryCSS(ctx context.Context, selector string) ([]*dom.VirtualNode, error) {
	return s.QueryCSSIn(ctx, nil, selector)
}

// QueryCSSIn is QueryCSS mapped to snap, the snapshot the caller shows (nil:
// the current one). The current one may be a newer snapshot, of another
// document even: its nodes are not the ones shown.
func (s *Service) QueryCSSIn(ctx context.Context, snap *dom.Snapshot, selector string) ([]*dom.VirtualNode, error) {
	page, _, err := s.session()
	if err != nil {
		return nil, err
	}
	if snap == nil {
		if snap, err = s.Snapshot(ctx, false); err != nil {
			return nil, err
		}
	}
	s.opMu.Lock()
	defer s.opMu.Unlock()
	call := func(ctx context.Context, method string, params, result any) error {
		return s.call(ctx, page, method, params, result)
	}
	return query.QueryCSS(ctx, call, snap, page.TargetID(), selector)
}

// LookIn reads what a view of snap shows besides the capture: where the
// page and its scroll containers stand and, with covered, the hit tests
// of its controls (query.ReadLook). One call, whatever the page's size.
func (s *Service) LookIn(ctx context.Context, snap *dom.Snapshot, covered bool) (*dom.Look, error) {
	page, _, err := s.session()
	if err != nil {
		return nil, err
	}
	s.opMu.Lock()
	defer s.opMu.Unlock()
	call := func(ctx context.Context, method string, params, result any) error {
		return s.call(ctx, page, method, params, result)
	}
	return query.ReadLook(ctx, call, snap, page.TargetID(), covered)
}

// LoadAll scrolls the page to its end until it stops growing, bounded
// (query.LoadAll), then back.
func (s *Service) LoadAll(ctx context.Context) (query.Loaded, error) {
	page, _, err := s.session()
	if err != nil {
		return query.Loaded{}, err
	}
	s.opMu.Lock()
	defer s.opMu.Unlock()
	call := func(ctx context.Context, method string, params, result any) error {
		return s.call(ctx, page, method, params, result)
	}
	return query.LoadAll(ctx, call, page.TargetID())
}
