package tui

import (
	tea "charm.land/bubbletea/v2"

	"domscope/dom"
	"domscope/views"
)

// Follow mode: the page may change by itself (a timer, a push, another
// client driving it over its own CDP connection). The service then says
// "page-changed" once the page is quiet. The UI takes a new snapshot and
// shows it as changes, the cursor staying on its node. F pauses it.

// follower is a service that can stop reporting the page's own changes
// while the UI is paused (dom/live's Service). An actor without it still
// follows; the UI then simply ignores its events while paused.
type follower interface {
	SetFollow(on bool)
}

// following is the follow-mode state of the UI.
type following struct {
	paused bool
	// inFlight: a follow snapshot is being taken
	inFlight bool
	// pending: the page changed while a snapshot could not be taken (one
	// in flight, an action, a dialog). One is taken when that ends, so a
	// burst of changes costs one snapshot, not one each
	pending bool
	// missed: a change was reported while paused, so resuming takes a
	// snapshot at once instead of waiting for the next change
	missed bool
	// busy: the page did not go quiet at the last report (a clock, a
	// feed); the service reports it every second anyway
	busy bool
	// flash is the footer line of the last follow update: the next one
	// replaces it, but never a message about something else
	flash string
}

// followMsg is the snapshot taken because the page changed by itself.
type followMsg struct {
	gen   int
	actor dom.Actor
	snap  *dom.Snapshot
	err   error
	shown *derived // made in the command, with whether anything changed
}

// followLabel is what the header says about follow mode.
func (m *Model) followLabel() string {
	switch {
	case !m.live():
		return ""
	case m.fol.paused:
		return "paused"
	case m.fol.busy:
		return "busy"
	}
	return "live"
}

// applyFollowSetting tells the actor whether the UI follows, so a paused
// service keeps the changes it saw for when following resumes.
func (m *Model) applyFollowSetting() {
	if f, ok := m.conn.actor.(follower); ok && m.live() {
		f.SetFollow(!m.fol.paused)
	}
}

// pageChanged handles the service's "page-changed"; busy says the page
// is still changing.
func (m *Model) pageChanged(busy bool) tea.Cmd {
	m.fol.busy = busy
	if m.fol.paused {
		m.fol.missed = true
		return nil
	}
	m.fol.pending = true
	return m.followNow()
}

// followNow takes the pending follow snapshot in a command. It waits while
// one is in flight or other work holds the page (an action, a refresh, a
// dialog). Update calls it again after every message, so it runs once
// that ends. It takes no busy state: the user's keys, actions included,
// are never refused because of it. A user operation started meanwhile
// bumps the generation and its reply is dropped.
func (m *Model) followNow() tea.Cmd {
	if !m.fol.pending || m.fol.inFlight || m.fol.paused || !m.live() || m.op.busy != nil {
		return nil
	}
	if _, ok := find[*dialogLayer](m); ok {
		return nil // the page is blocked; answering the dialog snapshots
	}
	m.fol.inFlight, m.fol.pending = true, false
	gen, actor, ctx, in := m.doc.gen, m.conn.actor, m.ctx, m.deriveInput()
	return safe(func() tea.Msg {
		c, cancel := ctxTimeout(ctx, opTimeout)
		defer cancel()
		// force: the cached snapshot predates the change; the service
		// refreshes incrementally when its live model allows
		snap, err := actor.Snapshot(c, true)
		msg := followMsg{gen: gen, actor: actor, snap: snap, err: err}
		if err == nil && snap != nil && snap != in.base {
			msg.shown = in.derive(snap, false)
			msg.shown.same = in.sameView(snap, msg.shown)
		}
		return msg
	})
}

func (m *Model) gotFollow(msg followMsg) tea.Cmd {
	if msg.actor != m.conn.actor {
		return nil // a tab we left (inFlight was reset when we left it)
	}
	m.fol.inFlight = false
	if msg.gen != m.doc.gen {
		// the user's own work since took (or takes) a newer snapshot;
		// a change it may have missed gets one more look after it
		m.fol.pending = true
		return nil
	}
	if m.fol.paused {
		m.fol.missed = true // paused while it was taken: the screen stays as it is
		return nil
	}
	if msg.err != nil {
		if dom.CodeOf(msg.err) != dom.NotAttached {
			m.setFlash("following the page: snapshot failed: "+msg.err.Error(), true)
			m.status.stale = "page changed"
		}
		return nil
	}
	if msg.snap == nil || msg.snap == m.doc.snap || (msg.shown != nil && msg.shown.same && msg.shown.base == m.doc.snap) {
		return nil // nothing on screen would change: keep the marks of what did
	}
	had := m.doc.snap != nil
	m.showSnapshot(msg.snap, false, msg.shown)
	if had && (m.status.flash == "" || m.status.flash == m.fol.flash) {
		// not logged: a page with a timer would fill the log
		m.fol.flash = "the page changed by itself · snapshot #" + itoa(msg.snap.Seq) + " · d lists changes · F pauses"
		m.status.flash, m.status.flashBad = m.fol.flash, false
	}
	return m.broadcast(snapshotShown{})
}

// toggleFollow is F: pause or resume following.
func (m *Model) toggleFollow() tea.Cmd {
	m.fol.paused = !m.fol.paused
	m.applyFollowSetting()
	if m.fol.paused {
		m.setFlash("follow paused: the panes keep this snapshot (F resumes, r refreshes)", false)
		return nil
	}
	m.setFlash("following the page again: its changes show as they happen (F pauses)", false)
	if m.fol.missed {
		m.fol.missed, m.fol.pending = false, true
		return m.followNow()
	}
	return nil
}

// showSnapshot shows a new snapshot (setSnapshot). The node under the
// cursor may be gone from the page. Then it puts the cursor on its nearest
// ancestor that is still there and says so. Else the cursor would sit on
// whatever row now stands where the node was.
func (m *Model) showSnapshot(s *dom.Snapshot, rebuilt bool, d *derived) {
	old, sel := m.doc.snap, m.panes.tree.Selected()
	m.setShown(s, rebuilt, d)
	if sel == nil || old == nil || m.doc.snap != s || old.TargetID != s.TargetID || m.doc.newDoc || s.Node(sel.ID) != nil {
		return
	}
	gone := views.Clean(sel.ID + " " + sel.Tag)
	if sel.Name != "" {
		gone += " " + views.Quote(sel.Name, 30)
	}
	for a := sel.Parent; a != nil; a = a.Parent {
		if s.Node(a.ID) != nil && m.panes.tree.Select(a.ID) {
			m.syncFromTree()
			m.setFlash(gone+" is gone from the page: the cursor is on "+m.nodeName(a.ID)+", where it was", false)
			return
		}
	}
	m.setFlash(gone+" is gone from the page", false)
}
