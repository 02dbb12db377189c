package tui

import (
	"domscope/dom"
	"domscope/dom/flatten"
	"domscope/themes"
	"domscope/views"
)

type paneID int

const (
	treeFocus paneID = iota
	flatFocus
)

// pane is what the model asks of either pane. Moving, paging, the mouse
// and keeping the two panes on the same node are written once against
// it.
type pane interface {
	Move(delta int)
	Page(dir int) // a screen down (1) or up (-1)
	Top()
	Bottom()
	// Scroll moves the view by delta rows (mouse wheel). It drags the
	// cursor along.
	Scroll(delta int)
	// Pan scrolls sideways by a step (dir 1 right, -1 left). It returns
	// false when there is nothing more to show that way.
	Pan(dir int) bool
	Select(id string) bool
	SelectedID() string
	// Follow puts the cursor on what stands for a node selected in the
	// other pane.
	Follow(id string) bool
	// RowAt is the row shown y lines below the pane's first line.
	RowAt(y int) (int, bool)
	SetCursor(row int)
	SetSize(w, h int)
	// Rows renders the rows on screen, and only those.
	Rows(c rowContext) []string
}

// rowContext is what rendering a pane's rows reads from the model.
type rowContext struct {
	st      themes.Styles
	snap    *dom.Snapshot
	dec     dom.Decisions
	view    *flatten.View // the flat view on screen: the engine's marks of nodes
	marks   map[string]views.Mark
	notes   map[string]string // what changed on a marked node, in words
	matches map[*dom.VirtualNode]bool
	focused bool
	selID   string // the tree's selection: the flat pane marks its counterpart
}

// panes are the tree and flat panes and which has the keyboard.
type panes struct {
	tree  TreePane
	flat  FlatPane
	focus paneID
	// zoomed: the focused pane has the whole body (z toggles)
	zoomed bool
}

func newPanes() panes { return panes{tree: newTreePane()} }

func (p *panes) list() [2]pane { return [2]pane{&p.tree, &p.flat} }

// focused is the pane with the keyboard.
func (p *panes) focused() pane { return p.list()[p.focus] }

// follow moves the other pane to the node selected in from.
func (p *panes) follow(from pane) {
	id := from.SelectedID()
	if id == "" {
		return
	}
	for _, q := range p.list() {
		if q != from {
			q.Follow(id)
		}
	}
}

// focus gives the keyboard to a pane.
func (p *panes) focusOn(q pane) {
	for i, r := range p.list() {
		if r == q {
			p.focus = paneID(i)
		}
	}
}

// rects is where each pane is on screen, in the order of list.
func (s screen) paneRects() [2]rect { return [2]rect{s.tree, s.flat} }
