package dom

import (
	"context"
	"fmt"
	"sync"
	"time"
)

// ServiceConfig tunes a Service. The zero value is usable: every zero field
// takes the default named on it.
type ServiceConfig struct {
	// MaxAge is how old a cached snapshot may be before a read rebuilds it
	// (seed 004 contract 7). Default 30 s.
	MaxAge time.Duration
	// VisualEffects shows a click ripple in the browser (an Overlay rect,
	// never a DOM node, so it cannot leak into a snapshot).
	VisualEffects bool
	// NoResnapshot skips the eager re-snapshot after a successful action;
	// the next Snapshot call captures instead and Changes has no node counts.
	NoResnapshot bool
	// Reconnect, when set, is called after the connection is lost to get
	// the tab back: lost is the tab as last seen (target id, URL, title).
	// It is retried with backoff while it fails, since a browser being
	// restarted takes a while to answer; an error with code
	// TARGET_NOT_FOUND means the browser answered without the tab, and
	// ends the attempts after a short grace (a restarted browser may still
	// be restoring its tabs).
	Reconnect func(ctx context.Context, lost TargetInfo) (Page, error)
	// ReconnectAttempts bounds Reconnect calls per loss. Default 12
	// (about 45 s with the backoff).
	ReconnectAttempts int
	// CallTimeout bounds every single CDP call. Default 10 s.
	CallTimeout time.Duration
	// QuietWindow is how long the DOM must stay unchanged after an action
	// before the page counts as settled. Default 100 ms.
	QuietWindow time.Duration
	// SettleTimeout bounds waiting for a quiet DOM. Default 2 s.
	SettleTimeout time.Duration
	// NavigationTimeout bounds waiting for a started navigation to load.
	// Default 10 s.
	NavigationTimeout time.Duration
	// Disabled switches tier rules off when building (BuildOptions.Disabled).
	Disabled map[string]bool
	// Snapshotter replaces Capture+Build (tests, recorded captures). prev is
	// the last snapshot, for ID stability.
	Snapshotter func(ctx context.Context, p Page, prev *Snapshot) (*Snapshot, error)
	// Now is the clock that ages snapshots (tests); default time.Now.
	Now func() time.Time
}

func (c ServiceConfig) withDefaults() ServiceConfig {
	if c.Now == nil {
		c.Now = time.Now
	}
	if c.MaxAge <= 0 {
		c.MaxAge = 30 * time.Second
	}
	if c.ReconnectAttempts <= 0 {
		c.ReconnectAttempts = 12
	}
	if c.CallTimeout <= 0 {
		c.CallTimeout = 10 * time.Second
	}
	if c.QuietWindow <= 0 {
		c.QuietWindow = 100 * time.Millisecond
	}
	if c.SettleTimeout <= 0 {
		c.SettleTimeout = 2 * time.Second
	}
	if c.NavigationTimeout <= 0 {
		c.NavigationTimeout = 10 * time.Second
	}
	return c
}

// Service is the observe-act loop for one attached page target: it caches
// the current snapshot, performs actions, invalidates after each of them,
// and follows the page's events. It is safe for concurrent use; actions
// and captures run one at a time.
type Service struct {
	cfg ServiceConfig

	// opMu serialises actions and captures: the page sees one at a time.
	opMu sync.Mutex

	// mu guards everything below.
	mu        sync.Mutex
	page      Page
	pageCtx   context.Context // cancelled when the page's connection is lost
	pageStop  context.CancelFunc
	state     ConnState
	current   *Snapshot // nil when invalidated
	last      *Snapshot // the most recent snapshot, kept for ID stability
	seq       int
	gen       int // bumped on every invalidation
	dialog    *DialogInfo
	dialogSig chan struct{} // closed when a dialog opens
	// dialogSess is the session that reported the open dialog (the page,
	// or an out-of-process frame): it is the one that can close it.
	dialogSess Session
	watched    map[string]bool // frame targets whose dialogs are followed
	track      tracker
	mutTimes   []time.Time // recent DOM mutation event times, oldest first
	// observedSince is when the first capture on this page ended: DOM
	// mutation events are only sent for nodes a capture has fetched.
	observedSince time.Time
	highlight     *VirtualNode
	closed        bool

	events *eventPump
	wg     sync.WaitGroup
	stop   context.CancelFunc
	ctx    context.Context // the service's lifetime
	effect *effects
}

// NewService starts the service for an attached page. It never fails: a
// page that cannot be set up yields a service whose calls return errors.
func NewService(p Page, cfg ServiceConfig) *Service {
	ctx, stop := context.WithCancel(context.Background())
	s := &Service{cfg: cfg.withDefaults(), ctx: ctx, stop: stop, dialogSig: make(chan struct{})}
	s.events = newEventPump(&s.wg)
	s.effect = newEffects(s)
	s.attach(p)
	return s
}

var _ Actor = (*Service)(nil)

// State reports the connection state.
func (s *Service) State() ConnState {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.state
}

// Events delivers invalidations, dialogs and connection changes, bursts
// coalesced. It is closed by Close.
func (s *Service) Events() <-chan Event { return s.events.out }

// Current returns the cached snapshot, or nil when there is none or it was
// invalidated.
func (s *Service) Current() *Snapshot {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.current
}

