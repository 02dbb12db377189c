package tui

import (
	"context"
	"strconv"
	"time"

	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"

	"domscope/dom"
	"domscope/dom/build"
	"domscope/dom/export"
	"domscope/dom/flatten"
	"domscope/dom/query"
	"domscope/dom/script"
	"domscope/keymap"
	"domscope/themes"
	"domscope/views"
)

// op is the browser operation in flight (at most one).
type op struct {
	label  string
	start  time.Time
	cancel context.CancelFunc
	phase  string // what the capture is doing now (dom.WithProgress)
}

// connection is the page the UI talks to: a live service, or a saved
// capture with no browser.
type connection struct {
	actor   dom.Actor
	own     bool // created here (T), closed here
	state   dom.ConnState
	savedAs string // a saved capture's file: no browser
	saved   *export.SavedCapture
}

// document is the snapshot on screen and what is derived from it.
type document struct {
	gen  int // bumped whenever the shown snapshot may change; stale replies are dropped
	snap *dom.Snapshot
	// before is what the diff list needs of the snapshot before (not its
	// tree: on a 50,000-element page that is about 45 MB kept for a list)
	before beforeView
	// newDoc: the last snapshot is a new document (nothing survived)
	newDoc bool

	marks map[string]views.Mark
	// notes say in the flat pane what changed on a marked node
	// ("~ renamed", "~ focused, value"), as d lists it
	notes    map[string]string
	diff     flatten.SnapshotDiff
	hasDiff  bool
	flatOpts dom.Options
	flatSeq  int // bumped by each flatten rule toggle
	tierOff  map[string]bool
	// view is the flat view on screen, made once off the Update loop
	// (derive.go). It keeps no flattened tree.
	view *flatten.View
	// shownNew: a view was shown since the memory limit was last settled
	shownNew bool
}

// search is the last query and its hits, best first (dom.Search).
type search struct {
	query   string
	matches []query.SearchHit
	set     map[*dom.VirtualNode]bool
	idx     int
}

// operation is the browser work in flight and its spinner.
type operation struct {
	busy *op
	// bg is work off the page that shows in the footer but holds nothing
	// up (an export); at most one at a time
	bg   *op
	spin spinner.Model
}

// status is what the details pane and the footer report.
type status struct {
	last     *dom.ActionResult
	lastDesc string
	flash    string
	flashBad bool
	stale    string
	log      []logEntry // the last logSize messages, in full (L)
	// typing: a prompt is being typed in (an incremental search). Its
	// messages show, and only the one it ends with is logged.
	typing bool
}

// highlight is the browser overlay on the selected node.
type highlight struct {
	on    bool
	seq   int    // debounces a quick run of moves
	shown string // the node highlighted now
}

// Model is the single Bubble Tea model of domscope. Panes and layers
// (overlays, prompts) are plain values it calls into.
type Model struct {
	cfg Config
	ctx context.Context
	km  keymap.KeyMap
	st  themes.Styles
	now func() time.Time

	hints views.HintLine // the footer's hints, rendered again only when they change

	dark, noColor bool
	w, h          int

	conn   connection
	doc    document
	panes  panes
	search search
	op     operation
	status status
	hl     highlight
	fol    following
	pic    picture
	// rec keeps every action of the session, for `w`, exports and --record
	rec *script.Recorder
	// step is the script being stepped through (run --ui), or nil
	step *stepper
	// agent is what the UI keeps of an MCP agent's calls (--mcp)
	agent agentState
	// layers are drawn over the panes, bottom first; the last has the keyboard
	layers []layer
	// limitMemory: this process is the UI's own (Run): it sets the GC's
	// soft memory limit as pages come and go (memory.go)
	limitMemory bool
}

// newModel builds the model; Run and the tests use it.
func newModel(ctx context.Context, cfg Config) *Model {
	m := &Model{
		cfg:     cfg,
		ctx:     ctx,
		km:      keymap.Default(),
		now:     time.Now,
		dark:    cfg.Theme != "light",
		noColor: cfg.NoColor,
		w:       120,
		h:       40,
		conn:    connection{actor: cfg.Actor},
		doc:     document{flatOpts: dom.DefaultOptions(), tierOff: map[string]bool{}},
		panes:   newPanes(),
		hl:      highlight{on: !cfg.NoHighlight},
		fol:     following{paused: cfg.FollowPaused},
		op:      operation{spin: spinner.New(spinner.WithSpinner(spinner.Dot))},
		rec:     script.NewRecorder(cfg.Record),
		step:    newStepper(cfg),
	}
	m.doc.flatOpts.Disabled = dom.CopyRules(cfg.FlattenOff)
	// The view an agent gets from dom_snapshot and snapshot: folds, the
	// open modal first, covered controls marked (their rules in x).
	m.doc.flatOpts.Fold, m.doc.flatOpts.ModalScope, m.doc.flatOpts.Covered = true, true, true
	if len(cfg.TierOff) > 0 {
		m.doc.tierOff = dom.CopyRules(cfg.TierOff)
	}
	if len(cfg.Keys.Rows) > 0 {
		m.km = cfg.Keys
	}
	m.panes.flat.json = cfg.Format == "json"
	if cfg.Now != nil {
		m.now = cfg.Now
	}
	m.st = themes.For(m.dark, m.noColor)
	if m.conn.actor != nil {
		m.conn.state = m.conn.actor.State()
	}
	if cfg.Agent != nil {
		cfg.Agent.attach(m.conn.actor, m.rec)
	}
	m.layout()
	return m
}

