package tui

import (
	"domscope/dom"
	"domscope/dom/build"
	"domscope/dom/flatten"
	"domscope/views"
)

// treeRow is one visible line of the tree pane.
type treeRow struct {
	node  *dom.VirtualNode
	depth int
}

// TreePane is the state of the VirtualNode tree pane: which nodes are
// expanded, the flat slice of visible rows, the cursor and the scroll
// offset. The rows are rebuilt only when the tree, the expansion state or
// the filter changes, never on a cursor move.
type TreePane struct {
	root *dom.VirtualNode

	// expanded overrides the default per node ID; IDs survive re-snapshots,
	// so the user's expansion survives an action.
	expanded map[string]bool
	// allOpen is the default after "expand all" (true) or "collapse all"
	// (false); nil means the built-in default (see defaultOpen).
	allOpen *bool

	interactiveOnly bool
	keep            map[*dom.VirtualNode]bool // filter: matches and their ancestors

	rows    []treeRow
	version int // bumped on every rebuild: cached rows show expansion arrows
	// index finds a row by node ID: a map of 105,000 rows took 2 MB,
	// held through every action.
	index dom.IDIndex
	rowView

	width int
	// cache holds each unselected row's styled line; it is cleared when the
	// rows, the width or anything drawn on a row (marks, matches, rules,
	// theme) changes.
	cache  map[*dom.VirtualNode]string
	cacheW int
	cacheV int
}

func newTreePane() TreePane {
	return TreePane{expanded: map[string]bool{}, cache: map[*dom.VirtualNode]string{}}
}

// SetRoot replaces the tree (a new snapshot) and keeps the cursor on the
// node with the same ID when it survived.
func (p *TreePane) SetRoot(root *dom.VirtualNode) {
	sel := p.SelectedID()
	p.root = root
	p.keep = nil
	p.rebuild()
	if sel != "" {
		if !p.Select(sel) {
			p.clamp()
		}
	}
}

// quietTags are collapsed by default: they rarely matter and can be huge.
var quietTags = map[string]bool{"head": true, "script": true, "style": true, "svg": true,
	"noscript": true, "template": true, "#comment": true}

func (p *TreePane) defaultOpen(n *dom.VirtualNode) bool {
	if p.allOpen != nil {
		if !*p.allOpen {
			// "collapse all" still shows the document and its top element.
			return n.Parent == nil || (n.Parent != nil && n.Parent.Parent == nil)
		}
		return true
	}
	return !quietTags[n.Tag] && n.Hidden == ""
}

// IsOpen reports whether a node's children are shown.
func (p *TreePane) IsOpen(n *dom.VirtualNode) bool {
	if v, ok := p.expanded[n.ID]; ok {
		return v
	}
	return p.defaultOpen(n)
}

// rebuild recomputes the visible rows, iteratively (pages nest thousands deep).
func (p *TreePane) rebuild() {
	p.version++
	// zeroed to the capacity: a shorter tree must not leave the old tree's
	// nodes (and so the whole old tree) behind the slice's end
	clear(p.rows[:cap(p.rows)])
	p.rows = p.rows[:0]
	p.index = dom.IDIndex{}
	if p.root == nil {
		return
	}
	if p.interactiveOnly && p.keep == nil {
		p.keep = interactiveSet(p.root)
	}
	type item struct {
		n     *dom.VirtualNode
		depth int
	}
	stack := []item{{p.root, 0}}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if p.keep != nil && !p.keep[it.n] {
			continue
		}
		p.rows = append(p.rows, treeRow{it.n, it.depth})
		if len(it.n.Children) > 0 && p.IsOpen(it.n) {
			for i := len(it.n.Children) - 1; i >= 0; i-- {
				stack = append(stack, item{it.n.Children[i], it.depth + 1})
			}
		}
	}
	p.index = dom.NewIDIndex(len(p.rows), func(i int) string { return p.rows[i].node.ID })
}

