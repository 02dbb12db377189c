package live

import (
	"time"

	"domscope/dom"
)

// followQuiet is how long the page must stay quiet after DOM changes no
// action of ours caused before the service reports them ("page-changed").
const followQuiet = 150 * time.Millisecond

// ownTail is how long after an action ends its page's late reactions are
// still taken as the action's own (they are in its result's snapshot).
const ownTail = 100 * time.Millisecond

// follow is the follow-mode state; guarded by Service.mu.
type follow struct {
	acting  int       // actions under way
	opEnd   time.Time // when the last action ended
	pending bool      // foreign changes not reported yet
	paused  bool
	timer   *time.Timer
	gen     int // bumped by every foreign change: a stale timer does nothing
	// lastForeign is when the page last changed by itself (no action of
	// ours under way): an early read (early.go) is not tried on a page
	// that does so often.
	lastForeign time.Time
}

// SetFollow pauses (false) or resumes (true) the "page-changed" events.
// Changes made while paused are reported once following resumes.
func (s *Service) SetFollow(on bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.fol.paused = !on
	if on && s.fol.pending {
		s.armFollowLocked()
	}
}

// Following reports whether follow mode is on (not paused).
func (s *Service) Following() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return !s.fol.paused
}

// beginAction and endAction bracket an action: DOM changes in between,
// and shortly after, are the action's own.
func (s *Service) beginAction() {
	s.mu.Lock()
	s.fol.acting++
	s.mu.Unlock()
}

func (s *Service) endAction() {
	s.mu.Lock()
	s.fol.acting--
	s.fol.opEnd = time.Now()
	s.mu.Unlock()
}

// noteForeignLocked records a DOM change; one that no action of ours
// caused restarts the quiet timer of follow mode.
func (s *Service) noteForeignLocked(now time.Time) {
	if s.fol.acting > 0 || now.Sub(s.fol.opEnd) < ownTail {
		return
	}
	s.fol.lastForeign = now
	s.fol.pending = true
	s.armFollowLocked()
}

func (s *Service) armFollowLocked() {
	s.fol.gen++
	gen := s.fol.gen
	if s.fol.timer != nil {
		s.fol.timer.Stop()
	}
	s.fol.timer = time.AfterFunc(followQuiet, func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		if gen != s.fol.gen || s.closed || !s.fol.pending || s.fol.paused || s.fol.acting > 0 {
			return // a newer change, or an action that will show it
		}
		s.fol.pending = false
		s.events.send(dom.Event{Kind: "page-changed"})
	})
}
