package tui

import (
	"context"
	"time"

	tea "charm.land/bubbletea/v2"

	"domscope/dom"
	"domscope/dom/flatten"
	"domscope/themes"
	"domscope/views"
)

// Work done once: the flat view, its tokens and the diff of a new
// snapshot are made in the command that took it, off the Update loop.
// The service gives them when it has them (it made them for the action's
// own result). Update only shows them.

// derived is what the UI shows of a snapshot beside its tree.
type derived struct {
	view   *flatten.View
	tokens int
	err    error // the flat view could not be formatted
	// base is the snapshot on screen when the command began: the diff is
	// against it, and it is only of use while it is still on screen.
	base    *dom.Snapshot
	diff    flatten.SnapshotDiff
	hasDiff bool
	// same (follow mode): showing the snapshot would change nothing on
	// screen, so the marks of the last real change stay.
	same bool
}

// viewMaker is a service that makes the views and diffs once and shares
// them (dom/live's Service); other actors get them made here.
type viewMaker interface {
	View(snap *dom.Snapshot, opts dom.Options, asJSON bool) (*flatten.View, error)
	Diff(prev, next *dom.Snapshot) flatten.SnapshotDiff
}

// looker reads what a view shows besides the capture: where scroll
// containers stand and what covers each control (live.Service).
type looker interface {
	LookIn(ctx context.Context, snap *dom.Snapshot, covered bool) (*dom.Look, error)
}

// lookTimeout bounds the one call a new snapshot's look takes.
const lookTimeout = 20 * time.Second

// deriveIn is what a command needs to derive, read on the Update loop.
type deriveIn struct {
	ctx      context.Context
	actor    dom.Actor
	base     *dom.Snapshot
	baseView *flatten.View
	opts     dom.Options
	json     bool
	// look is lookSnap's look, known already; reader reads another
	// snapshot's (nil: none is read, as on the Update loop).
	lookSnap *dom.Snapshot
	look     *dom.Look
	reader   looker
}

func (m *Model) deriveInput() deriveIn {
	o := m.doc.flatOpts
	o.Disabled = dom.CopyRules(o.Disabled)
	in := deriveIn{ctx: m.ctx, actor: m.conn.actor, base: m.doc.snap, baseView: m.doc.view, opts: o, json: m.panes.flat.json}
	if v := m.doc.view; v != nil {
		in.lookSnap, in.look = v.Snap, v.Opts.Look
	}
	in.reader, _ = m.conn.actor.(looker)
	return in
}

// lookOf is s's look: the one known, else one call to the page. A page
// that cannot say gives none: the view has no scroll or covered marks.
func (in deriveIn) lookOf(s *dom.Snapshot) *dom.Look {
	if s == in.lookSnap {
		return in.look
	}
	if in.reader == nil {
		return nil
	}
	ctx, cancel := ctxTimeout(in.ctx, lookTimeout)
	defer cancel()
	// no hit tests when the covered marks are switched off in x
	l, _ := in.reader.LookIn(ctx, s, in.opts.Covered && !in.opts.Disabled[flatten.FlatMarkCovered])
	return l
}

// derive makes what s shows (rebuilt: the same page with other tier
// rules, so no diff).
func (in deriveIn) derive(s *dom.Snapshot, rebuilt bool) *derived {
	d := &derived{base: in.base}
	in.opts.Look = in.lookOf(s)
	vm, _ := in.actor.(viewMaker)
	if vm != nil {
		d.view, d.err = vm.View(s, in.opts, in.json)
	} else {
		d.view, d.err = flatten.NewView(s, in.opts, in.json)
	}
	if d.err != nil {
		// the text format cannot fail: show that instead
		d.view, _ = flatten.NewView(s, in.opts, false)
	}
	d.tokens = d.view.Tokens()
	if rebuilt || in.base == nil || in.base.TargetID != s.TargetID {
		return d
	}
	d.hasDiff = true
	switch {
	case in.base == s:
	case vm != nil:
		d.diff = vm.Diff(in.base, s)
	default:
		d.diff = flatten.Diff(in.base, s)
	}
	return d
}

// complete fills in what a command's reply shows, on the command's
// goroutine; replies without a snapshot pass through.
func (in deriveIn) complete(msg tea.Msg) tea.Msg {
	switch r := msg.(type) {
	case snapshotMsg:
		if r.snap != nil && r.err == nil && r.shown == nil {
			r.shown = in.derive(r.snap, r.rebuilt)
		}
		return r
	case stepDoneMsg:
		if s := r.snap.snap; s != nil && r.snap.err == nil && r.snap.shown == nil {
			r.snap.shown = in.derive(s, r.snap.rebuilt)
		}
		return r
	}
	return msg
}

// fits says whether d can be shown as it is now: made against the
// snapshot on screen, with the rules and format in use.
func (m *Model) fits(d *derived, s *dom.Snapshot) bool {
	if d == nil || d.view == nil {
		return false
	}
	o := m.doc.flatOpts
	o.Look = d.view.Opts.Look // read per snapshot, in the command
	return d.base == m.doc.snap && d.err == nil && d.view.Matches(s, o, m.panes.flat.json)
}

// sameView reports whether showing s would change nothing on screen: the
// same nodes under the same parents, the same tree rows and the same
// flat view. It reads only s, d and the base, so it runs in the command.
func (in deriveIn) sameView(s *dom.Snapshot, d *derived) bool {
	old := in.base
	if old == nil || in.baseView == nil || old.TargetID != s.TargetID || len(old.ByID) != len(s.ByID) || !d.hasDiff || !d.diff.Empty() {
		return false
	}
	if d.view.Text != in.baseView.Text {
		return false
	}
	plain := themes.For(true, true)
	for id, n := range s.ByID {
		o := old.ByID[id]
		if o == nil || parentID(o) != parentID(n) {
			return false
		}
		if o != n && views.TreeLine(plain, views.TreeRow{Node: o}, 300, views.NotSelected) != views.TreeLine(plain, views.TreeRow{Node: n}, 300, views.NotSelected) {
			return false
		}
	}
	return true
}

func parentID(n *dom.VirtualNode) string {
	if n.Parent == nil {
		return ""
	}
	return n.Parent.ID
}

// settleAfterShow runs settleMemory in a command once a new snapshot is
// on screen (Run only: it sets the process's memory limit).
func (m *Model) settleAfterShow() tea.Cmd {
	if !m.doc.shownNew {
		return nil
	}
	m.doc.shownNew = false
	if !m.limitMemory {
		return nil
	}
	return safe(func() tea.Msg {
		settleMemory()
		return nil
	})
}