// interactiveSet is every interactive node and its ancestors.
func interactiveSet(root *dom.VirtualNode) map[*dom.VirtualNode]bool {
	keep := map[*dom.VirtualNode]bool{}
	dom.Walk(root, func(n *dom.VirtualNode) {
		if !build.IsInteractive(n) {
			return
		}
		for a := n; a != nil && !keep[a]; a = a.Parent {
			keep[a] = true
		}
	})
	return keep
}

// Selected returns the node under the cursor, or nil.
func (p *TreePane) Selected() *dom.VirtualNode {
	if p.cursor < 0 || p.cursor >= len(p.rows) {
		return nil
	}
	return p.rows[p.cursor].node
}

// SelectedID returns the ID of the node under the cursor, or "".
func (p *TreePane) SelectedID() string {
	if n := p.Selected(); n != nil {
		return n.ID
	}
	return ""
}

// Select moves the cursor to a node, expanding its ancestors (and
// clearing the filter if it hides the node). It reports whether the node
// is in the tree.
func (p *TreePane) Select(id string) bool {
	if i := p.index.Find(id); i >= 0 {
		p.cursor = i
		p.scrollToCursor()
		return true
	}
	n := p.find(id)
	if n == nil {
		return false
	}
	if p.keep != nil && !p.keep[n] {
		return false
	}
	for a := n.Parent; a != nil; a = a.Parent {
		p.expanded[a.ID] = true
	}
	p.rebuild()
	if i := p.index.Find(id); i >= 0 {
		p.cursor = i
		p.scrollToCursor()
		return true
	}
	return false
}

// Reveal selects a node like Select, clearing the interactive filter when
// it hides the node (search and the flat pane can point anywhere).
func (p *TreePane) Reveal(id string) bool {
	if p.Select(id) {
		return true
	}
	if p.interactiveOnly && p.find(id) != nil {
		p.interactiveOnly, p.keep = false, nil
		p.rebuild()
		return p.Select(id)
	}
	return false
}

func (p *TreePane) find(id string) *dom.VirtualNode {
	var hit *dom.VirtualNode
	if p.root == nil {
		return nil
	}
	dom.Walk(p.root, func(n *dom.VirtualNode) {
		if hit == nil && n.ID == id {
			hit = n
		}
	})
	return hit
}

// Move moves the cursor by delta rows.
func (p *TreePane) Move(delta int) { p.move(delta, len(p.rows)) }

// Page moves a screen down (1) or up (-1).
func (p *TreePane) Page(dir int) { p.page(dir, len(p.rows)) }

// Top and Bottom jump to the ends.
func (p *TreePane) Top()    { p.to(0, len(p.rows)) }
func (p *TreePane) Bottom() { p.to(len(p.rows)-1, len(p.rows)) }

func (p *TreePane) clamp() { p.rowView.clamp(len(p.rows)) }

// SetSize sets the width of a row and the number of rows on screen.
func (p *TreePane) SetSize(w, h int) { p.width = w; p.setHeight(h, len(p.rows)) }

// SetHeight sets the number of rows on screen.
func (p *TreePane) SetHeight(h int) { p.setHeight(h, len(p.rows)) }

func (p *TreePane) scrollToCursor() { p.follow(len(p.rows)) }

// Scroll moves the view by delta rows, dragging the cursor along when it
// would leave the screen (mouse wheel).
func (p *TreePane) Scroll(delta int) { p.scroll(delta, len(p.rows)) }

// Pan: tree rows are cut to the pane, and deep rows indent less as the
// tree nests; there is nothing to scroll sideways.
func (p *TreePane) Pan(int) bool { return false }

// Follow selects a node chosen in the other pane, clearing the filter if
// it hides the node.
func (p *TreePane) Follow(id string) bool { return p.Reveal(id) }

// RowAt is the row shown y lines below the first.
func (p *TreePane) RowAt(y int) (int, bool) { return p.rowAt(y, len(p.rows)) }

