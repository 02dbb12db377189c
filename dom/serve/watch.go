package serve

import (
	"context"
	"time"

	"domscope/dom"
)

// MaxWatched bounds the tabs --watch models unasked: each holds a live
// model (tens of MB on a large page).
const MaxWatched = 16

// watchSoon runs watchTabs beside the server's loop, one at a time.
func (s *Server) watchSoon(ctx context.Context) {
	if !s.watching.CompareAndSwap(false, true) {
		return
	}
	go func() {
		defer s.watching.Store(false)
		s.watchTabs(ctx)
	}()
}

// watchTabs claims each tab of the browser that is not served yet and
// models it ahead, so that its first request reads a model at rest. One
// tab at a time: a browser of many tabs is not attached all at once. A
// tab that would not attach is not tried again.
func (s *Server) watchTabs(ctx context.Context) {
	cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	tabs, err := s.browser.Targets(cctx)
	if err != nil {
		return // the next tick tries again; browserGone sees a lost browser
	}
	s.forgetUnwatchable(tabs)
	for _, info := range tabs {
		// served lets go of a tab whose page crashed: it is claimed afresh.
		if ctx.Err() != nil || s.served(info.ID) != nil {
			continue
		}
		s.mu.Lock()
		skip := s.unwatchable[info.ID]
		s.mu.Unlock()
		if skip || s.pool.Len() >= MaxWatched {
			continue
		}
		e, err := s.pool.Claim(info, nil)
		if err != nil {
			return // the server is stopping
		}
		if err := e.Wait(ctx); err != nil {
			if ctx.Err() != nil {
				return
			}
			s.mu.Lock()
			s.unwatchable[info.ID] = true
			s.mu.Unlock()
			continue
		}
		t := e.Service()
		s.mu.Lock()
		t.watched = true
		s.mu.Unlock()
		s.captureAhead(t)
	}
}

// forgetUnwatchable keeps the tabs not to try again to those still open.
func (s *Server) forgetUnwatchable(open []dom.TargetInfo) {
	ids := make(map[string]bool, len(open))
	for _, info := range open {
		ids[info.ID] = true
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for id := range s.unwatchable {
		if !ids[id] {
			delete(s.unwatchable, id)
		}
	}
}
