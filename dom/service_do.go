package dom

import (
	"context"
	"strings"
	"time"
)

// ActionKinds lists the actions Do understands.
var ActionKinds = []string{"click", "type", "key", "scroll", "hover", "select", "navigate", "back", "forward", "reload", "dialog", "snapshot"}

// Do performs one action. It never panics, always invalidates the cached
// snapshot, waits for the page to settle, and (on success) re-snapshots so
// the result can say what changed.
func (s *Service) Do(ctx context.Context, a Action) (res ActionResult) {
	start := time.Now()
	s.opMu.Lock()
	defer s.opMu.Unlock()
	a.Kind = strings.ToLower(strings.TrimSpace(a.Kind))
	a.ID = NormalizeID(a.ID)
	res.Action, res.ID = a.Kind, a.ID
	defer func() {
		if r := recover(); r != nil {
			res.Success = false
			res.Error = Errorf(CDPError, nil, "internal error during %s: %v (please report it)", a.Kind, r)
		}
		res.Duration = time.Since(start)
		res.DurationMs = float64(res.Duration.Microseconds()) / 1000
	}()

	err := s.do(ctx, a, &res)
	if err != nil {
		res.Success = false
		res.Error = toError(err)
		if d := s.Dialog(); d != nil {
			res.Dialog = d
		}
	} else {
		res.Success = true
	}
	return res
}

func toError(err error) *Error {
	var de *Error
	if asError(err, &de) {
		return de
	}
	return Errorf(CDPError, err, "action failed")
}

func (s *Service) do(ctx context.Context, a Action, res *ActionResult) error {
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
	if !knownKind(a.Kind) {
		return Errorf(ValidationError, nil, "unknown action %q: use one of %s", a.Kind, strings.Join(ActionKinds, ", "))
	}
	if d := s.Dialog(); d != nil && a.Kind != "dialog" {
		res.Dialog = d
		return dialogOpen(d, "cannot "+a.Kind)
	}

	if a.Kind == "snapshot" {
		// A fresh capture on request: the invalidation above forces it.
		next, err := s.capture(ctx)
		if err != nil {
			return err
		}
		s.fillDiff(res, prev, next)
		return nil
	}

	var t *target
	if needsNode(a) {
		snap, err := s.snapshotForActionLocked(ctx, cur)
		if err != nil {
			return err
		}
		if t, err = s.resolve(ctx, page, snap, a.ID); err != nil {
			return err
		}
		prev = snap
	}

	mark := s.mark()
	var dlg *DialogInfo
	switch a.Kind {
	case "click":
		dlg, err = s.click(ctx, page, t, a, res)
	case "hover":
		err = s.hover(ctx, page, t, a)
	case "type":
		dlg, err = s.typeText(ctx, page, t, a.Text)
	case "key":
		dlg, err = s.pressKey(ctx, page, t, a.Key, a.Modifiers)
	case "scroll":
		err = s.scroll(ctx, page, t, a.DX, a.DY)
	case "select":
		err = s.selectOption(ctx, t, a.Value)
	case "navigate", "back", "forward", "reload":
		dlg, err = s.navigate(ctx, page, a)
	case "dialog":
		err = s.handleDialog(ctx, page, a)
	}
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
		return nil
	}
	settled := s.settle(ctx, mark)
	ch := s.changesSince(mark)
	ch.Unsettled = !settled
	res.Changes = ch
	if d := s.Dialog(); d != nil {
		res.Dialog = d
		return nil
	}
	if s.cfg.NoResnapshot {
		return nil
	}
	next, err := s.capture(ctx)
	if err != nil {
		// The action itself worked; the page may be mid-navigation. The
		// next read captures again.
		return nil
	}
	s.fillDiff(res, prev, next)
	return nil
}

// snapshotForActionLocked returns the snapshot to resolve an ID in: cur
// (the snapshot cached when the action began) if still fresh, else a new
// capture (IDs survive it), else an error when nothing was ever captured.
// Callers hold opMu.
func (s *Service) snapshotForActionLocked(ctx context.Context, cur *Snapshot) (*Snapshot, error) {
	if cur != nil && s.fresh(cur) {
		return cur, nil
	}
	return s.snapshotForAction(ctx)
}

func knownKind(k string) bool {
	for _, x := range ActionKinds {
		if x == k {
			return true
		}
	}
	return false
}

// needsNode says whether an action must resolve a node.
func needsNode(a Action) bool {
	switch a.Kind {
	case "click", "hover", "type", "select":
		return true
	case "key", "scroll":
		return a.ID != ""
	}
	return false
}

// fillDiff compares two snapshots by ID (IDs survive re-snapshots of the
// same document, so the difference is what the action added and removed).
func (s *Service) fillDiff(res *ActionResult, prev, next *Snapshot) {
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
	d := Diff(prev, next)
	added, removed := len(d.Added), len(d.Removed)
	res.Changes.Added, res.Changes.Removed, res.Changes.Renamed = added, removed, len(d.Renamed)
	if added+removed+len(d.Renamed) > 0 {
		res.Changes.DomChanged = true
	}
	if !res.Changes.Navigated {
		res.Changes.NewURL = ""
	}
}