// Init starts the first snapshot, the event listener and the clock.
func (m *Model) Init() tea.Cmd {
	cmds := []tea.Cmd{clock(), m.graphicsProbe()}
	if m.cfg.Theme == "" || m.cfg.Theme == "auto" {
		cmds = append(cmds, tea.RequestBackgroundColor)
	}
	if m.conn.actor != nil && m.doc.snap == nil {
		m.applyFollowSetting()
		cmds = append(cmds, m.refresh(false, "taking the first snapshot"), waitEvents(m.conn.actor))
	}
	if m.cfg.Agent != nil {
		cmds = append(cmds, m.cfg.Agent.wait())
	}
	return tea.Batch(cmds...)
}

// setSnapshot shows a new snapshot, deriving its flat view and diff here:
// for the start and tests. Replies of commands carry them (setShown).
func (m *Model) setSnapshot(s *dom.Snapshot, rebuilt bool) { m.setShown(s, rebuilt, nil) }

// setShown shows a new snapshot with what was derived of it (d). The
// selection stays on the same node ID when it survived; what changed
// since the previous one is marked.
func (m *Model) setShown(s *dom.Snapshot, rebuilt bool, d *derived) {
	if s == nil {
		return
	}
	if !m.fits(d, s) {
		// not made, or made for another screen (the rules, the format or
		// the snapshot changed while the command ran): made here, with
		// the look d read if any (Update never waits for the page)
		in := m.deriveInput()
		in.reader = nil
		if d != nil && d.view != nil && d.view.Snap == s {
			in.lookSnap, in.look = s, d.view.Opts.Look
		}
		d = in.derive(s, rebuilt)
	}
	old := m.doc.snap
	// another tab (a reconnect found the page in a new browser): start over
	first := old == nil || old.TargetID != s.TargetID
	m.doc.snap = s
	if !rebuilt {
		m.doc.marks, m.doc.hasDiff, m.doc.diff, m.doc.before = nil, false, flatten.SnapshotDiff{}, beforeView{}
		if d.hasDiff {
			m.doc.diff = d.diff
			m.doc.hasDiff = true
			m.doc.before = m.keepBefore(old, m.doc.diff)
		}
		if m.doc.hasDiff && len(m.doc.diff.Removed) == len(old.ByID) {
			// a new document (navigation, reload): nothing survived, so
			// marking every node as new says nothing; start over instead
			m.doc.hasDiff, first = false, true
			m.doc.newDoc = true
		} else {
			m.doc.newDoc = false
		}
		if m.doc.hasDiff {
			m.doc.marks = make(map[string]views.Mark, len(m.doc.diff.Added)+len(m.doc.diff.Renamed))
			for _, id := range m.doc.diff.Added {
				m.doc.marks[id] = views.Added
			}
			for _, id := range m.doc.diff.Renamed {
				m.doc.marks[id] = views.Renamed
			}
			for _, c := range m.doc.diff.Changed { // states, visibility, moves
				m.doc.marks[c.ID] = views.Renamed
			}
			m.doc.notes = changeNotes(m.doc.diff)
		}
		m.status.stale = ""
	}
	m.panes.tree.SetRoot(s.Root)
	if first {
		m.selectStart(d.view)
	}
	m.showView(d)
	if m.search.query != "" {
		m.runSearch(m.search.query, false)
		// n goes on from the selected match, as before the snapshot
		sel := m.panes.tree.SelectedID()
		for i, h := range m.search.matches {
			if h.Node.ID == sel {
				m.search.idx = i
				break
			}
		}
	}
	m.clearCache()
	m.syncFromTree()
	// d.base is the snapshot shown before. A reply still held (by Bubble
	// Tea's loop, by a batch) would keep its whole tree alive.
	d.base = nil
}

