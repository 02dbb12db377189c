// Package live is the observe-act service of one page. It drains the
// page's DOM events into the live model (dom/live/model), which refreshes
// what changed. It also runs the actions and their effects, settling,
// dialogs and reconnects.
package live

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"domscope/dom"
	"domscope/dom/build"
	"domscope/dom/live/model"
	"domscope/dom/screenshot"
)

// Config tunes a Service. The zero value is usable: every zero field
// takes the default named on it.
type Config struct {
	// MaxAge is how old a cached snapshot may be before a read rebuilds it
	// (an agent must not act on a stale view). Default 30 s.
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
	// restarted takes a while to answer. An error with code
	// TARGET_NOT_FOUND means the browser answered without the tab. It ends
	// the attempts after a short grace (a restarted browser may still be
	// restoring its tabs).
	Reconnect func(ctx context.Context, lost dom.TargetInfo) (dom.Page, error)
	// ReconnectAttempts bounds Reconnect calls per loss. Default 12
	// (about 45 s with the backoff).
	ReconnectAttempts int
	// ReconnectWithin, when set, bounds the attempts by time instead (the
	// UI's --timeout). "No such tab" answers then back off too, rather
	// than end the attempts after three: a loaded machine restores a
	// restarted browser's tabs slowly.
	ReconnectWithin time.Duration
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
	// LoadGrace is how long a parsed document's load event is waited
	// for (DOMContentLoaded to load). Default dom.LoadGrace.
	LoadGrace time.Duration
	// TierDisabled switches tier rules off when building
	// (build.Options.Disabled); SetTierRules changes them later.
	TierDisabled map[string]bool
	// Snapshotter replaces capture.Take (tests, recorded captures). prev is
	// the last snapshot, for ID stability.
	Snapshotter func(ctx context.Context, p dom.Page, prev *dom.Snapshot) (*dom.Snapshot, error)
	// FullOnly turns off the live page model: every read is a full
	// capture. By default the service keeps the model from DOM events and
	// refreshes only what changed on later reads (see Model).
	FullOnly bool
	// Now is the clock that ages snapshots (tests); default time.Now.
	Now func() time.Time
	// Viewport is the window to emulate on the page, applied again after
	// a reconnect; a viewport action changes it (zero: the browser's own).
	Viewport dom.Viewport
	// FreshDocumentIDs numbers a new document's nodes from 1, as a
	// capture of it alone does (freshids.go). By default they go on
	// from the last document's, so an old id never names a new node.
	FreshDocumentIDs bool
}

func (c Config) withDefaults() Config {
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
	if c.LoadGrace <= 0 {
		c.LoadGrace = dom.LoadGrace
	}
	return c
}

// Service is the observe-act loop for one attached page target: it caches
// the current snapshot, performs actions, invalidates after each of them,
// and follows the page's events. It is safe for concurrent use; actions
// and captures run one at a time.
type Service struct {
	cfg Config

	// opMu serialises actions and captures: the page sees one at a time.
	opMu sync.Mutex

	// mu guards everything below.
	mu sync.Mutex
	// derived holds the flat views and the diff made (views.go).
	derived   derived
	page      dom.Page
	pageCtx   context.Context // cancelled when the page's connection is lost
	pageStop  context.CancelFunc
	state     dom.ConnState
	current   *dom.Snapshot // nil when invalidated
	last      *dom.Snapshot // the most recent snapshot, kept for ID stability
	seq       int
	gen       int // bumped on every invalidation
	dialog    *dom.DialogInfo
	dialogSig chan struct{} // closed when a dialog opens
	// dialogSess is the session that reported the open dialog (the page,
	// or an out-of-process frame): it is the one that can close it.
	dialogSess dom.Session
	watched    map[string]bool // frame targets whose dialogs are followed
	track      tracker
	mutTimes   []time.Time // recent DOM mutation event times, oldest first
	// observedSince is when the first capture on this page ended: DOM
	// mutation events are only sent for nodes a capture has fetched.
	observedSince time.Time
	highlight     *dom.VirtualNode // detached from its tree (no parent, no children)
	closed        bool
	tierOff       map[string]bool // tier rules switched off, for every build

	// The live page model (see snapshot.go): nil before the first full
	// capture and while one is under way (events are buffered then).
	model      *model.Model
	marks      eventMarks // how far the model's events got
	buffering  bool
	buffered   []dom.EventMessage
	bufferLost bool
	fallback   string // why the last read was a full capture
	fol        follow // follow mode (follow.go)
	hint       []int64

	events *eventPump
	wg     sync.WaitGroup
	stop   context.CancelFunc
	ctx    context.Context // the service's lifetime
	effect *effects
	net    netLog       // the requests of the action under way
	cons   consoleLog   // the console errors of the action under way
	vp     dom.Viewport // the emulated window (guarded by mu)

	// secrets are the fields this document's snapshots found sensitive
	// (guarded by mu): a screenshot paints them over even once they
	// look plain.
	secrets screenshot.SensitiveNodes

	// wit sees what flashes between reads (witness.go); happened is what
	// the last action left to compare its late effects with (happened.go).
	wit      *witness
	happened happenedState
	// frameFol follows the out-of-process frames for wit (framefollow.go).
	frameFol frameFollows
	// cutAsked are the cut nodes of cutModel whose children were asked
	// for as they came (askCut).
	cutAsked map[int64]bool
	cutModel *model.Model
}

