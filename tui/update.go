package tui

import (
	"context"
	"fmt"
	"net/url"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"

	"domscope/dom"
	"domscope/keymap"
	"domscope/themes"
	"domscope/views"
)

// Update routes every message. It never waits: browser work runs in
// commands whose replies come back here.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	before := m.tree.SelectedID()
	cmd := m.update(msg)
	return m, tea.Batch(cmd, m.afterSelection(before))
}

func (m *Model) update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.w, m.h = msg.Width, msg.Height
		m.layout()
		m.clearCache()
		if m.overlay != nil {
			m.overlay.scroll()
		}
		return nil
	case tea.BackgroundColorMsg:
		if m.cfg.Theme == "" || m.cfg.Theme == "auto" {
			m.dark = msg.IsDark()
			m.restyle()
		}
		return nil
	case tea.KeyPressMsg:
		return m.key(msg)
	case tea.PasteMsg:
		if m.prompt != nil {
			return m.prompt.update(msg)
		}
		return nil
	case tea.MouseClickMsg:
		return m.click(msg.Mouse())
	case tea.MouseWheelMsg:
		return m.wheel(msg.Mouse())
	case spinner.TickMsg:
		if m.busy == nil {
			return nil
		}
		var cmd tea.Cmd
		m.spin, cmd = m.spin.Update(msg)
		return cmd
	case clockMsg:
		return clock()
	case snapshotMsg:
		return m.gotSnapshot(msg)
	case eventsMsg:
		return m.gotEvents(msg)
	case targetsMsg:
		if !msg.auto {
			m.busy = nil
		}
		if msg.err != nil {
			m.setFlash("cannot list tabs: "+msg.err.Error(), true)
			return nil
		}
		if msg.auto && (m.overlay != nil || m.prompt != nil || m.conn == dom.Connected) {
			return nil // the user moved on, or the tab came back meanwhile
		}
		m.overlay = m.targetsOverlay(msg.targets)
		m.layoutOverlay()
		return nil
	case attachedMsg:
		if msg.gen != m.gen {
			if msg.actor != nil {
				_ = msg.actor.Close()
			}
			return nil
		}
		m.busy = nil
		if msg.err != nil {
			m.setFlash("cannot attach: "+msg.err.Error(), true)
			return nil
		}
		return m.switchActor(msg.actor, msg.target)
	case exportedMsg:
		if msg.err != nil {
			m.setFlash("export failed: "+msg.err.Error(), true)
		} else {
			m.setFlash("saved this capture to "+msg.path+" · open it with: domscope open "+msg.path, false)
		}
		return nil
	case hlTickMsg:
		if msg.seq != m.hlSeq || !m.highlight || !m.live() {
			return nil
		}
		id := m.tree.SelectedID()
		if id == m.hlShown {
			return nil
		}
		m.hlShown = id
		a, ctx := m.actor, m.ctx
		return safe(func() tea.Msg {
			c, cancel := ctxTimeout(ctx, highlightTimeout)
			defer cancel()
			return hlDoneMsg{a.Highlight(c, id)}
		})
	case hlDoneMsg:
		return nil // best effort: a failed highlight must not get in the way
	case dialogDoneMsg:
		m.dialog = nil
		if !msg.res.Success && msg.res.Error != nil {
			m.setFlash("dialog: "+msg.res.Error.Message, true)
		}
		if m.busy == nil {
			return m.refresh(false, "snapshot after the dialog")
		}
		return nil
	case panicMsg:
		m.busy = nil
		m.setFlash(msg.err.Error(), true)
		return nil
	}
	if m.prompt != nil {
		return m.prompt.update(msg)
	}
	return nil
}

// afterSelection schedules the browser highlight when the selection moved
// (debounced: only the last selection of a quick run is highlighted).
func (m *Model) afterSelection(before string) tea.Cmd {
	if !m.highlight || !m.live() || m.tree.SelectedID() == before {
		return nil
	}
	m.hlSeq++
	seq := m.hlSeq
	return tea.Tick(highlightDelay, func(time.Time) tea.Msg { return hlTickMsg{seq} })
}

