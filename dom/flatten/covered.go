package flatten

import (
	"domscope/dom"
)

// Covered elements (issue 33, seed 003 §3.5.1): an interactive node in
// the viewport is covered when another element lies on top of its click
// point and of at least half of its sample points in the viewport (its
// centre and corners, 2 px in). What lies on top is the browser's own
// hit test, read in one call for the view (dom.Look.Hits): it knows
// paint order, transforms and pointer-events: none.

// LookWants lists what a view's Look reads for s: the elements whose
// overflow scrolls, and, when covered is set, the controls in the
// viewport to hit-test.
func LookWants(s *dom.Snapshot, covered bool) (scrollers, controls []*dom.VirtualNode) {
	if s == nil || s.Root == nil {
		return nil, nil
	}
	dom.Walk(s.Root, func(v *dom.VirtualNode) {
		if v.NodeType != dom.ElementNode || v.Hidden != "" {
			return
		}
		if v.Scrolls && v.Tag != "html" && v.Tag != "body" {
			scrollers = append(scrollers, v)
		}
		if covered && v.InViewport && v.Bounds.W >= 1 && v.Bounds.H >= 1 && isInteractive(v) && !clipped(v) {
			controls = append(controls, v)
		}
	})
	return scrollers, controls
}

// clipped: v's click point lies outside the box of a scroll container
// holding it. It is scrolled out of its list, not covered: a hit test
// there finds what lies behind the list.
func clipped(v *dom.VirtualNode) bool {
	cx, cy := v.Bounds.X+v.Bounds.W/2, v.Bounds.Y+v.Bounds.H/2
	for a := v.Parent; a != nil; a = a.Parent {
		if !a.Scrolls || a.Tag == "html" || a.Tag == "body" {
			continue
		}
		b := a.Bounds
		if cx < b.X || cx > b.X+b.W || cy < b.Y || cy > b.Y+b.H {
			return true
		}
	}
	return false
}

// coveredBy maps each covered interactive node to what covers it: the
// outermost element on top that does not hold it.
func (f *flat) coveredBy() map[*dom.VirtualNode]*dom.VirtualNode {
	out := map[*dom.VirtualNode]*dom.VirtualNode{}
	for v, hits := range f.opts.Look.Hits {
		if by := cover(v, hits); by != nil {
			out[v] = by
		}
	}
	return out
}

// cover is what covers v, or nil: the click point and at least half of
// the sampled points in the viewport are under another element.
func cover(v *dom.VirtualNode, hits *[dom.LookPoints]dom.Hit) *dom.VirtualNode {
	var center *dom.VirtualNode
	sampled, covered := 0, 0
	for k, h := range hits {
		if !h.In {
			continue // outside the viewport
		}
		sampled++
		if h.Node == nil || related(h.Node, v) {
			continue // unknown to the snapshot: not counted against v
		}
		covered++
		if k == 0 {
			center = h.Node
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
