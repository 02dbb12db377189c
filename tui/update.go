package tui

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"

	"domscope/dom"
	"domscope/dom/export"
	"domscope/dom/script"
	"domscope/keymap"
	"domscope/themes"
	"domscope/views"
)

// Update routes every message. It never waits: browser work runs in
// commands, and their replies come back here.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	before, focus := m.panes.tree.SelectedID(), m.panes.focus
	cmd := m.update(msg)
	if m.panes.zoomed && m.panes.focus != focus {
		m.layout() // the other pane takes the whole body
	}
	// A page change reported while other work held the page is taken now.
	return m, tea.Batch(cmd, m.afterSelection(before), m.pictureAfter(msg), m.followNow(), m.agentRefresh(), m.settleAfterShow(), m.queryAfter())
}

func (m *Model) update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.w, m.h = msg.Width, msg.Height
		m.layout()
		m.clearCache()
		return m.broadcast(msg)
	case tea.BackgroundColorMsg:
		if m.cfg.Theme == "" || m.cfg.Theme == "auto" {
			m.dark = msg.IsDark()
			m.restyle()
		}
		return nil
	case tea.KeyPressMsg:
		return m.key(msg)
	case tea.MouseClickMsg:
		if len(m.layers) > 0 {
			return nil // the panes are behind a layer
		}
		return m.click(msg.Mouse())
	case tea.MouseWheelMsg:
		if l := m.top(); l != nil {
			if a, ok := l.handle(m.layerCtx(), keymap.None, msg); ok {
				return m.apply(l, a)
			}
		}
		return m.wheel(msg.Mouse())
	case spinner.TickMsg:
		if m.op.busy == nil && m.op.bg == nil {
			return nil
		}
		var cmd tea.Cmd
		m.op.spin, cmd = m.op.spin.Update(msg)
		return cmd
	case clockMsg:
		return clock()
	case formattedMsg:
		switch {
		case msg.err != nil:
			m.setFlash("could not format the flat view: "+msg.err.Error(), true)
		case msg.out.src != m.doc.view && m.doc.view != nil:
			// the flat view changed meanwhile (new snapshot, rules): format it again
			return m.formatAs(msg.out.json)
		default:
			m.panes.flat.apply(msg.out, m.doc.decisions())
			m.status.flash = ""
			m.syncFromTree()
		}
		return nil
	case copyReadyMsg:
		if msg.err != nil {
			m.setFlash("could not format the flat view: "+msg.err.Error(), true)
			return nil
		}
		return m.copyText(msg.what, msg.text)
	case queryShownMsg:
		return m.gotQuery(msg)
	case reflattenedMsg:
		if msg.snap != m.doc.snap || msg.seq != m.doc.flatSeq {
			return nil // a newer snapshot or toggle made its own
		}
		m.showView(msg.d)
		m.syncFromTree()
		return m.broadcast(snapshotShown{rebuilt: true})
	case phaseMsg:
		if msg.gen != m.doc.gen || m.op.busy == nil {
			return nil
		}
		m.op.busy.phase = msg.phase
		return msg.next
	case snapshotMsg:
		return m.gotSnapshot(msg)
	case agentMsg:
		return m.gotAgent(msg)
	case eventsMsg:
		return m.gotEvents(msg)
	case followMsg:
		return m.gotFollow(msg)
	case targetsMsg:
		if !msg.auto {
			m.op.busy = nil
		}
		if msg.err != nil {
			m.setFlash("cannot list tabs: "+msg.err.Error(), true)
			return nil
		}
		if msg.auto && (len(m.layers) > 0 || m.conn.state == dom.Connected) {
			return nil // the user moved on, or the tab came back meanwhile
		}
		m.push(newTabsLayer(m.layerCtx(), msg.targets))
		return nil
	case attachedMsg:
		if msg.gen != m.doc.gen {
			if msg.actor != nil {
				_ = msg.actor.Close()
			}
			return nil
		}
		m.op.busy = nil
		if msg.err != nil {
			m.setFlash("cannot attach: "+msg.err.Error(), true)
			return nil
		}
		if m.cfg.Agent != nil {
			m.cfg.Agent.switchTab(msg.actor, msg.page)
		}
		return m.switchActor(msg.actor, msg.target)
	case exportedMsg:
		m.op.bg = nil
		var cmd tea.Cmd
		if msg.fresh != nil && msg.gen == m.doc.gen && m.op.busy == nil {
			cmd = m.gotSnapshot(snapshotMsg{gen: msg.gen, snap: msg.fresh})
		}
		switch {
		case msg.err != nil:
			m.setFlash("export failed: "+msg.err.Error(), true)
		default:
			head := "saved this capture to"
			if msg.fresh != nil {
				head = "the page had changed: saved it as it is now to"
			}
			use := "domscope open " + msg.path
			m.setFlash(head+" "+msg.path+" · open it with: "+use, false)
			m.push(newWrittenLayer(m.layerCtx(), "Capture saved", head, msg.path, "open it with:", "the open command", use))
		}
		return cmd
	case scriptWrittenMsg:
		m.scriptWritten(msg)
		return nil
	case hlTickMsg:
		if msg.seq != m.hl.seq || !m.hl.on || !m.live() {
			return nil
		}
		id := m.panes.tree.SelectedID()
		if id == m.hl.shown {
			return nil
		}
		m.hl.shown = id
		a, ctx := m.conn.actor, m.ctx
		return safe(func() tea.Msg {
			c, cancel := ctxTimeout(ctx, highlightTimeout)
			defer cancel()
			return hlDoneMsg{a.Highlight(c, id)}
		})
	case hlDoneMsg:
		return nil // best effort: a failed highlight must not get in the way
	case tabLeftMsg:
		return nil // best effort: the old tab keeps a highlight at worst
	case dialogDoneMsg:
		if msg.actor != m.conn.actor {
			return nil // the answer was for a tab the UI left since
		}
		m.closeDialog()
		if !msg.res.Success && msg.res.Error != nil {
			m.setFlash("dialog: "+msg.res.Error.Message, true)
		}
		if m.op.busy == nil {
			return m.refresh(false, "snapshot after the dialog")
		}
		return nil
	case stepPreviewMsg, stepDoneMsg:
		cmd, _ := m.stepMsg(msg)
		return cmd
	case panicMsg:
		m.op.busy, m.op.bg = nil, nil
		m.setFlash(msg.err.Error(), true)
		return nil
	}
	// Anything else (a paste, a text input's own messages) goes to the
	// top layer.
	if l := m.top(); l != nil {
		a, _ := l.handle(m.layerCtx(), keymap.None, msg)
		return m.apply(l, a)
	}
	return nil
}

