package flatten

import (
	"domscope/dom"
)

// Covered elements (issue 33, seed 003 §3.5.1): an interactive node in
// the viewport is covered when another element is drawn on top of its
// click point and of at least half of five sample points (its center
// and corners, 2 px in). "On top" is read from the capture's paint
// order, with no round trip: of the element boxes at a point, the one
// painted last is the one a click hits. Boxes clicks go through
// (pointer-events: none) are left out.

// coverCell is the side of a cell of the hit grid, in CSS pixels.
const coverCell = 64

// hitGrid indexes the boxes of the viewport's elements by cell.
type hitGrid struct {
	vp    dom.Rect
	cols  int
	cells [][]*dom.VirtualNode
}

// coveredBy maps each covered interactive node to what covers it: the
// outermost element on top that does not hold it. Nil when the capture
// has no paint order.
func (f *flat) coveredBy() map[*dom.VirtualNode]*dom.VirtualNode {
	vp, ok := pageViewport(f.s)
	if !ok {
		return nil
	}
	g := &hitGrid{vp: vp, cols: int(vp.W)/coverCell + 1}
	g.cells = make([][]*dom.VirtualNode, g.cols*(int(vp.H)/coverCell+1))
	var targets []*dom.VirtualNode
	painted := false
	for _, v := range f.order {
		if v.NodeType != dom.ElementNode || v.Paint == 0 || !v.InViewport || v.Bounds.W < 1 || v.Bounds.H < 1 {
			continue
		}
		painted = true
		if v.Hidden != "" && v.Hidden != dom.HiddenOpacity {
			continue // clicks go through: not drawn, or not a target
		}
		if v.Paint > 0 {
			g.add(v)
		}
		if isInteractive(v) && v.Hidden == "" {
			targets = append(targets, v)
		}
	}
	if !painted {
		return nil
	}
	out := map[*dom.VirtualNode]*dom.VirtualNode{}
	for _, v := range targets {
		if by := g.cover(v); by != nil {
			out[v] = by
		}
	}
	return out
}

// pageViewport is the viewport in page coordinates: the page's scroll
// state, else the box of <html> (a page that does not scroll).
func pageViewport(s *dom.Snapshot) (dom.Rect, bool) {
	if s == nil || s.Root == nil {
		return dom.Rect{}, false
	}
	for _, c := range s.Root.Children {
		if c.Tag != "html" {
			continue
		}
		if sc := c.Scroll; sc != nil {
			return dom.Rect{X: sc.Left, Y: sc.Top, W: sc.ClientWidth, H: sc.ClientHeight}, true
		}
		for _, b := range c.Children {
			if b.Tag == "body" && b.Scroll != nil {
				return dom.Rect{X: 0, Y: 0, W: b.Scroll.ClientWidth, H: b.Scroll.ClientHeight}, true
			}
		}
		if c.Bounds.W >= 1 && c.Bounds.H >= 1 {
			return c.Bounds, true
		}
	}
	return dom.Rect{}, false
}

func (g *hitGrid) cellRange(r dom.Rect) (x0, y0, x1, y1 int) {
	rows := len(g.cells) / g.cols
	clamp := func(v, hi int) int { return max(0, min(v, hi-1)) }
	x0 = clamp(int((r.X-g.vp.X)/coverCell), g.cols)
	y0 = clamp(int((r.Y-g.vp.Y)/coverCell), rows)
	x1 = clamp(int((r.X+r.W-g.vp.X)/coverCell), g.cols)
	y1 = clamp(int((r.Y+r.H-g.vp.Y)/coverCell), rows)
	return
}

func (g *hitGrid) add(v *dom.VirtualNode) {
	x0, y0, x1, y1 := g.cellRange(v.Bounds)
	for y := y0; y <= y1; y++ {
		for x := x0; x <= x1; x++ {
			g.cells[y*g.cols+x] = append(g.cells[y*g.cols+x], v)
		}
	}
}

// top is the element painted last at point (x, y), or nil.
func (g *hitGrid) top(x, y float64) *dom.VirtualNode {
	if x < g.vp.X || y < g.vp.Y || x >= g.vp.X+g.vp.W || y >= g.vp.Y+g.vp.H {
		return nil
	}
	cx, cy := int((x-g.vp.X)/coverCell), int((y-g.vp.Y)/coverCell)
	if cy*g.cols+cx >= len(g.cells) {
		return nil
	}
	var best *dom.VirtualNode
	for _, v := range g.cells[cy*g.cols+cx] {
		b := v.Bounds
		if x >= b.X && x < b.X+b.W && y >= b.Y && y < b.Y+b.H && (best == nil || v.Paint > best.Paint) {
			best = v
		}
	}
	return best
}

// cover is what covers v, or nil: the click point and at least half of
// the sampled points in the viewport are under another element.
func (g *hitGrid) cover(v *dom.VirtualNode) *dom.VirtualNode {
	b := v.Bounds
	cx, cy := b.X+b.W/2, b.Y+b.H/2
	pts := [5][2]float64{{cx, cy}, {b.X + 2, b.Y + 2}, {b.X + b.W - 2, b.Y + 2}, {b.X + 2, b.Y + b.H - 2}, {b.X + b.W - 2, b.Y + b.H - 2}}
	var center *dom.VirtualNode
	sampled, covered := 0, 0
	for k, p := range pts {
		h := g.top(p[0], p[1])
		if h == nil {
			continue // outside the viewport
		}
		sampled++
		if related(h, v) {
			continue
		}
		covered++
		if k == 0 {
			center = h
		}
	}
	if center == nil || covered*2 < sampled {
		return nil
	}
	// name the overlay: the outermost element above the hit that does
	// not hold v
	for center.Parent != nil && center.Parent.NodeType == dom.ElementNode && !holds(center.Parent, v) && center.Parent.Tag != "body" {
		center = center.Parent
	}
	return center
}

// related: a hit on v itself, inside it, or on what holds it (a label
// around a checkbox) is a hit on v.
func related(h, v *dom.VirtualNode) bool {
	return holds(v, h) || holds(h, v)
}

// holds reports whether a is b or an ancestor of b.
func holds(a, b *dom.VirtualNode) bool {
	for x := b; x != nil; x = x.Parent {
		if x == a {
			return true
		}
	}
	return false
}