// SetCursor puts the cursor on a row.
func (p *TreePane) SetCursor(row int) { p.to(row, len(p.rows)) }

// ClearCache drops the styled rows (something drawn on them changed).
func (p *TreePane) ClearCache() { clear(p.cache) }

// Rows renders the rows on screen. Unselected rows come from the cache.
func (p *TreePane) Rows(c rowContext) []string {
	if p.cacheW != p.width || p.cacheV != p.version {
		clear(p.cache)
		p.cacheW, p.cacheV = p.width, p.version
	}
	rows := p.Visible()
	body := make([]string, 0, len(rows))
	for i, row := range rows {
		sel := views.NotSelected
		if p.offset+i == p.cursor {
			sel = views.Blurred
			if c.focused {
				sel = views.Focused
			}
		}
		if sel == views.NotSelected {
			if l, ok := p.cache[row.node]; ok {
				body = append(body, l)
				continue
			}
		}
		tr := views.TreeRow{Node: row.node, Depth: row.depth, Open: len(row.node.Children) > 0 && p.IsOpen(row.node),
			Mark: c.marks[row.node.ID], Match: c.matches[row.node], Marks: treeMarks(c.view, row.node.ID)}
		if d, ok := c.dec.Lookup(row.node.ID); ok {
			tr.Decision, tr.Decided = d, true
		}
		l := views.TreeLine(c.st, tr, p.width, sel)
		if sel == views.NotSelected {
			p.cache[row.node] = l
		}
		body = append(body, l)
	}
	return body
}

// Expand opens the selected node, or moves into its first child when open.
func (p *TreePane) Expand() {
	n := p.Selected()
	if n == nil || len(n.Children) == 0 {
		return
	}
	if p.IsOpen(n) {
		p.Move(1)
		return
	}
	p.setOpen(n, true)
}

// Collapse closes the selected node, or moves to its parent when closed.
func (p *TreePane) Collapse() {
	n := p.Selected()
	if n == nil {
		return
	}
	if len(n.Children) > 0 && p.IsOpen(n) {
		p.setOpen(n, false)
		return
	}
	if n.Parent != nil {
		p.Select(n.Parent.ID)
	}
}

// Toggle opens or closes the selected node.
func (p *TreePane) Toggle() {
	if n := p.Selected(); n != nil && len(n.Children) > 0 {
		p.setOpen(n, !p.IsOpen(n))
	}
}

func (p *TreePane) setOpen(n *dom.VirtualNode, open bool) {
	id := n.ID
	p.expanded[id] = open
	p.rebuild()
	p.Select(id)
}

// SetAll expands or collapses every node.
func (p *TreePane) SetAll(open bool) {
	id := p.SelectedID()
	p.allOpen = &open
	clear(p.expanded)
	p.rebuild()
	if !p.Select(id) {
		p.clamp()
	}
}

// SetInteractiveOnly switches the filter.
func (p *TreePane) SetInteractiveOnly(on bool) {
	id := p.SelectedID()
	p.interactiveOnly = on
	p.keep = nil
	p.rebuild()
	if !p.Select(id) {
		// the selection is filtered out: stay near it
		p.clamp()
	}
}

// Visible returns the rows on screen.
func (p *TreePane) Visible() []treeRow {
	end := min(p.offset+max(p.height, 1), len(p.rows))
	if p.offset >= end {
		return nil
	}
	return p.rows[p.offset:end]
}

// treeMarks are the engine's marks of a node in the view on screen:
// where a scroll container stands, what covers a control, the open
// modal, an item a fold hid. Made by the flatten, only looked up here.
func treeMarks(v *flatten.View, id string) views.TreeMarks {
	if v == nil || id == "" {
		return views.TreeMarks{}
	}
	return views.TreeMarks{Scroll: v.Scrolls[id], CoveredBy: v.Marks.Covered[id], Modal: id == v.Marks.Modal, FoldedLike: v.Marks.Folded[id]}
}
