package live

import (
	"weak"

	"domscope/dom"
	"domscope/dom/flatten"
)

// derived is what the service made of its latest snapshots, so neither
// it nor a client (the UI) makes it twice: flat views and one diff.
type derived struct {
	// views are of the newest snapshot asked for, at most maxViews.
	views []*flatten.View
	// diff is the last diff made; weak, so it keeps neither tree alive.
	diffPrev, diffNext weak.Pointer[dom.Snapshot]
	diff               flatten.SnapshotDiff
	// ahead is the text of the snapshot the action under way started
	// from, being made while the page settles (startText), or nil.
	ahead *textAhead
}

// textAhead is a snapshot's flat text made on its own goroutine.
type textAhead struct {
	snap  *dom.Snapshot
	done  chan struct{}
	lines []flatten.Line
	ok    bool // false when flattening panicked
}

// maxViews bounds the views of one snapshot (the UI's rules may differ
// from the defaults an action's changes are listed with).
const maxViews = 2

// View returns snap flattened with opts and formatted (indented JSON
// lines when asJSON, else text). The view is made once and shared. The
// service's own diff of an action reads the same view the UI then shows.
func (s *Service) View(snap *dom.Snapshot, opts dom.Options, asJSON bool) (*flatten.View, error) {
	if snap == nil {
		return nil, nil
	}
	s.mu.Lock()
	model := s.model
	s.mu.Unlock()
	// A tree that repeats one already flattened flattens the same.
	same, sameView := model.SameTree(snap), (*flatten.View)(nil)
	s.mu.Lock()
	var before *flatten.View // an earlier snapshot's, its tokens counted
	for _, v := range s.derived.views {
		if v.Matches(snap, opts, asJSON) {
			s.mu.Unlock()
			return v, nil
		}
		if v.Snap != snap && v.Counted() {
			before = v
		}
		if same != nil && v.Matches(same, opts, asJSON) {
			sameView = v
		}
	}
	s.mu.Unlock()
	v := sameView.SameTree(snap)
	if v == nil {
		var err error
		if v, err = flatten.NewView(snap, opts, asJSON); err != nil {
			return nil, err
		}
		// Its tokens are counted from the view before, line by line: only
		// the lines the action changed are counted again.
		v.CountAfter(before)
	}
	s.mu.Lock()
	// Only the newest snapshot's views are kept: an older one's would hold
	// its tree too. fillDiff has read the one before by now.
	s.keepViewsLocked(snap)
	d := &s.derived
	if len(d.views) >= maxViews {
		d.views = append(d.views[:0], d.views[len(d.views)-maxViews+1:]...)
	}
	d.views = append(d.views, v)
	s.mu.Unlock()
	return v, nil
}

// linesOf is snap's flat text with the default options. A view made
// already gives it, or the text startText is making. Else only the text
// is made, and nothing is cached:
// the snapshot captured to find an action's target (the one shown was
// too old) is never shown. Caching its view would hold its decisions
// through the action, and push out the shown view whose token counts
// the next view reuses.
func (s *Service) linesOf(snap *dom.Snapshot) []flatten.Line {
	opts := dom.DefaultOptions()
	s.mu.Lock()
	for _, v := range s.derived.views {
		if v.Matches(snap, opts, false) {
			s.mu.Unlock()
			return v.Lines
		}
	}
	t := s.derived.ahead
	s.mu.Unlock()
	if t != nil && t.snap == snap {
		<-t.done
		if t.ok {
			return t.lines
		}
	}
	return plainLines(snap)
}

// plainLines flattens snap with the default options and formats its
// text lines. The text has no timestamp, so the raw capture is left out:
// a refresh may rewrite the model's raw capture while startText runs.
func plainLines(snap *dom.Snapshot) []flatten.Line {
	c := *snap
	c.Raw = nil
	sd, _ := flatten.Flatten(&c, dom.DefaultOptions())
	return flatten.FormatTextLines(sd)
}

// startText starts making snap's text for textOf, unless a view has it.
// An action's diff reads the text of the snapshot it started from. No
// one may have viewed that snapshot: a script's first step, or one
// captured because the shown one was too old. Made after the re-snapshot,
// its text adds about 80 ms at 50,000 elements. While the action runs and
// the page settles, the process mostly waits. It returns what
// dropTextAhead lets go, or nil.
func (s *Service) startText(snap *dom.Snapshot) *textAhead {
	if snap == nil {
		return nil
	}
	opts := dom.DefaultOptions()
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, v := range s.derived.views {
		if v.Matches(snap, opts, false) {
			return nil
		}
	}
	t := &textAhead{snap: snap, done: make(chan struct{})}
	s.derived.ahead = t
	go func() {
		defer close(t.done)
		// A panic would end the process here. textOf flattens again
		// then, on the action's goroutine, where Do recovers from it.
		defer func() { _ = recover() }()
		t.lines = plainLines(snap)
		t.ok = true
	}()
	return t
}

// dropTextAhead lets go of t once its action ended: it holds a tree.
func (s *Service) dropTextAhead(t *textAhead) {
	if t == nil {
		return
	}
	s.mu.Lock()
	if s.derived.ahead == t {
		s.derived.ahead = nil
	}
	s.mu.Unlock()
}

// Diff returns what changed from prev to next, made once per pair.
func (s *Service) Diff(prev, next *dom.Snapshot) flatten.SnapshotDiff {
	wp, wn := weak.Make(prev), weak.Make(next)
	s.mu.Lock()
	if prev != nil && next != nil && s.derived.diffPrev == wp && s.derived.diffNext == wn {
		d := s.derived.diff
		s.mu.Unlock()
		return d
	}
	s.mu.Unlock()
	d := flatten.Diff(prev, next)
	s.mu.Lock()
	s.derived.diffPrev, s.derived.diffNext, s.derived.diff = wp, wn, d
	s.mu.Unlock()
	return d
}

// keepViewsOf drops the views of every snapshot but snap. After an action
// the one before is of no more use. At 50,000 elements its flattened tree
// and text are tens of megabytes.
func (s *Service) keepViewsOf(snap *dom.Snapshot) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.keepViewsLocked(snap)
}

func (s *Service) keepViewsLocked(snap *dom.Snapshot) {
	kept := s.derived.views[:0]
	for _, v := range s.derived.views {
		if v.Snap == snap {
			kept = append(kept, v)
		}
	}
	clear(s.derived.views[len(kept):])
	s.derived.views = kept
}
