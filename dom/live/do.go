package live

import (
	"context"
	"strings"
	"time"

	"domscope/dom"
	"domscope/dom/flatten"
)

// nodeNeed says whether an action acts on a node.
type nodeNeed int

const (
	noNode       nodeNeed = iota
	nodeRequired          // the action needs a node id
	nodeOptional          // a node is focused or scrolled first when an id is given
)

// handler performs one kind of action on a resolved target (nil when the
// kind takes no node or none was given). A dialog that opened and blocks
// the page is returned, not an error.
type handler func(s *Service, ctx context.Context, page dom.Page, t *target, a dom.Action, res *dom.ActionResult) (*dom.DialogInfo, error)

// actionSpec is how Do performs one kind of action.
type actionSpec struct {
	node nodeNeed
	// run performs it; nil means the action is the fresh capture itself.
	run handler
}

// actions is every action kind Do performs (dom.ActionKinds, one row each).
var actions = map[dom.ActionKind]actionSpec{
	dom.KindClick: {nodeRequired, func(s *Service, ctx context.Context, page dom.Page, t *target, a dom.Action, res *dom.ActionResult) (*dom.DialogInfo, error) {
		return s.click(ctx, page, t, a, res)
	}},
	dom.KindHover: {nodeRequired, func(s *Service, ctx context.Context, page dom.Page, t *target, a dom.Action, _ *dom.ActionResult) (*dom.DialogInfo, error) {
		return nil, s.hover(ctx, page, t, a)
	}},
	dom.KindType: {nodeRequired, func(s *Service, ctx context.Context, page dom.Page, t *target, a dom.Action, res *dom.ActionResult) (*dom.DialogInfo, error) {
		return s.typeText(ctx, page, t, a.Text, res)
	}},
	dom.KindSelect: {nodeRequired, func(s *Service, ctx context.Context, page dom.Page, t *target, a dom.Action, _ *dom.ActionResult) (*dom.DialogInfo, error) {
		t, err := s.labelled(ctx, page, t)
		if err != nil {
			return nil, err
		}
		return nil, s.selectOption(ctx, t, a.Value)
	}},
	dom.KindKey: {nodeOptional, func(s *Service, ctx context.Context, page dom.Page, t *target, a dom.Action, _ *dom.ActionResult) (*dom.DialogInfo, error) {
		return s.pressKey(ctx, page, t, a.Key, a.Modifiers)
	}},
	dom.KindScroll: {nodeOptional, func(s *Service, ctx context.Context, page dom.Page, t *target, a dom.Action, _ *dom.ActionResult) (*dom.DialogInfo, error) {
		return nil, s.scroll(ctx, page, t, a.DX, a.DY)
	}},
	dom.KindNavigate: {noNode, navigateHandler},
	dom.KindBack:     {noNode, navigateHandler},
	dom.KindForward:  {noNode, navigateHandler},
	dom.KindReload:   {noNode, navigateHandler},
	dom.KindDialog: {noNode, func(s *Service, ctx context.Context, page dom.Page, _ *target, a dom.Action, _ *dom.ActionResult) (*dom.DialogInfo, error) {
		return nil, s.handleDialog(ctx, page, a)
	}},
	dom.KindSnapshot: {noNode, nil},
	dom.KindViewport: {noNode, viewportHandler},
}

func navigateHandler(s *Service, ctx context.Context, page dom.Page, _ *target, a dom.Action, _ *dom.ActionResult) (*dom.DialogInfo, error) {
	return s.navigate(ctx, page, a)
}

// needsNode says whether a must resolve a node before it runs.
func (sp actionSpec) needsNode(a dom.Action) bool {
	return sp.node == nodeRequired || (sp.node == nodeOptional && a.ID != "")
}

// kindList names the known kinds for messages.
func kindList() string {
	names := make([]string, len(dom.ActionKinds))
	for i, k := range dom.ActionKinds {
		names[i] = string(k)
	}
	return strings.Join(names, ", ")
}

// Do performs one action. It never panics and always invalidates the
// cached snapshot. It waits for the page to settle. On success it
// re-snapshots so the result can say what changed.
func (s *Service) Do(ctx context.Context, a dom.Action) (res dom.ActionResult) {
	start := time.Now()
	s.opMu.Lock()
	defer s.opMu.Unlock()
	s.beginAction()
	defer s.endAction()
	a.Kind = dom.ActionKind(strings.ToLower(strings.TrimSpace(string(a.Kind))))
	a.ID = dom.NormalizeID(a.ID)
	res.Action, res.ID = a.Kind, a.ID
	defer func() {
		if r := recover(); r != nil {
			res.Success = false
			res.Error = dom.Errorf(dom.CDPError, nil, "internal error during %s: %v (please report it)", a.Kind, r)
		}
		res.Duration = time.Since(start)
		res.DurationMs = float64(res.Duration.Microseconds()) / 1000
	}()

	err := s.do(ctx, a, &res)
	if err != nil {
		res.Success = false
		res.Error = dom.ErrorOf(err)
		if d := s.Dialog(); d != nil {
			res.Dialog = d
		}
	} else {
		res.Success = true
	}
	return res
}