// afterSelection schedules the browser highlight when the selection
// moved. It is debounced: only the last selection of a quick run is
// highlighted.
func (m *Model) afterSelection(before string) tea.Cmd {
	if !m.hl.on || !m.live() || m.panes.tree.SelectedID() == before {
		return nil
	}
	m.hl.seq++
	seq := m.hl.seq
	return tea.Tick(highlightDelay, func(time.Time) tea.Msg { return hlTickMsg{seq} })
}

// live reports whether there is a page to act on.
func (m *Model) live() bool { return m.conn.actor != nil && m.conn.savedAs == "" }

// mode is how keys are read now. That is the top layer's way, else the
// panes'.
func (m *Model) mode() keymap.Mode {
	if l := m.top(); l != nil {
		return l.mode()
	}
	if m.conn.savedAs != "" {
		return keymap.ReadOnly
	}
	return keymap.Normal
}

func (m *Model) key(msg tea.KeyPressMsg) tea.Cmd {
	mode := m.mode()
	a := m.km.Command(msg, mode)
	if a == keymap.Quit {
		return tea.Quit
	}
	m.status.flash = ""
	// The top layer has the keyboard. The panes get what no layer covers.
	if l := m.top(); l != nil {
		act, _ := l.handle(m.layerCtx(), a, msg)
		return m.apply(l, act)
	}
	if a == keymap.None {
		if k := msg.String(); k != "" {
			m.status.flash, m.status.flashBad = views.Clean(k)+": no such key — ? for help", true
		}
		return nil
	}
	return m.normalKey(a)
}

// formatAs formats the flat view as json or text in a command. At 100k
// nodes that takes most of a second, and input must not wait for it. The
// pane keeps the old format until the new one arrives.
func (m *Model) formatAs(asJSON bool) tea.Cmd {
	v := m.doc.view
	m.setFlash("formatting the flat view as "+map[bool]string{true: "json", false: "text"}[asJSON]+"…", false)
	return safe(func() tea.Msg {
		out, err := formatFlat(v, asJSON)
		return formattedMsg{out: out, err: err}
	})
}

// act runs one action. Then it takes the snapshot the service made after
// it.
func (m *Model) act(a dom.Action) tea.Cmd { return m.actOn(a, false) }