// NewService starts the service for an attached page. It never fails: a
// page that cannot be set up yields a service whose calls return errors.
func NewService(p dom.Page, cfg Config) *Service {
	ctx, stop := context.WithCancel(context.Background())
	s := &Service{cfg: cfg.withDefaults(), ctx: ctx, stop: stop, dialogSig: make(chan struct{}), tierOff: dom.CopyRules(cfg.TierDisabled), vp: cfg.Viewport}
	s.events = newEventPump(&s.wg)
	s.effect = newEffects(s)
	s.wit = newWitness()
	s.attach(p)
	return s
}

var _ dom.Actor = (*Service)(nil)

// State reports the connection state.
func (s *Service) State() dom.ConnState {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.state
}

// Events delivers invalidations, dialogs and connection changes, bursts
// coalesced. It is closed by Close.
func (s *Service) Events() <-chan dom.Event { return s.events.out }

// Current returns the cached snapshot, or nil when there is none or it was
// invalidated.
func (s *Service) Current() *dom.Snapshot {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.current
}

// Dialog returns the JavaScript dialog open on the page, or nil.
func (s *Service) Dialog() *dom.DialogInfo {
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
	s.events.send(dom.Event{Kind: "invalidated"})
}

// Snapshot returns the cached snapshot, capturing a new one when there is
// none, it was invalidated, it is older than MaxAge, or force is set.
func (s *Service) Snapshot(ctx context.Context, force bool) (*dom.Snapshot, error) {
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
func (s *Service) capture(ctx context.Context) (*dom.Snapshot, error) {
	return s.captureKind(ctx, false)
}

// captureKind is capture; full forces a full capture (no incremental
// refresh of the live model).
func (s *Service) captureKind(ctx context.Context, full bool) (*dom.Snapshot, error) {
	s.waitLoaded(ctx)
	s.mu.Lock()
	page, pctx, state, dlg, prev, gen, nav := s.page, s.pageCtx, s.state, s.dialog, s.last, s.gen, s.track.navigated
	s.mu.Unlock()
	if state != dom.Connected || page == nil {
		return nil, notAttached(state)
	}
	if dlg != nil {
		return nil, dom.DialogBlocks(dlg, "cannot take a snapshot")
	}
	dctx, opened, stop := s.dialogCtx(ctx)
	defer stop()
	bound := s.snapshotBound(ctx)
	cctx, cancel := s.callCtx(dctx, pctx, bound)
	defer cancel()
	start := time.Now()
	snap, err := s.runSnapshotter(cctx, page, prev, full)
	// A page that navigated under the capture loses the node ids and
	// contexts it was reading: read the new document instead.
	for try := 1; err != nil && try < navRetries && (s.navigatedSince(nav) || documentGone(err)) && cctx.Err() == nil && !opened(); try++ {
		s.waitLoaded(cctx)
		nav = s.navigations()
		start = time.Now()
		snap, err = s.runSnapshotter(cctx, page, prev, true)
	}
	if err != nil {
		if pctx.Err() != nil {
			return nil, notAttached(dom.Disconnected)
		}
		if opened() {
			de := s.dialogErr("the snapshot").(*dom.Error)
			de.Code = dom.SnapshotFailed
			return nil, de
		}
		// The bound may be the caller's own deadline: ctx ended too then.
		if errors.Is(cctx.Err(), context.DeadlineExceeded) {
			return nil, dom.Errorf(dom.Timeout, err, "the page did not answer the snapshot within %s", bound.Round(time.Second))
		}
		var de *dom.Error
		if asError(err, &de) {
			return nil, de
		}
		return nil, dom.Errorf(dom.SnapshotFailed, err, "could not snapshot the page")
	}
	if snap.Taken.IsZero() {
		snap.Taken = start
	}
	s.keep(snap, gen)
	return snap, nil
}

// navRetries bounds the captures of a page that keeps navigating. A
// page that reloads every 100 ms outruns a slow capture several times.
const navRetries = 10

// navigations counts the main frame's navigations so far.
func (s *Service) navigations() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.track.navigated
}

