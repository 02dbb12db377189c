package live

import (
	"context"
	_ "embed" // page scripts
	"math"
	"sort"
	"time"

	"domscope/dom"
	"domscope/dom/urls"
)

// mark is the tracker's counters at one moment, to compare against later.
type mark struct {
	tracker
	at time.Time
	// background is the page's own DOM mutation rate (events per second)
	// before the action. A clock or a ticker that never stops must not
	// keep every action waiting for its settle bound.
	background float64
}

// backgroundSpan is how far back the background mutation rate is measured.
const backgroundSpan = 2 * time.Second

func (s *Service) mark() mark {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := time.Now()
	m := mark{tracker: s.track, at: now}
	// Mutation events flow only for nodes a capture has seen. So measure
	// over the time since the first capture when that is shorter.
	span := backgroundSpan
	if !s.observedSince.IsZero() && now.Sub(s.observedSince) < span {
		span = now.Sub(s.observedSince)
	}
	if span >= 50*time.Millisecond {
		m.background = float64(s.mutationsSinceLocked(now.Add(-span))) / span.Seconds()
	}
	return m
}

// maxMutTimes bounds the remembered mutation times.
const maxMutTimes = 4096

func (s *Service) noteMutationLocked(now time.Time) {
	s.mutTimes = append(s.mutTimes, now)
	if len(s.mutTimes) > maxMutTimes {
		s.mutTimes = append(s.mutTimes[:0:0], s.mutTimes[maxMutTimes/2:]...)
	}
}

// mutationsSinceLocked counts the DOM mutation events after t.
func (s *Service) mutationsSinceLocked(t time.Time) int {
	i := sort.Search(len(s.mutTimes), func(i int) bool { return s.mutTimes[i].After(t) })
	return len(s.mutTimes) - i
}

// settle waits until the page is done reacting to an action. A
// navigation that started is waited for until the main frame stops
// loading (bounded by NavigationTimeout). Then the DOM must stay quiet
// for QuietWindow (bounded by SettleTimeout). A dialog, a lost page or
// ctx ends the wait at once.
func (s *Service) settle(ctx context.Context, m mark) (settled bool) {
	quietBound := time.Now().Add(s.cfg.SettleTimeout)
	var navBound time.Time
	probes := 0
	for {
		now := time.Now()
		s.mu.Lock()
		t := s.track
		dialog := s.dialog != nil
		connected := s.state == dom.Connected
		pctx := s.pageCtx
		recent := s.mutationsSinceLocked(now.Add(-s.cfg.QuietWindow))
		s.mu.Unlock()
		if dialog || !connected {
			return true
		}
		wait := time.Duration(0)
		if t.navStarted > m.navStarted && t.stopped <= stoppedAfterStart(m, t) && !t.parsedLongAgo(now, s.cfg.LoadGrace) {
			// A navigation is under way: wait for it to finish loading.
			if navBound.IsZero() {
				navBound = now.Add(s.cfg.NavigationTimeout)
				quietBound = navBound.Add(s.cfg.SettleTimeout)
			}
			if now.After(navBound) {
				return false
			}
			wait = t.untilGraceEnds(now, s.cfg.LoadGrace, navBound.Sub(now))
		} else {
			if now.After(quietBound) {
				return false
			}
			// Quiet: a whole window since the action began in which the
			// DOM changed no more than the page's background rate allows.
			allowed := allowance(m.background, s.cfg.QuietWindow)
			sinceStart := now.Sub(m.at)
			if sinceStart >= s.cfg.QuietWindow && recent <= allowed {
				// Quiet by the clock. But on a busy machine the page's own
				// timers (a render debounced with setTimeout 0) may not have
				// run yet. Give its event loop a turn, then look again.
				if probes >= 3 || !s.pageIdle(ctx, m.background) {
					return true
				}
				probes++
				continue
			}
			wait = s.cfg.QuietWindow / 4
			if sinceStart < s.cfg.QuietWindow {
				wait = s.cfg.QuietWindow - sinceStart
			}
		}
		if !waitChange(ctx, pctx, t.changed, wait) {
			return true
		}
	}
}

// lostLoading is NOT_ATTACHED when the page went away while a navigation
// begun since m was still loading: the action never completed.
func (s *Service) lostLoading(m mark) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	t := s.track
	loading := t.navStarted > m.navStarted && t.stopped <= stoppedAfterStart(m, t)
	if s.state == dom.Connected || !loading {
		return nil
	}
	return dom.Errorf(dom.NotAttached, nil, "the page was still loading: %s", notAttached(s.state).Message)
}