// actOn is act for an action whose text is secret: secret is set, or its
// node is a sensitive field. From here on the text exists only in the
// action sent to the page. Every string made for people has it masked.
// That is the busy line, the details pane, an error message, an export.
func (m *Model) actOn(a dom.Action, secret bool) tea.Cmd {
	if !m.live() {
		m.setFlash("no browser: actions are disabled", true)
		return nil
	}
	if m.doc.snap != nil && a.ID != "" {
		secret = secret || m.doc.snap.Node(a.ID).TakesSecret()
	}
	desc := describe(a, secret)
	actor, rec, before := m.conn.actor, m.rec, m.doc.snap
	// Marks show what the previous action changed; a new action starts clean.
	m.doc.marks = nil
	m.clearCache()
	bound := m.opBound()
	return m.startOp(views.Clean(desc), func(ctx context.Context, gen int) tea.Msg {
		// aimed before the action, on the page as the snapshot shows it
		aimed := script.AimAt(ctx, actor, before, a)
		res := conceal(actor.Do(ctx, a), a, secret)
		late := gaveUp(ctx, &res, bound)
		// recorded here, as it happened, even if the UI drops the reply
		_, _, recErr := rec.RecordAimed(before, a, aimed, res, desc)
		if late {
			// nothing is left of the bound to take a snapshot in
			return snapshotMsg{gen: gen, res: &res, desc: desc, recErr: recErr}
		}
		if res.Dialog != nil {
			// the page is blocked until the dialog is answered: snapshot after
			return snapshotMsg{gen: gen, res: &res, desc: desc, recErr: recErr}
		}
		if res.Error != nil && (res.Error.Code == dom.NotAttached || res.Error.Code == dom.TargetNotFound) {
			return snapshotMsg{gen: gen, res: &res, desc: desc, recErr: recErr} // no page to snapshot
		}
		snap, err := actor.Snapshot(ctx, false)
		return snapshotMsg{gen: gen, snap: snap, err: err, res: &res, desc: desc, recErr: recErr}
	})
}

// refresh takes a snapshot. force asks for a new capture even if the
// cache is fresh.
func (m *Model) refresh(force bool, label string) tea.Cmd {
	if !m.live() {
		return nil
	}
	actor := m.conn.actor
	return m.startOp(label, func(ctx context.Context, gen int) tea.Msg {
		snap, err := actor.Snapshot(ctx, force)
		return snapshotMsg{gen: gen, snap: snap, err: err}
	})
}

// startOp runs browser work in a command with a timeout and shows a
// spinner. It bumps the generation so any older reply is dropped. One at
// a time.
func (m *Model) startOp(label string, run func(ctx context.Context, gen int) tea.Msg) tea.Cmd {
	if m.op.busy != nil {
		m.setFlash("still "+m.op.busy.label+" · wait, or esc to cancel it", true)
		return nil
	}
	m.doc.gen++
	gen := m.doc.gen
	ctx, cancel := ctxTimeout(m.ctx, m.opBound())
	report, wait := phases(ctx, gen)
	ctx = dom.WithProgress(ctx, report)
	m.op.busy = &op{label: label, start: m.now(), cancel: cancel}
	in := m.deriveInput()
	return tea.Batch(safe(func() tea.Msg {
		defer cancel()
		// The batch holds this function until its other commands end: it
		// must not keep the snapshot shown before (a whole tree), which
		// in and what run aimed at hold. Deferred, so a panic drops it too.
		defer func() { in, run = deriveIn{}, nil }()
		return in.complete(run(ctx, gen)) // what it shows is made here, not in Update
	}), m.op.spin.Tick, wait)
}

// cancel gives up on the operation in flight, or closes/clears what is open.
func (m *Model) cancel() tea.Cmd {
	switch {
	case m.op.busy != nil:
		m.op.busy.cancel()
		m.setFlash(m.op.busy.label+": cancelled", false)
		m.op.busy = nil
		m.doc.gen++ // its reply, if any, is now stale
	case m.panes.flat.query != "":
		m.leaveQuery()
	case m.panes.flat.filterText != "":
		m.setFlatFilter("")
		m.setFlash("flat filter cleared", false)
	case m.search.query != "":
		m.runSearch("", false)
	case m.panes.tree.interactiveOnly:
		m.panes.tree.SetInteractiveOnly(false)
		m.syncFromTree()
	}
	return nil
}