// Dialog returns the JavaScript dialog open on the page, or nil.
func (s *Service) Dialog() *DialogInfo {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.dialog
}

// Invalidate drops the cached snapshot; the next read captures.
func (s *Service) Invalidate() {
	s.mu.Lock()
	s.invalidateLocked()
	s.mu.Unlock()
}

func (s *Service) invalidateLocked() {
	s.gen++
	if s.current != nil {
		s.current = nil
	}
	s.events.send(Event{Kind: "invalidated"})
}

// Snapshot returns the cached snapshot, capturing a new one when there is
// none, it was invalidated, it is older than MaxAge, or force is set.
func (s *Service) Snapshot(ctx context.Context, force bool) (*Snapshot, error) {
	s.opMu.Lock()
	defer s.opMu.Unlock()
	if !force {
		s.mu.Lock()
		cur := s.current
		s.mu.Unlock()
		if s.fresh(cur) {
			return cur, nil
		}
	}
	return s.capture(ctx)
}

// capture takes a new snapshot and caches it. Callers hold opMu.
func (s *Service) capture(ctx context.Context) (*Snapshot, error) {
	s.waitLoaded(ctx)
	s.mu.Lock()
	page, pctx, state, dlg, prev, gen := s.page, s.pageCtx, s.state, s.dialog, s.last, s.gen
	s.mu.Unlock()
	if state != Connected || page == nil {
		return nil, notAttached(state)
	}
	if dlg != nil {
		return nil, Errorf(SnapshotFailed, nil, "a JavaScript %s dialog is open (%q) and blocks the page: accept or dismiss it first (action \"dialog\")", dlg.Type, clip(dlg.Message, 80))
	}
	dctx, opened, stop := s.dialogCtx(ctx)
	defer stop()
	cctx, cancel := s.callCtx(dctx, pctx, 4*s.cfg.CallTimeout)
	defer cancel()
	start := time.Now()
	snap, err := s.runSnapshotter(cctx, page, prev)
	if err != nil {
		if pctx.Err() != nil {
			return nil, notAttached(Disconnected)
		}
		if opened() {
			de := s.dialogErr("the snapshot").(*Error)
			de.Code = SnapshotFailed
			return nil, de
		}
		if ctx.Err() == nil && cctx.Err() != nil {
			return nil, Errorf(Timeout, err, "the page did not answer the snapshot within %s", 4*s.cfg.CallTimeout)
		}
		var de *Error
		if asError(err, &de) {
			return nil, de
		}
		return nil, Errorf(SnapshotFailed, err, "could not snapshot the page")
	}
	if snap.Taken.IsZero() {
		snap.Taken = start
	}
	s.mu.Lock()
	if s.observedSince.IsZero() {
		s.observedSince = time.Now()
	}
	s.seq++
	snap.Seq = s.seq
	s.last = snap
	// An invalidation that arrived while capturing means the page changed
	// under us: hand this snapshot out but do not cache it as current.
	if s.gen == gen {
		s.current = snap
	}
	s.mu.Unlock()
	return snap, nil
}

// Close stops the service and detaches from the page. Safe to call twice.
func (s *Service) Close() error {
	// Cancel first so an action in flight fails fast, then wait for it:
	// nothing may add goroutines while Close waits for them.
	s.stop()
	s.opMu.Lock()
	defer s.opMu.Unlock()
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	page := s.page
	s.page = nil
	s.state = Disconnected
	s.current = nil
	if s.pageStop != nil {
		s.pageStop()
	}
	s.mu.Unlock()
	s.effect.close()
	s.events.stop()
	var err error
	if page != nil {
		err = page.Detach()
	}
	s.wg.Wait()
	s.events.close()
	return err
}

func notAttached(state ConnState) *Error {
	switch state {
	case Reconnecting:
		return Errorf(NotAttached, nil, "the connection to the page was lost and is being re-established: retry in a moment")
	default:
		return Errorf(NotAttached, nil, "not attached to a page: the tab was closed or the browser went away; reattach (pick a target) and snapshot again")
	}
}

func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}

func (s *Service) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	id := ""
	if s.page != nil {
		id = s.page.TargetID()
	}
	return fmt.Sprintf("Service{target %s, %s}", id, s.state)
}

// runSnapshotter runs the capture on its own goroutine and returns when it
// ends or ctx does, whichever is first: a call the capture makes may not
// honour cancellation (a dialog blocks the renderer), and the service must
// answer at once. An abandoned capture finishes in the background, bounded
// by the connection's own timeouts, and its result is dropped.
func (s *Service) runSnapshotter(ctx context.Context, page Page, prev *Snapshot) (*Snapshot, error) {
	type result struct {
		snap *Snapshot
		err  error
	}
	ch := make(chan result, 1)
	go func() {
		var r result
		defer func() {
			if p := recover(); p != nil {
				r = result{nil, Errorf(SnapshotFailed, nil, "internal error while snapshotting: %v (please report it)", p)}
			}
			ch <- r
		}()
		r.snap, r.err = s.snapshotter()(ctx, page, prev)
	}()
	select {
	case r := <-ch:
		return r.snap, r.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}