func (s *Service) navigatedSince(n int64) bool { return s.navigations() != n }

// documentGone reports an error Chrome gives when the document it was
// read from went away; its frameNavigated event may still be on its way.
func documentGone(err error) bool {
	m := err.Error()
	return strings.Contains(m, "Cannot find context with specified id") ||
		strings.Contains(m, "No node with given id found") || strings.Contains(m, "Could not find node with given id")
}

// keep numbers a new snapshot and makes it the last one. It also makes it
// the current one unless the service was invalidated since gen. Then the
// page changed under the capture, so the snapshot is handed out, not
// cached.
func (s *Service) keep(snap *dom.Snapshot, gen int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.observedSince.IsZero() {
		s.observedSince = time.Now()
	}
	s.seq++
	snap.Seq = s.seq
	s.last = snap
	s.secrets.Add(snap)
	if s.gen == gen {
		s.current = snap
	}
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
	if s.fol.timer != nil {
		s.fol.timer.Stop()
	}
	page := s.page
	s.page = nil
	s.state = dom.Disconnected
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

func notAttached(state dom.ConnState) *dom.Error {
	switch state {
	case dom.Reconnecting:
		return dom.Errorf(dom.NotAttached, nil, "the connection to the page was lost and is being re-established: retry in a moment")
	default:
		return dom.Errorf(dom.NotAttached, nil, "not attached to a page: the tab was closed or the browser went away; reattach (pick a target) and snapshot again")
	}
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

// snapshotter is how the service captures: the config's hook, or capture.Take
// with the current tier rules (IDs carried over from prev).
func (s *Service) snapshotter(full bool) func(ctx context.Context, p dom.Page, prev *dom.Snapshot) (*dom.Snapshot, error) {
	if s.cfg.Snapshotter != nil {
		return s.cfg.Snapshotter
	}
	return func(ctx context.Context, p dom.Page, prev *dom.Snapshot) (*dom.Snapshot, error) {
		s.mu.Lock()
		hint := s.hint
		s.hint = nil
		s.mu.Unlock()
		return s.takeSnapshot(ctx, p, prev, full, hint)
	}
}

// SetTierRules sets the tier rules switched off for every later build. It
// rebuilds the latest snapshot from its raw capture with them (no new
// capture; every node keeps its ID). It returns the rebuilt snapshot, or
// nil when there is none yet (the next read builds with the new rules).
func (s *Service) SetTierRules(disabled map[string]bool) (*dom.Snapshot, error) {
	s.opMu.Lock()
	defer s.opMu.Unlock()
	off := dom.CopyRules(disabled)
	s.mu.Lock()
	s.tierOff = off
	last, cur := s.last, s.current
	s.mu.Unlock()
	if last == nil || !last.HasCapture() {
		return nil, nil
	}
	ns, err := build.Rebuild(last, off)
	if errors.Is(err, dom.ErrPageChanged) {
		return nil, nil // the caller takes a new snapshot, built with off
	}
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	s.last = ns
	if cur == last && s.current == cur {
		s.current = ns
	}
	s.mu.Unlock()
	return ns, nil
}

// runSnapshotter runs the capture on its own goroutine. It returns when the
// capture ends or ctx does, whichever is first. A call the capture makes may
// not honour cancellation (a dialog blocks the renderer), and the service
// must answer at once. An abandoned capture finishes in the background, bounded
// by the connection's own timeouts, and its result is dropped.
func (s *Service) runSnapshotter(ctx context.Context, page dom.Page, prev *dom.Snapshot, full bool) (*dom.Snapshot, error) {
	type result struct {
		snap *dom.Snapshot
		err  error
	}
	ch := make(chan result, 1)
	go func() {
		var r result
		defer func() {
			if p := recover(); p != nil {
				r = result{nil, dom.Errorf(dom.SnapshotFailed, nil, "internal error while snapshotting: %v (please report it)", p)}
			}
			ch <- r
		}()
		r.snap, r.err = s.snapshotter(full)(ctx, page, prev)
	}()
	select {
	case r := <-ch:
		return r.snap, r.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}