func (m *Model) gotSnapshot(msg snapshotMsg) tea.Cmd {
	if msg.gen != m.doc.gen {
		return nil // the page or the question changed since; drop it
	}
	m.op.busy = nil
	if msg.res != nil {
		r := *msg.res
		m.status.last, m.status.lastDesc = &r, msg.desc
		if r.Dialog != nil {
			m.showDialog(r.Dialog)
		}
	}
	if msg.err != nil {
		m.setFlash("snapshot failed: "+msg.err.Error(), true)
		if m.doc.snap != nil {
			m.status.stale = "snapshot failed"
		}
		return nil
	}
	if msg.snap == nil {
		if r := msg.res; r != nil && r.Error != nil && r.Error.Code == dom.Timeout {
			m.setFlash(r.Error.Message, true)
		}
		m.recordError(msg.recErr)
		return nil // an action that opened a dialog: the snapshot follows its answer
	}
	prev := m.doc.view
	m.showSnapshot(msg.snap, msg.rebuilt, msg.shown)
	m.recordError(msg.recErr)
	if msg.agent != "" {
		m.setFlash(msg.agent, msg.agentBad)
	}
	return tea.Batch(m.broadcast(snapshotShown{rebuilt: msg.rebuilt}), m.afterShown(msg, prev))
}

func (m *Model) gotEvents(msg eventsMsg) tea.Cmd {
	if msg.actor != m.conn.actor {
		return nil // a tab we left
	}
	var cmd tea.Cmd
	for _, ev := range msg.events {
		switch ev.Kind {
		case "state":
			was := m.conn.state
			m.conn.state = ev.State
			if ev.State == dom.Connected && was != dom.Connected {
				m.setFlash("browser connection is back", false)
				cmd = m.refresh(true, "snapshot after reconnecting")
			}
			if ev.State == dom.Reconnecting && dom.CodeOf(ev.Err) == dom.TargetNotFound && m.cfg.Browser != nil {
				// back without this tab, and still looking for it
				m.setFlash("the browser is back, but not this tab (nor its URL): pick a tab, or wait for it", true)
				cmd = tea.Batch(cmd, m.fetchTargets(true))
			}
			if ev.State == dom.Disconnected && was != dom.Disconnected {
				if dom.CodeOf(ev.Err) == dom.TargetNotFound && m.cfg.Browser != nil {
					// the browser is back without this tab: offer the tabs it has
					m.setFlash("the browser is back, but not this tab (nor its URL): pick a tab", true)
					cmd = tea.Batch(cmd, m.fetchTargets(true))
				} else {
					m.setFlash("lost the browser: actions fail until it is back (the last snapshot stays on screen; T picks a tab)", true)
				}
			}
		case "dialog":
			m.showDialog(ev.Dialog)
		case "dialog-closed":
			m.closeDialog()
		case "invalidated":
			if m.op.busy == nil {
				m.status.stale = "page changed"
			}
		case "navigated":
			if m.op.busy == nil {
				m.status.stale = "navigated"
			}
		case "page-changed":
			cmd = tea.Batch(cmd, m.pageChanged(ev.Busy))
		}
	}
	if msg.closed {
		return cmd
	}
	return tea.Batch(cmd, waitEvents(m.conn.actor))
}

func (m *Model) answerDialog(l *dialogLayer, accept bool) tea.Cmd {
	if !m.live() {
		m.pop(l)
		return nil
	}
	a := dom.Action{Kind: "dialog", Accept: accept, Text: l.answer()}
	actor, ctx, rec, before := m.conn.actor, m.ctx, m.rec, m.doc.snap
	verb := "dismissed"
	if accept {
		verb = "accepted"
	}
	m.setFlash("dialog "+verb, false)
	return safe(func() tea.Msg {
		c, cancel := ctxTimeout(ctx, opTimeout)
		defer cancel()
		res := actor.Do(c, a)
		_, _, _ = rec.Record(before, a, res, describe(a, false))
		return dialogDoneMsg{actor: actor, res: res}
	})
}

func (m *Model) listTargets() tea.Cmd {
	if m.cfg.Browser == nil {
		m.setFlash("tab picking needs a browser connection (this session was given a single page)", true)
		return nil
	}
	if m.op.busy != nil {
		m.setFlash("still "+m.op.busy.label+" · wait, or esc to cancel it", true)
		return nil
	}
	m.op.busy = &op{label: "listing tabs", start: m.now(), cancel: func() {}}
	return tea.Batch(m.fetchTargets(false), m.op.spin.Tick)
}

