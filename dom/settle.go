package dom

import (
	"context"
	"time"
)

// mark is the tracker's counters at one moment, to compare against later.
type mark struct {
	tracker
	at time.Time
}

func (s *Service) mark() mark {
	s.mu.Lock()
	defer s.mu.Unlock()
	return mark{tracker: s.track, at: time.Now()}
}

// settle waits until the page is done reacting to an action: a navigation
// that started is waited for until the main frame stops loading (bounded by
// NavigationTimeout); then the DOM must stay quiet for QuietWindow (bounded
// by SettleTimeout). A dialog, a lost page or ctx ends the wait at once.
func (s *Service) settle(ctx context.Context, m mark) {
	quietBound := time.Now().Add(s.cfg.SettleTimeout)
	var navBound time.Time
	probes := 0
	for {
		s.mu.Lock()
		t := s.track
		dialog := s.dialog != nil
		connected := s.state == Connected
		pctx := s.pageCtx
		s.mu.Unlock()
		if dialog || !connected {
			return
		}
		now := time.Now()
		wait := time.Duration(0)
		if t.navStarted > m.navStarted && t.stopped <= stoppedAfterStart(m, t) {
			// A navigation is under way: wait for it to finish loading.
			if navBound.IsZero() {
				navBound = now.Add(s.cfg.NavigationTimeout)
				quietBound = navBound.Add(s.cfg.SettleTimeout)
			}
			if now.After(navBound) {
				return
			}
			wait = navBound.Sub(now)
		} else {
			last := m.at
			if t.lastChange.After(last) {
				last = t.lastChange
			}
			quietFor := now.Sub(last)
			if now.After(quietBound) {
				return
			}
			if quietFor >= s.cfg.QuietWindow {
				// Quiet by the clock; but on a busy machine the page's own
				// timers (a render debounced with setTimeout 0) may not have
				// run yet. Give its event loop a turn, then look again.
				if probes >= 3 || !s.pageIdle(ctx, t.mutations) {
					return
				}
				probes++
				continue
			}
			wait = s.cfg.QuietWindow - quietFor
		}
		timer := time.NewTimer(wait)
		select {
		case <-t.changed:
		case <-timer.C:
		case <-ctx.Done():
			timer.Stop()
			return
		case <-pctx.Done():
			timer.Stop()
			return
		}
		timer.Stop()
	}
}

// stoppedAfterStart is the stop count that means "still loading": a stop
// seen before the navigation's start does not count. Start and stop come
// in pairs for the main frame, so loading is done once stops catch up.
func stoppedAfterStart(m mark, t tracker) int64 {
	return m.stopped + (t.navStarted - m.navStarted) - 1
}

// changesSince reports navigation and DOM activity since m.
func (s *Service) changesSince(m mark) Changes {
	s.mu.Lock()
	defer s.mu.Unlock()
	t := s.track
	c := Changes{
		Navigated:  t.navigated > m.navigated || t.url != m.url,
		DomChanged: t.mutations > m.mutations || t.navigated > m.navigated,
	}
	if c.Navigated {
		c.NewURL = t.url
	}
	return c
}

// waitLoaded waits (bounded by NavigationTimeout) while the main frame is
// loading a new document, so a snapshot does not catch a half-parsed page.
func (s *Service) waitLoaded(ctx context.Context) {
	bound := time.NewTimer(s.cfg.NavigationTimeout)
	defer bound.Stop()
	for {
		s.mu.Lock()
		t := s.track
		busy := t.navStarted > t.stopped && s.dialog == nil && s.state == Connected
		pctx := s.pageCtx
		s.mu.Unlock()
		if !busy {
			return
		}
		select {
		case <-t.changed:
		case <-bound.C:
			// Never wait on the same lost stop event twice.
			s.mu.Lock()
			s.track.stopped = s.track.navStarted
			s.mu.Unlock()
			return
		case <-ctx.Done():
			return
		case <-pctx.Done():
			return
		}
	}
}

// idleProbe resolves after the page's next frame and a macrotask after it
// (or 50 ms when frames do not run, as in a background tab): by then
// timers queued by an action's handlers have had their turn.
const idleProbe = `new Promise((r) => {
  const done = () => setTimeout(r, 0);
  requestAnimationFrame(done);
  setTimeout(done, 50);
})`

// pageIdle gives the page's event loop a turn and reports whether the DOM
// changed meanwhile (so settling must go on).
func (s *Service) pageIdle(ctx context.Context, mutationsBefore int64) bool {
	page, _, err := s.session()
	if err != nil {
		return false
	}
	if s.call(ctx, page, "Runtime.evaluate", map[string]any{"expression": idleProbe, "awaitPromise": true, "returnByValue": true}, nil) != nil {
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.track.mutations != mutationsBefore
}
