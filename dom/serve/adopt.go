package serve

import (
	"context"
	"time"

	"domscope/dom"
	"domscope/dom/live"
)

// adopt serves a tab the server opened itself (a session's), whose page
// is attached already.
func (s *Server) adopt(p dom.Page) *servedTab {
	t := &servedTab{id: p.TargetID(), ready: make(chan struct{}), turn: make(chan struct{}, 1)}
	t.last.Store(time.Now().UnixNano())
	t.page, t.svc = p, live.NewService(p, live.Config{FreshDocumentIDs: true})
	if d, ok := p.(interface{ Done() <-chan struct{} }); ok {
		t.done = d.Done()
		go func() {
			select {
			case <-t.done:
				s.drop(t)
			case <-s.ctx.Done():
			}
		}()
	}
	close(t.ready)
	go s.modelAhead(t)
	s.mu.Lock()
	s.tabs[t.id] = t
	s.mu.Unlock()
	return t
}

// wait waits for t's attach; its error if it did not attach.
func (t *servedTab) wait(ctx context.Context) error {
	select {
	case <-t.ready:
	case <-ctx.Done():
		return dom.Errorf(dom.Timeout, ctx.Err(), "the tab did not attach in time: raise --timeout")
	}
	return t.err
}