func (s *Service) do(ctx context.Context, a dom.Action, res *dom.ActionResult) error {
	page, _, err := s.session()
	// Every action invalidates, even one that fails right away.
	s.mu.Lock()
	cur, prev := s.current, s.last
	s.invalidateLocked()
	s.mu.Unlock()
	res.SnapshotInvalidated = true
	if err != nil {
		return err
	}
	spec, known := actions[a.Kind]
	if !known {
		return dom.Errorf(dom.ValidationError, nil, "unknown action %q: use one of %s", a.Kind, kindList())
	}
	if d := s.Dialog(); d != nil && a.Kind != dom.KindDialog {
		res.Dialog = d
		return dom.DialogBlocks(d, "cannot "+string(a.Kind))
	}

	// What changed since the last action answered is its late effect,
	// not this one's: the page is read first, and this action's diff
	// starts from there.
	idle := s.wit.take(false, time.Time{}, false)
	if restless := s.wit.restless(time.Now(), restlessSpan); !happenedOff.Load() && s.lateChanges(idle, restless) && !s.cfg.NoResnapshot {
		if snap, err := s.capture(ctx); err == nil {
			res.Later = s.later(snap, s.wit.take(false, time.Time{}, false), restless)
			cur, prev = snap, snap
		}
	}
	defer func() {
		// After the requests and console are listed (deferred later).
		s.wit.restart(time.Now(), false)
		if res.Snapshot == nil {
			s.answered(a.Kind, nil)
		}
		s.mu.Lock()
		after := s.happened.last
		s.mu.Unlock()
		if !happenedOff.Load() {
			res.ErrorsSeen = errorsSeen(res, after)
		}
	}()

	if spec.run == nil {
		// A fresh capture on request: the invalidation above forces it.
		restless := s.wit.restless(time.Now(), restlessSpan)
		next, err := s.captureKind(ctx, a.Full)
		if err != nil {
			return err
		}
		res.Snapshot = dom.StatOf(next)
		s.fillDiff(res, prev, next, restless)
		s.judge(res, record{}, prev, next, restless)
		s.answered(a.Kind, next)
		return nil
	}

	var t *target
	if spec.needsNode(a) {
		snap, err := s.snapshotForActionLocked(ctx, cur)
		if err != nil {
			return err
		}
		if t, err = s.resolve(ctx, page, snap, a.ID); err != nil {
			return err
		}
		prev = snap
	}
	// fillDiff reads prev's text once the page is read again. A snapshot
	// nobody viewed has none yet: make it while the page settles.
	if !s.cfg.NoResnapshot && !a.Kind.Navigates() {
		txt := s.startText(prev)
		defer s.dropTextAhead(txt)
	}

	if a.Kind == dom.KindType && t != nil && t.node.Sensitive() {
		s.cons.remember(a.Text)
	}
	var perfBefore map[string]float64
	if a.Metrics {
		perfBefore = s.perfMetrics(ctx, page)
		defer func() { res.Metrics = metricsDelta(perfBefore, s.perfMetrics(ctx, page)) }()
	}
	mark := s.mark()
	restless := s.wit.restless(mark.at, restlessSpan)
	s.wit.restart(mark.at, true)
	s.mu.Lock()
	opened := s.happened.opened
	s.mu.Unlock()
	s.net.begin()
	defer s.listNetwork(res)
	s.cons.begin()
	defer s.listConsole(res)
	if !a.Kind.Navigates() && a.Kind != dom.KindDialog && a.Kind != dom.KindViewport {
		s.toFront(ctx, page)
	}
	dlg, err := spec.run(s, ctx, page, t, a, res)
	// Resolving may have cached a fresh snapshot; whatever the action did,
	// that one is stale now too.
	s.Invalidate()
	if dlg != nil {
		res.Dialog = dlg
	}
	if err != nil {
		return err
	}
	if dlg != nil {
		// The page is blocked by the dialog: no settling, no snapshot.
		res.Effect = dom.EffectDialog
		return nil
	}
	var hint []int64
	if t != nil && t.node != nil && t.node.TargetID == page.TargetID() {
		hint = []int64{t.node.BackendID}
	}
	var ahead *early
	if !s.cfg.NoResnapshot {
		ahead = s.startEarly(ctx, mark, hint)
	}
	// However the action ends, an early read is not left running.
	defer ahead.wait(ctx, s)
	settled := s.settle(ctx, mark)
	if err := s.lostLoading(mark); err != nil {
		return err
	}
	s.settleNetwork(ctx, res)
	ahead.probeAfter(ctx, s)
	ch := s.changesSince(mark)
	ch.Unsettled = !settled
	res.Changes = ch
	res.TabsOpened = s.openedSince(ctx, page, opened)
	if d := s.Dialog(); d != nil {
		res.Dialog = d
		s.judge(res, record{}, prev, nil, nil)
		return s.checkExpect(ctx, a, res, mark.at, prev, restless)
	}
	if s.cfg.NoResnapshot {
		s.judge(res, record{}, prev, nil, nil)
		return s.checkExpect(ctx, a, res, mark.at, prev, restless)
	}
	next := ahead.take(ctx, s)
	if next == nil {
		s.mu.Lock()
		s.hint = append(s.hint, hint...)
		s.mu.Unlock()
		if next, err = s.capture(ctx); err != nil {
			// The action itself worked; the page may be mid-navigation. The
			// next read captures again. A dialog that stopped the read is said.
			res.Dialog = s.Dialog()
			return nil
		}
	}
	res.Snapshot = dom.StatOf(next)
	s.fillDiff(res, prev, next, restless)
	// An expectation reads on: its record must keep what was born since
	// the action (the deferred restart ends it).
	s.judge(res, s.wit.take(a.Expect == nil, time.Now(), false), prev, next, restless)
	s.answered(a.Kind, next)
	return s.checkExpect(ctx, a, res, mark.at, prev, restless)
}