// waitChange waits for the tracker's changed signal or d, whichever is
// first; false when ctx or the page's context ended instead.
func waitChange(ctx, pctx context.Context, changed <-chan struct{}, d time.Duration) bool {
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-changed:
	case <-timer.C:
	case <-ctx.Done():
		return false
	case <-pctx.Done():
		return false
	}
	return true
}

// stoppedAfterStart is the stop count that means "still loading": a stop
// seen before the navigation's start does not count. Start and stop come
// in pairs for the main frame, so loading is done once stops catch up.
func stoppedAfterStart(m mark, t tracker) int64 {
	return m.stopped + (t.navStarted - m.navStarted) - 1
}

// changesSince reports navigation and DOM activity since m.
func (s *Service) changesSince(m mark) dom.Changes {
	s.mu.Lock()
	defer s.mu.Unlock()
	t := s.track
	c := dom.Changes{
		Navigated:  t.navigated > m.navigated || t.url != m.url,
		DomChanged: t.mutations > m.mutations || t.navigated > m.navigated,
	}
	if c.Navigated {
		c.NewURL = urls.Safe(t.url) // t.url stays real: reconnect looks for it
	}
	return c
}

// waitLoaded waits (bounded by NavigationTimeout) while the main frame is
// loading a new document. So a snapshot does not catch a half-parsed page.
func (s *Service) waitLoaded(ctx context.Context) {
	bound := time.NewTimer(s.cfg.NavigationTimeout)
	defer bound.Stop()
	for {
		s.mu.Lock()
		t := s.track
		now := time.Now()
		busy := t.navStarted > t.stopped && s.dialog == nil && s.state == dom.Connected && !t.parsedLongAgo(now, s.cfg.LoadGrace)
		pctx := s.pageCtx
		s.mu.Unlock()
		if !busy {
			return
		}
		grace := time.NewTimer(t.untilGraceEnds(now, s.cfg.LoadGrace, s.cfg.NavigationTimeout))
		select {
		case <-t.changed:
		case <-grace.C:
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
		grace.Stop()
	}
}

// parsedLongAgo reports whether the newest navigation's document was
// parsed at least grace ago. Its load event is no longer waited for:
// an image or a script that never arrives must not hold every action
// for NavigationTimeout. Later DOM changes still have to settle.
func (t tracker) parsedLongAgo(now time.Time, grace time.Duration) bool {
	return t.newestParsed() && now.Sub(t.parsedAt) >= grace
}

// newestParsed reports whether the newest navigation's document has
// been parsed.
func (t tracker) newestParsed() bool { return t.docParsed && t.parsedNav == t.navStarted }

// untilGraceEnds is how long to wait for the next change: at most d,
// and no longer than until the parsed document's grace ends.
func (t tracker) untilGraceEnds(now time.Time, grace, d time.Duration) time.Duration {
	if t.newestParsed() {
		if left := t.parsedAt.Add(grace).Sub(now); left < d {
			return max(left, time.Millisecond)
		}
	}
	return d
}

// idleProbe resolves after the page's next frame and a macrotask after
// it. When frames do not run, it waits 50 ms. By then timers queued by
// an action's handlers have had their turn. A hidden tab (another tab
// of its window in front) throttles timers to once a second or less:
// there it resolves after a posted task, else each click took seconds.
//
//go:embed settle_idle_probe.js
var idleProbe string

// pageIdle gives the page's event loop a turn. It reports whether the
// DOM changed meanwhile more than its background rate explains. Then
// settling must go on.
func (s *Service) pageIdle(ctx context.Context, background float64) bool {
	page, _, err := s.session()
	if err != nil {
		return false
	}
	start := time.Now()
	if s.call(ctx, page, "Runtime.evaluate", map[string]any{"expression": idleProbe, "awaitPromise": true, "returnByValue": true}, nil) != nil {
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.mutationsSinceLocked(start) > allowance(background, max(time.Since(start), s.cfg.QuietWindow))
}

// allowance is how many mutation events a page with this background rate
// makes in d by itself. It has slack for bursts: one tick of a clock is
// several CDP events at once.
func allowance(background float64, d time.Duration) int {
	if background <= 0 {
		return 0
	}
	return int(math.Ceil(background * d.Seconds() * 1.5))
}
