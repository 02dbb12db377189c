package main

import (
	"context"
	"time"
)

// maxWatched bounds the tabs --watch models unasked: each holds a live
// model (tens of MB on a large page).
const maxWatched = 16

// watchSoon runs watchTabs beside the server's loop, one at a time.
func (s *snapshotServer) watchSoon(ctx context.Context) {
	if !s.watching.CompareAndSwap(false, true) {
		return
	}
	go func() {
		defer s.watching.Store(false)
		s.watchTabs(ctx)
	}()
}

// watchTabs claims each tab of the browser that is not served yet and
// models it ahead, so that its first request reads a model at rest.
// A tab that would not attach is not tried again.
func (s *snapshotServer) watchTabs(ctx context.Context) {
	cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	tabs, err := s.browser.Targets(cctx)
	if err != nil {
		return // the next tick tries again; browserGone sees a lost browser
	}
	for _, info := range tabs {
		s.mu.Lock()
		skip := s.tabs[info.ID] != nil || s.unwatchable[info.ID] || len(s.tabs) >= maxWatched
		s.mu.Unlock()
		if skip {
			continue
		}
		t := s.claim(info, nil)
		go func() {
			<-t.ready
			if t.err != nil {
				s.mu.Lock()
				s.unwatchable[t.id] = true
				s.mu.Unlock()
				return
			}
			s.captureAhead(t)
		}()
	}
}