// fetchTargets lists the browser's tabs in a command. The Browser redials
// a lost endpoint, so after a restart this is the new browser's list.
// auto means the UI asked by itself (the tab was lost), not the user with
// T. Then no busy state is taken, and the reply may find the picker
// unwanted.
func (m *Model) fetchTargets(auto bool) tea.Cmd {
	b, ctx := m.cfg.Browser, m.ctx
	return safe(func() tea.Msg {
		c, cancel := ctxTimeout(ctx, opTimeout)
		defer cancel()
		ts, err := b.Targets(c)
		return targetsMsg{targets: ts, err: err, auto: auto}
	})
}

func (m *Model) attach(t dom.TargetInfo) tea.Cmd {
	if m.cfg.NewActor == nil {
		m.setFlash("switching tabs is not wired in this build (Config.NewActor is nil)", true)
		return nil
	}
	if m.doc.snap != nil && t.ID == m.doc.snap.TargetID && m.conn.state == dom.Connected {
		m.setFlash("already on this tab", false)
		return nil
	}
	b, mk, off := m.cfg.Browser, m.cfg.NewActor, dom.CopyRules(m.doc.tierOff)
	return m.startOp("attaching to “"+views.Clean(t.Title)+"”", func(ctx context.Context, gen int) tea.Msg {
		p, err := b.Attach(ctx, t.ID)
		if err != nil {
			return attachedMsg{gen: gen, err: err}
		}
		a := mk(p)
		if _, err := a.SetTierRules(off); err != nil {
			return attachedMsg{gen: gen, err: err}
		}
		return attachedMsg{gen: gen, page: p, actor: a, target: t}
	})
}

// switchActor moves the UI to another tab's service.
func (m *Model) switchActor(a dom.Actor, t dom.TargetInfo) tea.Cmd {
	leave := m.leaveTab(m.conn.actor, m.conn.own, m.hl.shown != "")
	m.conn.actor, m.conn.own = a, true
	m.conn.state = a.State()
	m.fol.inFlight, m.fol.pending, m.fol.missed, m.fol.busy = false, false, false, false
	m.applyFollowSetting() // paused stays paused on the new tab
	m.doc.snap, m.doc.before, m.doc.marks, m.doc.hasDiff = nil, beforeView{}, nil, false
	m.status.last, m.status.lastDesc, m.status.stale, m.hl.shown = nil, "", "", ""
	m.panes.tree = newTreePane()
	m.panes.flat = FlatPane{json: m.panes.flat.json}
	m.layout()
	m.doc.gen++
	m.setFlash("attached to “"+views.Clean(t.Title)+"”", false)
	return tea.Batch(leave, m.refresh(false, "taking the first snapshot"), waitEvents(a))
}

// leaveTab hides the highlight on the tab the UI left. It closes its
// service when the UI made it. It does so in a command: the old tab may
// take its time to answer, or never. Update does not wait for it.
func (m *Model) leaveTab(old dom.Actor, own, highlighted bool) tea.Cmd {
	if old == nil || (!own && !highlighted) {
		return nil
	}
	ctx := m.ctx
	return safe(func() tea.Msg {
		var err error
		if highlighted {
			c, cancel := ctxTimeout(ctx, highlightTimeout)
			err = old.Highlight(c, "")
			cancel()
		}
		if own {
			_ = old.Close()
		}
		return tabLeftMsg{actor: old, err: err}
	})
}

// move applies a movement command to a pane.
func move(p pane, c keymap.Command) {
	switch c {
	case keymap.Up:
		p.Move(-1)
	case keymap.Down:
		p.Move(1)
	case keymap.PageUp:
		p.Page(-1)
	case keymap.PageDown:
		p.Page(1)
	case keymap.Top:
		p.Top()
	case keymap.Bottom:
		p.Bottom()
	}
}

// jumpCounterpart moves the keyboard to the other pane, on the selected
// node's counterpart.
func (m *Model) jumpCounterpart() {
	if m.panes.focus == flatFocus {
		m.syncFromFlat()
		m.panes.focus = treeFocus
		return
	}
	id := m.panes.tree.SelectedID()
	if m.panes.flat.Line(id) < 0 {
		d, ok := m.doc.decisions().Lookup(id)
		switch {
		case ok && d.Into != "":
			m.setFlash(fmt.Sprintf("%s is not in the flat view (%s by %s); its place is %s", id, d.Kind, d.Rule, m.nodeName(d.Into)), false)
		default:
			m.setFlash(id+" is not in the flat view", true)
			return
		}
	}
	m.syncFromTree()
	m.panes.focus = flatFocus
}

