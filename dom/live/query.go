package live

import (
	"context"

	"domscope/dom"
	"domscope/dom/query"
)

// QueryCSS runs a selector on the top-level document and maps the matches
// to nodes of the current snapshot. Matches the snapshot lacks are left out.
func (s *Service) QueryCSS(ctx context.Context, selector string) ([]*dom.VirtualNode, error) {
	page, _, err := s.session()
	if err != nil {
		return nil, err
	}
	snap, err := s.Snapshot(ctx, false)
	if err != nil {
		return nil, err
	}
	s.opMu.Lock()
	defer s.opMu.Unlock()
	call := func(ctx context.Context, method string, params, result any) error {
		return s.call(ctx, page, method, params, result)
	}
	return query.QueryCSS(ctx, call, snap, page.TargetID(), selector)
}
