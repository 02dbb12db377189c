package dom

// Look is what a view reads of the page besides the capture (issue 33):
// where the page and its scroll containers stand, and what a click on
// each control in the viewport would hit. The capture does not hold
// these: asking DOMSnapshot for every box's scroll rects and paint order
// made each capture a third slower, and the live model could not keep
// them. One call reads them for the view that asks (query.ReadLook).
type Look struct {
	// Page is where the page itself stands; nil when it does not scroll.
	Page *Scroll
	// Viewport is the part of the page shown, in page CSS pixels.
	Viewport Rect
	// Scroll holds the scroll containers whose content is larger than
	// their box, and where each stands.
	Scroll map[*VirtualNode]*Scroll
	// Hits holds, for each control asked about, the element a click
	// would hit at its sample points (LookPoints).
	Hits map[*VirtualNode]*[LookPoints]Hit
}

// LookPoints is how many points of a control are hit-tested: the click
// point (its centre) and its four corners, 2 px in (seed 003 §3.5.1).
const LookPoints = 5

// Hit is what lies on top at one sample point.
type Hit struct {
	// In: the point lies in the viewport (else it was not tested).
	In bool
	// Node is the element hit; nil when it is not in the snapshot.
	Node *VirtualNode
}

// ScrollOf is where n stands as a scroll container, or nil.
func (l *Look) ScrollOf(n *VirtualNode) *Scroll {
	if l == nil || n == nil {
		return nil
	}
	return l.Scroll[n]
}

// Holder is the nearest scroll container at or above n, other than the
// page, that has more to show the way dy turns (dy > 0: down, < 0: up,
// 0: either way), with where it stands; nil when none has. It goes out
// as a wheel does when a list is at its end: to the box holding it.
func (l *Look) Holder(n *VirtualNode, dy float64) (*VirtualNode, *Scroll) {
	for x := n; x != nil && l != nil; x = x.Parent {
		s := l.Scroll[x]
		if s == nil || x.Tag == "html" || x.Tag == "body" {
			continue
		}
		if (dy >= 0 && s.MoreBelow()) || (dy <= 0 && s.MoreAbove()) {
			return x, s
		}
	}
	return nil, nil
}
