package live

import (
	"time"

	"domscope/dom"
)

// followQuiet is how long the page must stay quiet after DOM changes no
// action of ours caused before the service reports them ("page-changed").
const followQuiet = 150 * time.Millisecond

// followMaxWait is the longest a change waits for the page to go quiet.
// A page that never does (a clock, a feed) is reported this often, the
// event marked Busy.
const followMaxWait = time.Second

// ownTail is how long after an action ends its page's late reactions are
// still taken as the action's own. They are in its result's snapshot.
const ownTail = 100 * time.Millisecond

// follow is the follow-mode state; guarded by Service.mu.
type follow struct {
	acting  int       // actions under way
	opEnd   time.Time // when the last action ended
	pending bool      // foreign changes not reported yet
	paused  bool
	since   time.Time // the first change not reported yet
	last    time.Time // the last change not reported yet
	timer   *time.Timer
	gen     int // bumped by every foreign change: a stale timer does nothing
	// lastForeign is when the page last changed by itself (no action of
	// ours under way). An early read (early.go) is not tried on a page
	// that does so often.
	lastForeign time.Time
	// reported is when the last "page-changed" was sent.
	reported time.Time
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
	if !s.fol.pending {
		s.fol.since = now
	}
	s.fol.pending, s.fol.last = true, now
	s.armFollowLocked()
}

// armFollowLocked (re)starts the timer of the pending report. It fires
// once the page has been quiet for followQuiet, or followMaxWait after
// the first change, whichever is first.
func (s *Service) armFollowLocked() {
	s.fol.gen++
	gen := s.fol.gen
	if s.fol.timer != nil {
		s.fol.timer.Stop()
	}
	if s.fol.since.IsZero() {
		s.fol.since = time.Now() // changes kept while paused
	}
	wait := min(followQuiet, time.Until(s.fol.since.Add(followMaxWait)))
	s.fol.timer = time.AfterFunc(max(wait, 0), func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		if gen != s.fol.gen || s.closed || !s.fol.pending || s.fol.paused || s.fol.acting > 0 {
			return // a newer change, or an action that will show it
		}
		// Busy: the page did not go quiet, or changed again soon after
		// the last report. A loaded machine can delay a ticking page's
		// timers past the quiet window; the page still keeps changing.
		now := time.Now()
		busy := now.Sub(s.fol.last) < followQuiet || now.Sub(s.fol.reported) < 2*followMaxWait
		s.fol.pending, s.fol.since, s.fol.reported = false, time.Time{}, now
		s.events.send(dom.Event{Kind: "page-changed", Busy: busy})
	})
}
