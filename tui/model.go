package tui

import (
	"context"
	"strconv"
	"strings"
	"time"

	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"

	"domscope/dom"
	"domscope/keymap"
	"domscope/themes"
	"domscope/views"
)

type paneID int

const (
	treeFocus paneID = iota
	flatFocus
)

// op is the browser operation in flight (at most one).
type op struct {
	label  string
	start  time.Time
	cancel context.CancelFunc
}

// Model is the single Bubble Tea model of domscope. Panes, prompts and
// overlays are plain structs it calls into.
type Model struct {
	cfg Config
	ctx context.Context
	km  keymap.KeyMap
	st  themes.Styles
	now func() time.Time

	hints views.HintLine // the footer's hints, rendered again only when they change

	dark, noColor bool
	w, h          int

	actor    dom.Actor
	ownActor bool // created here (T), closed here
	conn     dom.ConnState
	savedAs  string // a saved capture's file: no browser
	saved    *dom.SavedCapture

	gen  int // bumped whenever the shown snapshot may change; stale replies are dropped
	snap *dom.Snapshot
	prev *dom.Snapshot // the snapshot before, for the diff list
	// newDoc: the last snapshot is a new document (nothing survived)
	newDoc bool

	marks    map[string]views.Mark
	diff     dom.SnapshotDiff
	hasDiff  bool
	flatOpts dom.Options
	tierOff  map[string]bool
	sd       *dom.SerializedDom
	dec      dom.Decisions

	tree  TreePane
	flat  FlatPane
	focus paneID

	rowCache   map[*dom.VirtualNode]string
	cacheW     int
	cacheTreeV int

	query    string
	matches  []*dom.VirtualNode
	matchSet map[*dom.VirtualNode]bool
	matchIdx int

	busy *op
	spin spinner.Model

	last     *dom.ActionResult
	lastDesc string
	flash    string
	flashBad bool
	stale    string

	highlight bool
	hlSeq     int
	hlShown   string

	prompt  *prompt
	overlay *overlay
	dialog  *dom.DialogInfo
}

// newModel builds the model; Run and the tests use it.
func newModel(ctx context.Context, cfg Config) *Model {
	m := &Model{
		cfg:       cfg,
		ctx:       ctx,
		km:        keymap.Default(),
		now:       time.Now,
		dark:      cfg.Theme != "light",
		noColor:   cfg.NoColor,
		w:         120,
		h:         40,
		actor:     cfg.Actor,
		flatOpts:  dom.DefaultOptions(),
		tierOff:   map[string]bool{},
		tree:      newTreePane(),
		rowCache:  map[*dom.VirtualNode]string{},
		highlight: !cfg.NoHighlight,
		spin:      spinner.New(spinner.WithSpinner(spinner.Dot)),
	}
	m.flatOpts.Disabled = map[string]bool{}
	if cfg.Now != nil {
		m.now = cfg.Now
	}
	m.st = themes.For(m.dark, m.noColor)
	if m.actor != nil {
		m.conn = m.actor.State()
	}
	m.layout()
	return m
}

// Init starts the first snapshot, the event listener and the clock.
func (m *Model) Init() tea.Cmd {
	cmds := []tea.Cmd{clock()}
	if m.cfg.Theme == "" || m.cfg.Theme == "auto" {
		cmds = append(cmds, tea.RequestBackgroundColor)
	}
	if m.actor != nil && m.snap == nil {
		cmds = append(cmds, m.refresh(false, "taking the first snapshot"), waitEvents(m.actor))
	}
	return tea.Batch(cmds...)
}

// setSnapshot shows a new snapshot. The selection stays on the same node
// ID when it survived; what changed since the previous one is marked.
func (m *Model) setSnapshot(s *dom.Snapshot, rebuilt bool) {
	if s == nil {
		return
	}
	old := m.snap
	// another tab (a reconnect found the page in a new browser): start over
	first := old == nil || old.TargetID != s.TargetID
	m.snap = s
	if !rebuilt {
		m.prev = old
		m.marks, m.hasDiff, m.diff = nil, false, dom.SnapshotDiff{}
		if old != nil && old.TargetID == s.TargetID {
			m.diff = dom.Diff(old, s)
			m.hasDiff = true
		}
		if m.hasDiff && len(m.diff.Removed) == len(old.ByID) {
			// a new document (navigation, reload): nothing survived, so
			// marking every node as new says nothing; start over instead
			m.hasDiff, first = false, true
			m.newDoc = true
		} else {
			m.newDoc = false
		}
		if m.hasDiff {
			m.marks = make(map[string]views.Mark, len(m.diff.Added)+len(m.diff.Renamed))
			for _, id := range m.diff.Added {
				m.marks[id] = views.Added
			}
			for _, id := range m.diff.Renamed {
				m.marks[id] = views.Renamed
			}
		}
		m.stale = ""
	}
	m.tree.SetRoot(s.Root)
	if first {
		m.selectStart()
	}
	m.reflatten()
	if m.query != "" {
		m.runSearch(m.query, false)
	}
	m.clearCache()
	m.syncFromTree()
}