// live reports whether there is a page to act on.
func (m *Model) live() bool { return m.actor != nil && m.savedAs == "" }

func (m *Model) mode() keymap.Mode {
	switch {
	case m.prompt != nil:
		return keymap.Prompt
	case m.dialog != nil:
		return keymap.Dialog
	case m.overlay != nil:
		return keymap.List
	case m.savedAs != "":
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
	m.flash = ""
	switch mode {
	case keymap.Prompt:
		switch a {
		case keymap.Cancel:
			m.prompt = nil
			return nil
		case keymap.Submit, keymap.SubmitEnter:
			p := m.prompt
			m.prompt = nil
			return m.submit(p, a == keymap.SubmitEnter)
		}
		return m.prompt.update(msg)
	case keymap.Dialog:
		switch a {
		case keymap.Accept, keymap.Dismiss:
			return m.answerDialog(a == keymap.Accept)
		}
		return nil
	case keymap.List:
		return m.listKey(a)
	}
	return m.normalKey(a)
}

func (m *Model) normalKey(a keymap.Command) tea.Cmd {
	if m.km.NeedsBrowser(a) && !m.live() {
		if m.savedAs != "" {
			m.setFlash("this is a saved capture ("+m.savedAs+"): there is no browser, so "+a.String()+" is disabled", true)
		} else {
			m.setFlash("no browser attached", true)
		}
		return nil
	}
	switch a {
	case keymap.Up:
		m.move(-1)
	case keymap.Down:
		m.move(1)
	case keymap.PageUp:
		m.move(-m.pageSize())
	case keymap.PageDown:
		m.move(m.pageSize())
	case keymap.Top:
		m.toEnd(false)
	case keymap.Bottom:
		m.toEnd(true)
	case keymap.Expand:
		m.focus = treeFocus
		m.tree.Expand()
		m.syncFromTree()
	case keymap.Collapse:
		m.focus = treeFocus
		m.tree.Collapse()
		m.syncFromTree()
	case keymap.Toggle:
		m.focus = treeFocus
		m.tree.Toggle()
	case keymap.ExpandAll:
		m.tree.SetAll(true)
		m.syncFromTree()
	case keymap.CollapseAll:
		m.tree.SetAll(false)
		m.syncFromTree()
	case keymap.SwitchPane:
		if m.focus == treeFocus {
			m.focus = flatFocus
			m.syncFromTree()
		} else {
			m.focus = treeFocus
		}
	case keymap.Counterpart:
		m.jumpCounterpart()
	case keymap.Search:
		m.prompt = newPrompt(promptSearch, "search name, role, tag, id, attribute", "", m.query, "e.g. new todo, button, #email", m.w)
	case keymap.SearchNext:
		m.nextMatch(1)
	case keymap.SearchPrev:
		m.nextMatch(-1)
	case keymap.FilterInteractive:
		m.tree.SetInteractiveOnly(!m.tree.interactiveOnly)
		if m.tree.interactiveOnly {
			m.setFlash("showing interactive nodes and their ancestors (i shows all)", false)
		}
		m.syncFromTree()
	case keymap.Format:
		m.flat.json = !m.flat.json
		if m.sd != nil {
			_ = m.flat.SetOutput(m.sd)
		}
		m.syncFromTree()
	case keymap.Rules:
		m.overlay = m.rulesOverlay("")
		m.layoutOverlay()
	case keymap.Diff:
		m.overlay = m.diffOverlay()
		m.layoutOverlay()
	case keymap.Help:
		m.overlay = m.helpOverlay()
		m.layoutOverlay()
	case keymap.Export:
		if m.snap == nil {
			m.setFlash("nothing to export yet", true)
			return nil
		}
		m.prompt = newPrompt(promptExport, "export this capture to", "", m.exportName(), "file.json", m.w)
	case keymap.Cancel:
		return m.cancel()
	case keymap.Highlight:
		m.highlight = !m.highlight
		if m.highlight {
			m.setFlash("browser highlight on", false)
			m.hlShown = ""
			m.hlSeq++
			seq := m.hlSeq
			return func() tea.Msg { return hlTickMsg{seq} }
		}
		m.setFlash("browser highlight off", false)
		m.hlShown = ""
		a, ctx := m.actor, m.ctx
		return safe(func() tea.Msg {
			c, cancel := ctxTimeout(ctx, highlightTimeout)
			defer cancel()
			return hlDoneMsg{a.Highlight(c, "")}
		})
	case keymap.Refresh:
		return m.refresh(true, "taking a new snapshot")
	case keymap.Targets:
		return m.listTargets()
	default:
		return m.pageAction(a)
	}
	return nil
}

// pageAction handles the keys that act on the page through the service.
func (m *Model) pageAction(a keymap.Command) tea.Cmd {
	n := m.tree.Selected()
	needNode := func(verb string) bool {
		if n == nil || m.snap == nil {
			m.setFlash("select a node to "+verb+" first", true)
			return false
		}
		return true
	}
	switch a {
	case keymap.Click:
		if needNode("click") {
			return m.act(dom.Action{Kind: "click", ID: n.ID})
		}
	case keymap.Hover:
		if needNode("hover") {
			return m.act(dom.Action{Kind: "hover", ID: n.ID})
		}
	case keymap.Type:
		if needNode("type into") {
			m.prompt = newPrompt(promptType, "type into "+m.nodeName(n.ID), n.ID, "", "text · enter types it · alt+enter types it and presses Enter", m.w)
			if n.Sensitive() {
				m.prompt.conceal()
			}
		}
	case keymap.Key:
		id, on := "", "the focused element"
		if n != nil && n.Tier != dom.Structural {
			id, on = n.ID, m.nodeName(n.ID)
		}
		m.prompt = newPrompt(promptKey, "press a key on "+on, id, "", "Enter, Escape, Tab, ArrowDown, ctrl+a, shift+Tab…", m.w)
	case keymap.Select:
		if needNode("select an option in") {
			m.prompt = newPrompt(promptSelect, "select an option in "+m.nodeName(n.ID), n.ID, "", "option value or label", m.w)
			if n.Sensitive() {
				m.prompt.conceal() // a card's expiry month is a <select>
			}
		}
	case keymap.ScrollDown:
		return m.act(dom.Action{Kind: "scroll", DY: 400})
	case keymap.ScrollUp:
		return m.act(dom.Action{Kind: "scroll", DY: -400})
	case keymap.Goto:
		u := ""
		if m.snap != nil {
			u = m.snap.URL
		}
		m.prompt = newPrompt(promptGoto, "go to", "", u, "https://…", m.w)
	case keymap.Back:
		return m.act(dom.Action{Kind: "back"})
	case keymap.Forward:
		return m.act(dom.Action{Kind: "forward"})
	case keymap.Reload:
		return m.act(dom.Action{Kind: "reload"})
	}
	return nil
}

// submit runs what a prompt asked for.
func (m *Model) submit(p *prompt, pressEnter bool) tea.Cmd {
	v := p.input.Value()
	switch p.kind {
	case promptType:
		if pressEnter {
			v += "\n"
		}
		return m.actOn(dom.Action{Kind: "type", ID: p.id, Text: v}, p.secret)
	case promptKey:
		k := strings.TrimSpace(v)
		if k == "" {
			m.setFlash("no key given", true)
			return nil
		}
		return m.act(dom.Action{Kind: "key", ID: p.id, Key: k})
	case promptSelect:
		return m.actOn(dom.Action{Kind: "select", ID: p.id, Value: v}, p.secret)
	case promptGoto:
		u := strings.TrimSpace(v)
		if u == "" {
			return nil
		}
		if !strings.Contains(u, "://") && !strings.HasPrefix(u, "about:") {
			u = "https://" + u
		}
		return m.act(dom.Action{Kind: "navigate", URL: u})
	case promptSearch:
		m.runSearch(strings.TrimSpace(v), true)
		return nil
	case promptExport:
		return m.export(strings.TrimSpace(v))
	}
	return nil
}

// act runs one action, then takes the snapshot the service made after it.
func (m *Model) act(a dom.Action) tea.Cmd { return m.actOn(a, false) }

// actOn is act for an action whose text is secret when secret is set or
// its node is a sensitive field: from here on the text exists only in the
// action sent to the page; every string made for people (the busy line,
// the details pane, an error message, an export) has it masked.
func (m *Model) actOn(a dom.Action, secret bool) tea.Cmd {
	if !m.live() {
		m.setFlash("no browser: actions are disabled", true)
		return nil
	}
	if m.snap != nil && a.ID != "" {
		secret = secret || m.snap.Node(a.ID).Sensitive()
	}
	desc := describe(a, secret)
	actor := m.actor
	// Marks show what the previous action changed; a new action starts clean.
	m.marks = nil
	m.clearCache()
	return m.startOp(views.Clean(desc), func(ctx context.Context, gen int) tea.Msg {
		res := conceal(actor.Do(ctx, a), a, secret)
		if res.Dialog != nil {
			// the page is blocked until the dialog is answered: snapshot after
			return snapshotMsg{gen: gen, res: &res, desc: desc}
		}
		if res.Error != nil && (res.Error.Code == dom.NotAttached || res.Error.Code == dom.TargetNotFound) {
			return snapshotMsg{gen: gen, res: &res, desc: desc} // no page to snapshot
		}
		snap, err := actor.Snapshot(ctx, false)
		return snapshotMsg{gen: gen, snap: snap, err: err, res: &res, desc: desc}
	})
}

// refresh takes a snapshot (force: a new capture even if the cache is fresh).
func (m *Model) refresh(force bool, label string) tea.Cmd {
	if !m.live() {
		return nil
	}
	actor := m.actor
	return m.startOp(label, func(ctx context.Context, gen int) tea.Msg {
		snap, err := actor.Snapshot(ctx, force)
		return snapshotMsg{gen: gen, snap: snap, err: err}
	})
}

// startOp runs browser work in a command with a timeout, shows a spinner
// and bumps the generation so any older reply is dropped. One at a time.
func (m *Model) startOp(label string, run func(ctx context.Context, gen int) tea.Msg) tea.Cmd {
	if m.busy != nil {
		m.setFlash("still "+m.busy.label+" · wait, or esc to cancel it", true)
		return nil
	}
	m.gen++
	gen := m.gen
	ctx, cancel := ctxTimeout(m.ctx, opTimeout)
	m.busy = &op{label: label, start: m.now(), cancel: cancel}
	return tea.Batch(safe(func() tea.Msg {
		defer cancel()
		return run(ctx, gen)
	}), m.spin.Tick)
}

// cancel gives up on the operation in flight, or closes/clears what is open.
func (m *Model) cancel() tea.Cmd {
	switch {
	case m.busy != nil:
		m.busy.cancel()
		m.setFlash(m.busy.label+": cancelled", false)
		m.busy = nil
		m.gen++ // its reply, if any, is now stale
	case m.query != "":
		m.runSearch("", false)
	case m.tree.interactiveOnly:
		m.tree.SetInteractiveOnly(false)
		m.syncFromTree()
	}
	return nil
}

func (m *Model) gotSnapshot(msg snapshotMsg) tea.Cmd {
	if msg.gen != m.gen {
		return nil // the page or the question changed since; drop it
	}
	m.busy = nil
	if msg.res != nil {
		r := *msg.res
		m.last, m.lastDesc = &r, msg.desc
		if r.Dialog != nil {
			m.dialog = r.Dialog
		}
	}
	if msg.err != nil {
		m.setFlash("snapshot failed: "+msg.err.Error(), true)
		if m.snap != nil {
			m.stale = "snapshot failed"
		}
		return nil
	}
	if msg.snap == nil {
		return nil // an action that opened a dialog: the snapshot follows its answer
	}
	m.setSnapshot(msg.snap, msg.rebuilt)
	if msg.rebuilt && m.overlay != nil && m.overlay.kind == overlayRules {
		m.overlay = m.rulesOverlay(m.overlay.key())
		m.layoutOverlay()
	}
	return nil
}

func (m *Model) gotEvents(msg eventsMsg) tea.Cmd {
	if msg.actor != m.actor {
		return nil // a tab we left
	}
	var cmd tea.Cmd
	for _, ev := range msg.events {
		switch ev.Kind {
		case "state":
			was := m.conn
			m.conn = ev.State
			if ev.State == dom.Connected && was != dom.Connected {
				m.setFlash("browser connection is back", false)
				cmd = m.refresh(true, "snapshot after reconnecting")
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
			m.dialog = ev.Dialog
		case "dialog-closed":
			m.dialog = nil
		case "invalidated":
			if m.busy == nil {
				m.stale = "page changed"
			}
		case "navigated":
			if m.busy == nil {
				m.stale = "navigated"
			}
		}
	}
	if msg.closed {
		return cmd
	}
	return tea.Batch(cmd, waitEvents(m.actor))
}

func (m *Model) answerDialog(accept bool) tea.Cmd {
	d := m.dialog
	if d == nil || !m.live() {
		m.dialog = nil
		return nil
	}
	a := dom.Action{Kind: "dialog", Accept: accept, Text: d.DefaultPrompt}
	actor, ctx := m.actor, m.ctx
	verb := "dismissed"
	if accept {
		verb = "accepted"
	}
	m.setFlash("dialog "+verb, false)
	return safe(func() tea.Msg {
		c, cancel := ctxTimeout(ctx, opTimeout)
		defer cancel()
		return dialogDoneMsg{actor.Do(c, a)}
	})
}

func (m *Model) listTargets() tea.Cmd {
	if m.cfg.Browser == nil {
		m.setFlash("tab picking needs a browser connection (this session was given a single page)", true)
		return nil
	}
	if m.busy != nil {
		m.setFlash("still "+m.busy.label+" · wait, or esc to cancel it", true)
		return nil
	}
	m.busy = &op{label: "listing tabs", start: m.now(), cancel: func() {}}
	return tea.Batch(m.fetchTargets(false), m.spin.Tick)
}

// fetchTargets lists the browser's tabs in a command. The Browser redials
// a lost endpoint, so after a restart this is the new browser's list.
// auto: the UI asked by itself (the tab was lost), not the user with T, so
// no busy state is taken and the reply may find the picker unwanted.
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
	if m.snap != nil && t.ID == m.snap.TargetID && m.conn == dom.Connected {
		m.setFlash("already on this tab", false)
		return nil
	}
	b, mk, off := m.cfg.Browser, m.cfg.NewActor, copySet(m.tierOff)
	return m.startOp("attaching to “"+views.Clean(t.Title)+"”", func(ctx context.Context, gen int) tea.Msg {
		p, err := b.Attach(ctx, t.ID)
		if err != nil {
			return attachedMsg{gen: gen, err: err}
		}
		a := mk(p)
		if _, err := a.SetTierRules(off); err != nil {
			return attachedMsg{gen: gen, err: err}
		}
		return attachedMsg{gen: gen, actor: a, target: t}
	})
}

// switchActor moves the UI to another tab's service.
func (m *Model) switchActor(a dom.Actor, t dom.TargetInfo) tea.Cmd {
	old, own := m.actor, m.ownActor
	if old != nil && m.hlShown != "" {
		ctx, cancel := ctxTimeout(m.ctx, highlightTimeout)
		_ = old.Highlight(ctx, "")
		cancel()
	}
	if own && old != nil {
		go old.Close() // never block Update on the old tab
	}
	m.actor, m.ownActor = a, true
	m.conn = a.State()
	m.snap, m.prev, m.marks, m.hasDiff = nil, nil, nil, false
	m.last, m.lastDesc, m.stale, m.hlShown = nil, "", "", ""
	m.tree = newTreePane()
	m.flat = FlatPane{json: m.flat.json}
	m.layout()
	m.gen++
	m.setFlash("attached to “"+views.Clean(t.Title)+"”", false)
	return tea.Batch(m.refresh(false, "taking the first snapshot"), waitEvents(a))
}

func (m *Model) listKey(a keymap.Command) tea.Cmd {
	o := m.overlay
	switch a {
	case keymap.Cancel:
		m.overlay = nil
	case keymap.Up:
		o.move(-1)
	case keymap.Down:
		o.move(1)
	case keymap.PageUp:
		o.move(-o.height)
	case keymap.PageDown:
		o.move(o.height)
	case keymap.Top:
		o.first()
	case keymap.Bottom:
		o.move(len(o.items))
	case keymap.Accept:
		return m.choose(o)
	}
	return nil
}

// choose acts on the overlay's current item.
func (m *Model) choose(o *overlay) tea.Cmd {
	k := o.key()
	switch o.kind {
	case overlayRules:
		return m.toggleRule(k)
	case overlayDiff:
		if k != "" && m.tree.Reveal(k) {
			m.overlay = nil
			m.focus = treeFocus
			m.syncFromTree()
		}
	case overlayTargets:
		for _, t := range o.targets {
			if t.ID == k {
				m.overlay = nil
				return m.attach(t)
			}
		}
	}
	return nil
}

// toggleRule switches a rule. A flatten rule re-flattens at once; a tier
// rule rebuilds the tree from the same raw capture (no browser).
func (m *Model) toggleRule(k string) tea.Cmd {
	kind, name, ok := strings.Cut(k, ":")
	if !ok || m.snap == nil {
		return nil
	}
	before := m.flat.tokens
	switch kind {
	case "flatten":
		m.flatOpts.Disabled[name] = !m.flatOpts.Disabled[name]
		m.reflatten()
		m.syncFromTree()
		m.overlay = m.rulesOverlay(k)
		m.layoutOverlay()
		m.setFlash(fmt.Sprintf("%s %s · flat view %s → %s tokens", name, onOff(!m.flatOpts.Disabled[name]), commas(before), commas(m.flat.tokens)), false)
		return nil
	case "tier":
		if m.snap.Raw == nil {
			m.setFlash("this snapshot has no raw capture to rebuild from", true)
			return nil
		}
		m.tierOff[name] = !m.tierOff[name]
		snap, off := m.snap, copySet(m.tierOff)
		actor := m.actor
		if !m.live() {
			actor = nil
		}
		m.overlay = m.rulesOverlay(k)
		m.layoutOverlay()
		return m.startOp("rebuilding with "+name+" "+onOff(!off[name]), func(ctx context.Context, gen int) tea.Msg {
			if actor == nil { // a saved capture: no service to ask
				ns, err := dom.Rebuild(snap, off)
				return snapshotMsg{gen: gen, snap: ns, err: err, rebuilt: true}
			}
			ns, err := actor.SetTierRules(off)
			if ns == nil && err == nil {
				ns, err = actor.Snapshot(ctx, false)
			}
			return snapshotMsg{gen: gen, snap: ns, err: err, rebuilt: true}
		})
	}
	return nil
}

func onOff(on bool) string {
	if on {
		return "on"
	}
	return "off"
}

func (m *Model) layoutOverlay() {
	if m.overlay == nil {
		return
	}
	if m.overlay.kind == overlayHelp {
		off := m.overlay.offset
		m.overlay = m.helpOverlay() // its columns follow the width
		m.overlay.offset = off
	}
	s := computeScreen(m.w, m.h)
	m.overlay.height = max(min(s.body.h-2, len(m.overlay.items)+3)-3, 1)
	m.overlay.scroll()
}

// move moves the cursor of the focused pane and syncs the other.
func (m *Model) move(delta int) {
	if m.focus == flatFocus {
		m.flat.Move(delta)
		m.syncFromFlat()
		return
	}
	m.tree.Move(delta)
	m.syncFromTree()
}

func (m *Model) toEnd(bottom bool) {
	if m.focus == flatFocus {
		if bottom {
			m.flat.Bottom()
		} else {
			m.flat.Top()
		}
		m.syncFromFlat()
		return
	}
	if bottom {
		m.tree.Bottom()
	} else {
		m.tree.Top()
	}
	m.syncFromTree()
}

func (m *Model) pageSize() int {
	if m.focus == flatFocus {
		return max(m.flat.height-1, 1)
	}
	return max(m.tree.height-1, 1)
}

// jumpCounterpart moves the keyboard to the other pane, on the selected
// node's counterpart.
func (m *Model) jumpCounterpart() {
	if m.focus == flatFocus {
		m.syncFromFlat()
		m.focus = treeFocus
		return
	}
	id := m.tree.SelectedID()
	if m.flat.Line(id) < 0 {
		d, ok := m.dec[id]
		switch {
		case ok && d.Into != "":
			m.setFlash(fmt.Sprintf("%s is not in the flat view (%s by %s); its place is %s", id, d.Kind, d.Rule, m.nodeName(d.Into)), false)
		default:
			m.setFlash(id+" is not in the flat view", true)
			return
		}
	}
	m.syncFromTree()
	m.focus = flatFocus
}

var unsafeName = regexp.MustCompile(`[^a-zA-Z0-9.-]+`)

func (m *Model) exportName() string {
	host := "page"
	if m.snap != nil {
		if u, err := url.Parse(m.snap.URL); err == nil && u.Host != "" {
			host = u.Host
		}
	}
	host = strings.Trim(unsafeName.ReplaceAllString(host, "-"), "-")
	return fmt.Sprintf("domscope-%s-%s.json", host, m.now().Format("20060102-150405"))
}

func (m *Model) export(path string) tea.Cmd {
	if path == "" {
		return nil
	}
	s, opts, off, last, desc := m.snap, m.flatOpts, copySet(m.tierOff), m.last, m.lastDesc
	opts.Disabled = copySet(opts.Disabled)
	return safe(func() tea.Msg {
		c, err := dom.NewSavedCapture(s, opts, off, last)
		if err != nil {
			return exportedMsg{path, err}
		}
		if last != nil {
			c.LastActionDesc = desc
		}
		if abs, err := filepath.Abs(path); err == nil {
			path = abs
		}
		return exportedMsg{path, c.WriteFile(path)}
	})
}

// click selects the row under the mouse.
func (m *Model) click(ms tea.Mouse) tea.Cmd {
	if m.overlay != nil || m.prompt != nil || m.dialog != nil || ms.Button != tea.MouseLeft {
		return nil
	}
	s := computeScreen(m.w, m.h)
	switch {
	case s.tree.contains(ms.X, ms.Y):
		row := ms.Y - s.tree.y - 1
		if row >= 0 && row < s.tree.h-2 && m.tree.offset+row < len(m.tree.rows) {
			m.focus = treeFocus
			m.tree.cursor = m.tree.offset + row
			m.tree.clamp()
			m.syncFromTree()
		}
	case s.flat.contains(ms.X, ms.Y):
		row := ms.Y - s.flat.y - 1
		if row >= 0 && row < s.flat.h-2 && m.flat.offset+row < len(m.flat.lines) {
			m.focus = flatFocus
			m.flat.cursor = m.flat.offset + row
			m.flat.clamp()
			m.syncFromFlat()
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
	if m.overlay != nil {
		m.overlay.move(d)
		return nil
	}
	s := computeScreen(m.w, m.h)
	if s.flat.contains(ms.X, ms.Y) {
		m.flat.Scroll(d)
		if m.focus == flatFocus {
			m.syncFromFlat()
		}
		return nil
	}
	m.tree.Scroll(d)
	if m.focus == treeFocus {
		m.syncFromTree()
	}
	return nil
}

func (m *Model) restyle() {
	m.st = themes.For(m.dark, m.noColor)
	m.clearCache()
}
