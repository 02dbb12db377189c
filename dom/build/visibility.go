package build

import (
	"strings"

	"domscope/dom"
	"domscope/dom/cdpjson"
)

// visibility sets Visible, Hidden and InViewport of node i. Its parent is
// already done. drop reports a subtree-wide reason (own or inherited).
func (b *builder) visibility(i int, drop []bool, transparent []bool) {
	n, f := b.nodes[i], &b.facts[i]
	var parent *dom.VirtualNode
	if f.parent >= 0 {
		parent = b.nodes[f.parent]
		if drop[f.parent] {
			n.Hidden, drop[i] = dom.HiddenInherited, true
			return
		}
		transparent[i] = transparent[f.parent]
		// content of a closed <details> other than its first <summary>
		if parent.Tag == "details" && !b.facts[f.parent].detailsOpen && n.Tag != "#shadow-root" && !b.firstSummary(parent, n) {
			if n.NodeType == dom.ElementNode || (n.NodeType == dom.TextNode && strings.TrimSpace(n.Text) != "") {
				n.Hidden, drop[i] = dom.HiddenClosedDetails, true
				return
			}
		}
	}
	// A frame's document is seen only through its <iframe>. A hidden,
	// zero-size or unrendered host hides the whole frame.
	if n.NodeType == dom.DocumentNode && parent != nil && parent.NodeType == dom.ElementNode && parent.Hidden != "" && parent.Hidden != dom.HiddenOpacity {
		n.Hidden, drop[i] = dom.HiddenInherited, true
		return
	}
	switch n.NodeType {
	case dom.ElementNode:
		if strings.EqualFold(strings.TrimSpace(n.Attrs["aria-hidden"]), "true") {
			n.Hidden, drop[i] = dom.HiddenAriaHidden, true
			return
		}
		if _, ok := n.Attrs["inert"]; ok {
			n.Hidden, drop[i] = dom.HiddenInert, true
			return
		}
		if f.box == nil {
			if f.hasBoxBelow {
				break // display:contents: its children are rendered
			}
			if f.unlaid {
				// inserted after the layout was made: shown as its parent
				if parent != nil && parent.Hidden != "" {
					n.Hidden = dom.HiddenInherited
					return
				}
				break
			}
			switch {
			case parent != nil && parent.Hidden != "" && parent.NodeType == dom.ElementNode && b.facts[f.parent].box == nil:
				n.Hidden = dom.HiddenInherited
			case hasAttr(n, "hidden"):
				n.Hidden = dom.HiddenAttr
			default:
				n.Hidden = dom.HiddenDisplayNone
			}
			return
		}
		ti := b.targets[f.target]
		switch ti.Style(f.box, "visibility") {
		case "hidden", "collapse":
			n.Hidden = dom.HiddenVisibility
			return
		}
		if op := ti.Style(f.box, "opacity"); op == "0" {
			transparent[i] = true
		}
		// An inline that wraps a block (<a><h1>…</h1></a>) has a box of
		// no width. But what it holds is drawn, so it is not hidden.
		if zeroSize(n.Bounds) && !f.sizedBelow {
			n.Hidden = dom.HiddenZeroSize
			return
		}
	case dom.TextNode:
		if f.box == nil {
			if parent != nil && parent.Hidden != "" {
				n.Hidden = dom.HiddenInherited
				return
			}
			if !f.unlaid { // an unlaid text is shown as its parent
				n.Hidden = dom.HiddenNotRendered
				return
			}
		}
		if parent != nil && parent.Hidden == dom.HiddenVisibility {
			n.Hidden = dom.HiddenInherited
			return
		}
	}
	// A transparent (opacity:0) node is hidden unless it acts. Custom
	// controls are often a transparent native input over a styled label,
	// and they still take the click.
	if transparent[i] && n.Tier == dom.Structural && n.NodeType != dom.DocumentNode && n.NodeType != dom.FragmentNode {
		n.Hidden = dom.HiddenOpacity
		if b.facts[i].box == nil || (f.parent >= 0 && transparent[f.parent]) {
			n.Hidden = dom.HiddenInherited
		}
		return
	}
	n.Visible = true
	n.InViewport = b.inViewport(n)
	if f.unlaid && parent != nil {
		n.InViewport = parent.InViewport // it has no bounds of its own
	}
}

// drawnSized reports whether something of node i is drawn. Node i is an
// element or a text; it needs a box with a size, not visibility:hidden.
func (b *builder) drawnSized(i int) bool {
	n, f := b.nodes[i], &b.facts[i]
	if f.unlaid {
		// not laid out when the layout was made: taken as drawn
		return n.NodeType == dom.ElementNode || strings.TrimSpace(n.Text) != ""
	}
	if f.box == nil || zeroSize(n.Bounds) || (n.NodeType != dom.ElementNode && n.NodeType != dom.TextNode) {
		return false
	}
	switch b.targets[f.target].StyleAt(f.box, cdpjson.VisibilityStyle) {
	case "hidden", "collapse":
		return false
	}
	return true
}

func (b *builder) firstSummary(details, n *dom.VirtualNode) bool {
	if n.Tag != "summary" {
		return false
	}
	for _, c := range details.Children {
		if c.Tag == "summary" {
			return c == n
		}
	}
	return false
}

func (b *builder) inViewport(n *dom.VirtualNode) bool {
	vp := b.raw.Viewport
	if vp.W <= 0 || vp.H <= 0 {
		return true
	}
	r := n.Bounds
	if n.NodeType != dom.ElementNode && n.NodeType != dom.TextNode {
		return true
	}
	return r.X < vp.X+vp.W && r.X+r.W > vp.X && r.Y < vp.Y+vp.H && r.Y+r.H > vp.Y
}

func hasAttr(n *dom.VirtualNode, k string) bool {
	_, ok := n.Attrs[k]
	return ok
}

// zeroSize is the bounds test of visibility (HiddenZeroSize).
func zeroSize(r dom.Rect) bool { return r.W < 1 || r.H < 1 }