// selectStart puts the cursor on the first visible control (a node with
// an interactive role), else the first non-semantic interactive node, else body.
func (m *Model) selectStart() {
	var pick, fallback *dom.VirtualNode
	dom.Walk(m.snap.Root, func(n *dom.VirtualNode) {
		if pick != nil || n.Hidden != "" || !dom.IsInteractive(n) {
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
		dom.Walk(m.snap.Root, func(n *dom.VirtualNode) {
			if pick == nil && n.Tag == "body" {
				pick = n
			}
		})
	}
	if pick != nil {
		m.tree.Select(pick.ID)
	}
}

// reflatten re-runs Flatten on the current tree with the current rules:
// no capture, no build.
func (m *Model) reflatten() {
	if m.snap == nil {
		return
	}
	m.sd, m.dec = dom.Flatten(m.snap, m.flatOpts)
	if err := m.flat.SetOutput(m.sd); err != nil {
		m.setFlash("could not serialize the flat view: "+err.Error(), true)
	}
	m.clearCache()
}

func (m *Model) clearCache() {
	clear(m.rowCache)
}

func (m *Model) setFlash(s string, bad bool) {
	m.flash, m.flashBad = s, bad
}

// syncFromTree moves the flat pane to the counterpart of the tree's selection.
func (m *Model) syncFromTree() {
	id := m.tree.SelectedID()
	if id == "" {
		return
	}
	if line := m.counterpartLine(id); line >= 0 {
		m.flat.cursor = line
		m.flat.scrollToCursor()
	}
}

// syncFromFlat selects in the tree the node of the flat pane's line.
func (m *Model) syncFromFlat() {
	if id := m.flat.SelectedID(); id != "" {
		m.tree.Reveal(id)
	}
}

// counterpartLine is the flat line that stands for a node: its own line
// when kept, else the line of the kept ancestor its children went to.
func (m *Model) counterpartLine(id string) int {
	if l := m.flat.Line(id); l >= 0 {
		return l
	}
	if d, ok := m.dec[id]; ok && d.Into != "" {
		return m.flat.Line(d.Into)
	}
	return -1
}

// nodeName is a short readable handle for a node: "node_5 form".
func (m *Model) nodeName(id string) string {
	if n := m.snap.Node(id); n != nil {
		s := id + " " + views.Clean(n.Tag)
		if n.Name != "" {
			s += " " + views.Quote(n.Name, 30)
		}
		return s
	}
	return id
}

// runSearch finds nodes whose name, role, tag, id, text or attributes
// contain q (case-insensitive), in document order.
func (m *Model) runSearch(q string, jump bool) {
	m.query = q
	m.matches = m.matches[:0]
	m.matchSet = map[*dom.VirtualNode]bool{}
	m.matchIdx = -1
	if q == "" || m.snap == nil {
		return
	}
	lq := strings.ToLower(q)
	has := func(s string) bool { return s != "" && strings.Contains(strings.ToLower(s), lq) }
	dom.Walk(m.snap.Root, func(n *dom.VirtualNode) {
		hit := n.ID == dom.NormalizeID(q) || has(n.Tag) || has(n.Role) || has(n.Name) || has(n.Text)
		if !hit {
			for k, v := range n.Attrs {
				if has(k) || has(v) {
					hit = true
					break
				}
			}
		}
		if hit {
			m.matches = append(m.matches, n)
			m.matchSet[n] = true
		}
	})
	m.clearCache()
	if jump {
		m.nextMatch(1)
	}
}

// nextMatch jumps to the next (dir 1) or previous (dir -1) search hit.
func (m *Model) nextMatch(dir int) {
	if len(m.matches) == 0 {
		if m.query != "" {
			m.setFlash("no node matches “"+views.Clean(m.query)+"”", true)
		}
		return
	}
	if m.matchIdx < 0 {
		if dir > 0 {
			m.matchIdx = 0
		} else {
			m.matchIdx = len(m.matches) - 1
		}
	} else {
		m.matchIdx = (m.matchIdx + dir + len(m.matches)) % len(m.matches)
	}
	n := m.matches[m.matchIdx]
	m.tree.Reveal(n.ID)
	m.focus = treeFocus
	m.syncFromTree()
	m.setFlash("match "+itoa(m.matchIdx+1)+" of "+itoa(len(m.matches))+" for “"+views.Clean(m.query)+"” (n/N)", false)
}

func itoa(i int) string { return strconv.Itoa(i) }