var unsafeName = regexp.MustCompile(`[^a-zA-Z0-9.-]+`)

func (m *Model) exportName() string {
	host := "page"
	if m.doc.snap != nil {
		if u, err := url.Parse(m.doc.snap.URL); err == nil && u.Host != "" {
			host = u.Host
		}
	}
	host = strings.Trim(unsafeName.ReplaceAllString(host, "-"), "-")
	name := fmt.Sprintf("domscope-%s-%s.json.gz", host, m.now().Format("20060102-150405"))
	return name
}

func (m *Model) export(path string) tea.Cmd {
	if path == "" {
		return nil
	}
	if m.op.bg != nil {
		m.setFlash("still "+m.op.bg.label+" · wait for it to finish", true)
		return nil
	}
	// 100k nodes take seconds to write: the footer says so meanwhile
	m.op.bg = &op{label: "exporting…", start: m.now()}
	s, opts, off, last, desc, rec := m.doc.snap, m.doc.flatOpts, dom.CopyRules(m.doc.tierOff), m.status.last, m.status.lastDesc, m.rec
	pic, picSeq := m.pic.shot, m.pic.shotSeq // masked by the service when taken
	opts.Disabled = dom.CopyRules(opts.Disabled)
	var actor dom.Actor
	if m.live() {
		actor = m.conn.actor
	}
	gen := m.doc.gen
	return tea.Batch(safe(func() tea.Msg {
		c, err := export.NewSavedCapture(s, opts, off, last)
		var fresh *dom.Snapshot
		if errors.Is(err, dom.ErrPageChanged) && actor != nil {
			// The live model keeps no copy of the capture and has moved on
			// with the page. Export the page as it is now, and show it.
			ctx, cancel := context.WithTimeout(context.Background(), opTimeout)
			fresh, err = actor.Snapshot(ctx, true)
			cancel()
			if err == nil {
				c, err = export.NewSavedCapture(fresh, opts, off, nil)
			}
		}
		if err != nil {
			return exportedMsg{path: path, err: err}
		}
		if last != nil {
			c.LastActionDesc = desc
		}
		c.Session = rec.Log() // what was done in this session, step by step
		if sh, ok := actor.(shooter); ok && (pic == nil || fresh != nil) {
			// none taken yet, or of the page before it moved on: take one,
			// so open can show it (P); a page that will not hold still
			// is saved without
			ctx, cancel := context.WithTimeout(context.Background(), exportShotTimeout)
			if p, err := sh.Screenshot(ctx); err == nil {
				pic, picSeq = p, s.Seq
				if fresh != nil {
					picSeq = fresh.Seq
				}
			} else if fresh != nil {
				pic = nil
			}
			cancel()
		}
		if err := c.SetPicture(pic, picSeq); err != nil {
			return exportedMsg{path: path, err: err}
		}
		if abs, err := filepath.Abs(path); err == nil {
			path = abs
		}
		// the configured output_dir may not exist yet
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			return exportedMsg{path: path, err: err}
		}
		return exportedMsg{path: path, err: c.WriteFile(path), fresh: fresh, gen: gen}
	}), m.op.spin.Tick)
}

// click selects the row under the mouse, in whichever pane it is.
func (m *Model) click(ms tea.Mouse) tea.Cmd {
	if ms.Button != tea.MouseLeft {
		return nil
	}
	s := m.screen()
	for i, p := range m.panes.list() {
		r := s.paneRects()[i]
		if !r.contains(ms.X, ms.Y) {
			continue
		}
		if row, ok := p.RowAt(ms.Y - r.y - 1); ok && ms.Y < r.y+r.h-1 {
			m.panes.focusOn(p)
			p.SetCursor(row)
			m.panes.follow(p)
		}
	}
	return nil
}

// wheel scrolls the pane under the mouse.
func (m *Model) wheel(ms tea.Mouse) tea.Cmd {
	d := 0
	switch ms.Button {
	case tea.MouseWheelUp:
		d = -3
	case tea.MouseWheelDown:
		d = 3
	default:
		return nil
	}
	s := m.screen()
	p := pane(&m.panes.tree)
	if s.flat.contains(ms.X, ms.Y) {
		p = &m.panes.flat
	}
	p.Scroll(d)
	if p == m.panes.focused() {
		m.panes.follow(p)
	}
	return nil
}

func (m *Model) restyle() {
	m.st = themes.For(m.dark, m.noColor)
	m.clearCache()
}
