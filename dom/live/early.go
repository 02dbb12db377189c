package live

import (
	"context"
	_ "embed" // page scripts
	"sync"
	"time"

	"domscope/dom"
	"domscope/dom/build"
	"domscope/dom/live/model"
)

// earlyQuiet is how long the DOM must have been still after an action
// before its re-snapshot may start early, while settling goes on.
// A click's own changes come at once. Its framework renders within a
// frame or a zero timer. A reaction later than this makes the early read
// useless, never wrong: it is dropped and the page read again.
const earlyQuiet = 25 * time.Millisecond

// early is a re-snapshot started before the page has settled. It
// overlaps the incremental refresh (most of it Chrome's DOMSnapshot)
// with the rest of the quiet window. It is kept only when nothing at all
// happened on the page from its start to the end of settling. That is:
//   - no DOM event. The model applied none since the refresh took its
//     change sets, and the service counted none.
//   - no navigation, no invalidation, no dialog.
//   - the same stateProbe sum.
//
// Then the page the refresh read is the page a read after settling
// would read.
type early struct {
	done  chan struct{}
	snap  *dom.Snapshot // nil when the refresh did not start or did not end well
	from  tracker       // the service's counters when the refresh started
	gen   int
	model *model.Model // the model it refreshes
	page  dom.Page
	state int64 // stateProbe before the refresh
	// began is closed once the read took state, or gave up; hasState
	// says which. The probe after settling waits for it: it must reach
	// the page after the one before.
	began    chan struct{}
	hasState bool
	// after is stateProbe once the page settled (probeAfter), nil
	// until it is asked for.
	after chan probed
}

// probed is one stateProbe's result.
type probed struct {
	sum int64
	ok  bool
}

// probeAfter starts the stateProbe that take compares, once the page has
// settled. It runs while the early refresh still reads. A read begun
// after settling would show the page from that moment on, as this one.
func (e *early) probeAfter(ctx context.Context, s *Service) {
	if e == nil {
		return
	}
	s.mu.Lock()
	page := s.page
	s.mu.Unlock()
	if page == nil {
		return
	}
	e.after = make(chan probed, 1)
	go func() {
		var p probed
		select {
		case <-e.began:
			if e.hasState {
				p.sum, p.ok = s.probeState(ctx, page)
			}
		case <-ctx.Done():
		}
		e.after <- p
	}()
}

// startEarly starts the early re-snapshot after the action marked m.
// It starts once the DOM has been still for earlyQuiet with no request
// in flight. It starts only when it can be an incremental refresh (a
// live model, a previous snapshot). The page must also not have changed
// by itself in the last backgroundSpan: a ticker would spoil most early
// reads. It returns nil when it will not start at all.
func (s *Service) startEarly(ctx context.Context, m mark, hint []int64) *early {
	s.mu.Lock()
	model := s.model
	ok := model != nil && s.last != nil && s.cfg.Snapshotter == nil && time.Since(s.fol.lastForeign) > backgroundSpan
	s.mu.Unlock()
	// Out-of-process frames send no events here. A late change in one
	// could not be told apart, so their pages are read after settling.
	ok = ok && !model.HasFrames()
	if !ok {
		return nil
	}
	acted := time.Now()
	e := &early{done: make(chan struct{}), began: make(chan struct{}), model: model}
	go func() {
		defer close(e.done)
		var beganOnce sync.Once
		begin := func() { beganOnce.Do(func() { close(e.began) }) }
		defer begin()
		if !s.awaitEarlyQuiet(ctx, m, acted) {
			return
		}
		s.mu.Lock()
		page, pctx, state, dlg, prev, same, off := s.page, s.pageCtx, s.state, s.dialog, s.last, s.model == model, s.tierOff
		e.from, e.gen, e.page = s.track, s.gen, page
		s.mu.Unlock()
		if state != dom.Connected || page == nil || dlg != nil || !same || model.Broken() != "" {
			return
		}
		var ok bool
		e.state, ok = s.probeState(ctx, page)
		e.hasState = ok
		begin()
		if !ok {
			return
		}
		dctx, _, stop := s.dialogCtx(ctx)
		defer stop()
		cctx, cancel := s.callCtx(dctx, pctx, 4*s.cfg.CallTimeout)
		defer cancel()
		// A panic leaves no snapshot (the read after settling reports
		// what is wrong) and, through Refresh, a broken model.
		defer func() { _ = recover() }()
		snap, _, _ := model.Refresh(cctx, page, hint, build.Options{Prev: prev, Disabled: off})
		if snap == nil {
			return
		}
		snap.Incremental = true // Refresh has set when it began (Taken)
		e.snap = snap
	}()
	return e
}