// selectStart puts the cursor on the first visible control (a node with
// an interactive role), else the first non-semantic interactive node, else body.
// With a modal open (the view v starts with it), its first control.
func (m *Model) selectStart(v *flatten.View) {
	var pick, fallback *dom.VirtualNode
	root := m.doc.snap.Root
	if v != nil && v.Snap == m.doc.snap && m.doc.snap.Node(v.Marks.Modal) != nil {
		root = m.doc.snap.Node(v.Marks.Modal)
	}
	dom.Walk(root, func(n *dom.VirtualNode) {
		if pick != nil || n.Hidden != "" || !build.IsInteractive(n) {
			return
		}
		if n.Tier == dom.Semantic {
			pick = n
		} else if fallback == nil {
			fallback = n
		}
	})
	if pick == nil {
		pick = fallback
	}
	if pick == nil {
		dom.Walk(m.doc.snap.Root, func(n *dom.VirtualNode) {
			if pick == nil && n.Tag == "body" {
				pick = n
			}
		})
	}
	if pick != nil {
		m.panes.tree.Select(pick.ID)
	}
}

// reflatten re-runs Flatten on the current tree with the current rules,
// in a command: no capture, no build. At 100k nodes it takes most of a
// second, and Update never waits.
func (m *Model) reflatten() tea.Cmd {
	if m.doc.snap == nil {
		return nil
	}
	m.doc.flatSeq++
	in, snap, seq := m.deriveInput(), m.doc.snap, m.doc.flatSeq
	return safe(func() tea.Msg {
		return reflattenedMsg{snap: snap, seq: seq, d: in.derive(snap, true)}
	})
}

// decisions are the flatten decisions of the view on screen.
func (d *document) decisions() dom.Decisions {
	if d.view == nil {
		return dom.Decisions{}
	}
	return d.view.Dec
}

// showView puts a derived flat view on screen as it is.
func (m *Model) showView(d *derived) {
	v := d.view
	m.doc.view = v
	m.pic.markCache = nil // the old view's marks would keep it alive
	m.doc.shownNew = true
	if d.err != nil {
		m.setFlash("could not serialize the flat view: "+d.err.Error(), true)
	}
	if m.panes.flat.query == "" {
		m.panes.flat.apply(flatOutput{src: v, json: v.JSON, lines: v.Lines, tokens: d.tokens}, v.Dec)
	} // else the query view stays until made again for v (queryAfter)
	m.clearCache()
	m.fitMemory()
}

func (m *Model) clearCache() {
	m.panes.tree.ClearCache()
}

func (m *Model) setFlash(s string, bad bool) {
	m.status.flash, m.status.flashBad = s, bad
	if s == "" || m.status.typing {
		return
	}
	if len(m.status.log) >= logSize {
		m.status.log = append(m.status.log[:0], m.status.log[1:]...)
	}
	m.status.log = append(m.status.log, logEntry{at: m.now(), msg: s, bad: bad})
}

// syncFromTree moves the flat pane to the counterpart of the tree's
// selection; syncFromFlat selects in the tree the node of the flat line.
func (m *Model) syncFromTree() { m.panes.follow(&m.panes.tree) }
func (m *Model) syncFromFlat() { m.panes.follow(&m.panes.flat) }

// nodeName is a short readable handle for a node: "node_5 form".
func (m *Model) nodeName(id string) string { return nodeLabel(m.doc.snap, id) }

// runSearch finds the nodes whose name, role, tag, id or attributes
// hold q, ranked by dom.Search: the whole name first, attributes last.
func (m *Model) runSearch(q string, jump bool) {
	m.search.query = q
	m.search.matches = query.Search(m.doc.snap, q)
	m.search.set = make(map[*dom.VirtualNode]bool, len(m.search.matches))
	m.search.idx = -1
	for _, h := range m.search.matches {
		m.search.set[h.Node] = true
	}
	m.clearCache()
	if jump {
		m.nextMatch(1)
	}
}

// nextMatch jumps to the next (dir 1) or previous (dir -1) search hit.
func (m *Model) nextMatch(dir int) {
	if len(m.search.matches) == 0 {
		if m.search.query != "" {
			m.setFlash("no node matches “"+views.Clean(m.search.query)+"”", true)
		}
		return
	}
	if m.search.idx < 0 {
		if dir > 0 {
			m.search.idx = 0
		} else {
			m.search.idx = len(m.search.matches) - 1
		}
	} else {
		m.search.idx = (m.search.idx + dir + len(m.search.matches)) % len(m.search.matches)
	}
	h := m.search.matches[m.search.idx]
	m.panes.tree.Reveal(h.Node.ID)
	m.panes.focus = treeFocus
	m.syncFromTree()
	// the kind says why this node matched: "name", "attr class"…
	m.setFlash("match "+itoa(m.search.idx+1)+" of "+itoa(len(m.search.matches))+" · "+h.Kind+" · “"+views.Clean(m.search.query)+"” (n/N)", false)
}

func itoa(i int) string { return strconv.Itoa(i) }