// snapshotForActionLocked returns the snapshot to resolve an ID in. That
// is cur (the snapshot cached when the action began) if still fresh.
// Else it is a new capture (IDs survive it). It is an error when nothing
// was ever captured. Callers hold opMu.
func (s *Service) snapshotForActionLocked(ctx context.Context, cur *dom.Snapshot) (*dom.Snapshot, error) {
	if cur != nil && s.fresh(cur) {
		return cur, nil
	}
	return s.snapshotForAction(ctx)
}

// fillDiff compares two snapshots by ID. IDs survive re-snapshots of the
// same document, so the difference is what the action added and removed.
func (s *Service) fillDiff(res *dom.ActionResult, prev, next *dom.Snapshot, restless map[int64]bool) {
	if next == nil {
		return
	}
	if prev == nil || prev.URL != next.URL {
		if prev != nil {
			res.Changes.Navigated = res.Changes.Navigated || prev.URL != next.URL
		}
		res.Changes.NewURL = next.URL
	}
	if prev == nil {
		res.Changes.DomChanged = true
		return
	}
	// The node diff and the new flat text do not depend on each other, so
	// they are made side by side. On a 10,000-element page each is about a
	// dozen milliseconds. prev's text is read first, as it is the one cached.
	var prevLines, nextLines []flatten.Line
	textDone := make(chan struct{})
	if prev.URL == next.URL {
		prevLines = s.linesOf(prev)
		go func() {
			defer close(textDone)
			defer func() { _ = recover() }() // no text diff rather than a crash
			nextLines = s.flatLines(next)
		}()
	} else {
		close(textDone)
	}
	var d flatten.SnapshotDiff
	s.mu.Lock()
	model := s.model
	s.mu.Unlock()
	if model.SameTree(next) != prev || prev == nil {
		d = s.Diff(prev, next) // else it repeats prev: nothing changed
	}
	<-textDone
	added, removed := len(d.Added), len(d.Removed)
	res.Changes.Added, res.Changes.Removed, res.Changes.Renamed = added, removed, len(d.Renamed)
	if added+removed+len(d.Renamed) > 0 {
		res.Changes.DomChanged = true
	}
	if !res.Changes.Navigated {
		res.Changes.NewURL = ""
	}
	if prev.URL == next.URL {
		c := &res.Changes
		c.Nodes, c.NodesMore = d.Changed, 0
		if len(c.Nodes) > dom.MaxListedChanges {
			c.Nodes, c.NodesMore = c.Nodes[:dom.MaxListedChanges], len(c.Nodes)-dom.MaxListedChanges
		}
		flat, background := flatChanges(prevLines, nextLines, prev, next, restless)
		res.Background = background
		c.Flat, c.FlatMore = flat, 0
		if len(flat) > dom.MaxListedChanges {
			c.Flat, c.FlatMore = flat[:dom.MaxListedChanges], len(flat)-dom.MaxListedChanges
		}
		if len(c.Nodes) > 0 || len(c.Flat) > 0 {
			c.DomChanged = true
		}
	}
	s.keepViewsOf(next)
}

// flatLines is a snapshot's flattened text view's lines with the default options
// (what an agent reads), made once and shared with the UI (View).
func (s *Service) flatLines(snap *dom.Snapshot) []flatten.Line {
	v, err := s.View(snap, dom.DefaultOptions(), false)
	if err != nil || v == nil {
		return nil
	}
	return v.Lines
}