// awaitEarlyQuiet waits until the DOM has been still for earlyQuiet since
// the action returned (acted) and since its last change, with no request
// in flight. It gives up (false) when a navigation starts, a dialog
// opens, the page goes, or the quiet window passes first. Then the
// ordinary read after settling is as soon.
func (s *Service) awaitEarlyQuiet(ctx context.Context, m mark, acted time.Time) bool {
	giveUp := acted.Add(s.cfg.QuietWindow)
	for {
		now := time.Now()
		s.mu.Lock()
		t := s.track
		blocked := s.dialog != nil || s.state != dom.Connected || t.navStarted > m.navStarted || t.navigated > m.navigated
		pctx := s.pageCtx
		s.mu.Unlock()
		if blocked || !now.Before(giveUp) {
			return false
		}
		last := acted
		if t.lastChange.After(last) {
			last = t.lastChange
		}
		wait := earlyQuiet - now.Sub(last)
		if wait <= 0 {
			if open, _ := s.net.inFlight(); !open {
				return true
			}
			wait = 5 * time.Millisecond
		}
		if !waitChange(ctx, pctx, t.changed, wait) {
			return false
		}
	}
}

// take waits for the early re-snapshot and returns it when nothing
// happened on the page since it started. Else it returns nil, and the
// caller reads the page again. A refresh that does not end with ctx is
// left to finish on its own. The model it was refreshing is not trusted
// again.
func (e *early) take(ctx context.Context, s *Service) *dom.Snapshot {
	if !e.wait(ctx, s) {
		return nil
	}
	if e.snap == nil {
		return nil
	}
	s.mu.Lock()
	t := s.track
	still := s.model == e.model && s.page == e.page && s.gen == e.gen && s.dialog == nil && s.state == dom.Connected &&
		t.mutations == e.from.mutations && t.navStarted == e.from.navStarted &&
		t.navigated == e.from.navigated && t.url == e.from.url
	s.mu.Unlock()
	if !still || e.model.Pending() != 0 || e.model.Broken() != "" {
		return nil
	}
	var now probed
	if e.after != nil {
		select {
		case now = <-e.after:
		case <-ctx.Done():
		}
	} else {
		now.sum, now.ok = s.probeState(ctx, e.page)
	}
	if !now.ok || now.sum != e.state {
		return nil
	}
	s.mu.Lock()
	s.fallback = ""
	s.mu.Unlock()
	s.keep(e.snap, e.gen)
	return e.snap
}

// wait waits for the early re-snapshot to end, or for ctx, a dialog or
// the page's loss, whichever is first. It returns false in the latter
// cases: a call blocked by a dialog may not end soon. The refresh then
// finishes on its own, and the model it was refreshing is not trusted
// again. So no two refreshes of one model ever overlap.
func (e *early) wait(ctx context.Context, s *Service) bool {
	if e == nil {
		return false
	}
	s.mu.Lock()
	dialog, pctx := s.dialogSig, s.pageCtx
	s.mu.Unlock()
	var lost <-chan struct{}
	if pctx != nil {
		lost = pctx.Done()
	}
	select {
	case <-e.done:
		return true
	case <-ctx.Done():
	case <-dialog:
	case <-lost:
	}
	e.abandoned()
	return false
}

func (e *early) abandoned() {
	select {
	case <-e.done:
	default:
		e.model.Break("an early read did not finish")
	}
}

// stateProbe sums up, in one number, the page state that a snapshot
// shows and that changes without a DOM event. It covers every form
// control's value and checked, indeterminate and selected state, through
// open shadow roots and same-origin frames. It also covers the focused
// element and the scroll position. An early read is kept only when the
// sum is the same at its start and after settling. Else a timer that
// ticks a box from script after the read began would go unseen. Only the
// number leaves the page, never a value.
//
//go:embed early_state_probe.js
var stateProbe string

// probeState evaluates stateProbe (ok false when it could not).
func (s *Service) probeState(ctx context.Context, page dom.Page) (int64, bool) {
	var r struct {
		Result struct {
			Value int64 `json:"value"`
		} `json:"result"`
		ExceptionDetails any `json:"exceptionDetails"`
	}
	err := s.call(ctx, page, "Runtime.evaluate", map[string]any{"expression": stateProbe, "returnByValue": true}, &r)
	return r.Result.Value, err == nil && r.ExceptionDetails == nil
}
