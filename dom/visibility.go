package dom

import "strings"

// Hidden reasons (VirtualNode.Hidden).
const (
	HiddenDisplayNone   = "display:none" // no layout box: display:none or not rendered
	HiddenAttr          = "hidden-attr"  // the hidden attribute (and no box)
	HiddenVisibility    = "visibility:hidden"
	HiddenOpacity       = "opacity:0"
	HiddenZeroSize      = "zero-size"
	HiddenAriaHidden    = "aria-hidden"
	HiddenInert         = "inert"
	HiddenClosedDetails = "closed-details" // content of a closed <details>
	HiddenInherited     = "inherited"      // an ancestor is hidden
	HiddenNotRendered   = "not-rendered"   // a text node with no box (collapsed white space)
)

// visibility sets Visible, Hidden and InViewport of node i; its parent is
// already done. drop reports a subtree-wide reason (own or inherited).
func (b *builder) visibility(i int, drop []bool, transparent []bool) {
	n, f := b.nodes[i], &b.facts[i]
	var parent *VirtualNode
	if f.parent >= 0 {
		parent = b.nodes[f.parent]
		if drop[f.parent] {
			n.Hidden, drop[i] = HiddenInherited, true
			return
		}
		transparent[i] = transparent[f.parent]
		// content of a closed <details> other than its first <summary>
		if parent.Tag == "details" && !b.facts[f.parent].detailsOpen && n.Tag != "#shadow-root" && !b.firstSummary(parent, n) {
			if n.NodeType == ElementNode || (n.NodeType == TextNode && strings.TrimSpace(n.Text) != "") {
				n.Hidden, drop[i] = HiddenClosedDetails, true
				return
			}
		}
	}
	// a frame's document is seen only through its <iframe>: a hidden,
	// zero-size or unrendered host hides the whole frame
	if n.NodeType == DocumentNode && parent != nil && parent.NodeType == ElementNode && parent.Hidden != "" && parent.Hidden != HiddenOpacity {
		n.Hidden, drop[i] = HiddenInherited, true
		return
	}
	switch n.NodeType {
	case ElementNode:
		if strings.EqualFold(strings.TrimSpace(n.Attrs["aria-hidden"]), "true") {
			n.Hidden, drop[i] = HiddenAriaHidden, true
			return
		}
		if _, ok := n.Attrs["inert"]; ok {
			n.Hidden, drop[i] = HiddenInert, true
			return
		}
		if f.box == nil {
			if f.hasBoxBelow {
				break // display:contents: its children are rendered
			}
			if f.unlaid {
				// inserted after the layout was made: shown as its parent
				if parent != nil && parent.Hidden != "" {
					n.Hidden = HiddenInherited
					return
				}
				break
			}
			switch {
			case parent != nil && parent.Hidden != "" && parent.NodeType == ElementNode && b.facts[f.parent].box == nil:
				n.Hidden = HiddenInherited
			case hasAttr(n, "hidden"):
				n.Hidden = HiddenAttr
			default:
				n.Hidden = HiddenDisplayNone
			}
			return
		}
		ti := b.targets[f.target]
		switch ti.style(f.box, "visibility") {
		case "hidden", "collapse":
			n.Hidden = HiddenVisibility
			return
		}
		if op := ti.style(f.box, "opacity"); op == "0" {
			transparent[i] = true
		}
		// An inline that wraps a block (<a><h1>…</h1></a>) has a box
		// of no width, but what it holds is drawn: it is not hidden.
		if zeroSize(n.Bounds) && !f.sizedBelow {
			n.Hidden = HiddenZeroSize
			return
		}
	case TextNode:
		if f.box == nil {
			if parent != nil && parent.Hidden != "" {
				n.Hidden = HiddenInherited
				return
			}
			if !f.unlaid { // an unlaid text is shown as its parent
				n.Hidden = HiddenNotRendered
				return
			}
		}
		if parent != nil && parent.Hidden == HiddenVisibility {
			n.Hidden = HiddenInherited
			return
		}
	}
	// A transparent (opacity:0) node is hidden unless it acts: custom
	// controls are often a transparent native input over a styled label,
	// and they still take the click.
	if transparent[i] && n.Tier == Structural && n.NodeType != DocumentNode && n.NodeType != FragmentNode {
		n.Hidden = HiddenOpacity
		if b.facts[i].box == nil || (f.parent >= 0 && transparent[f.parent]) {
			n.Hidden = HiddenInherited
		}
		return
	}
	n.Visible = true
	n.InViewport = b.inViewport(n)
	if f.unlaid && parent != nil {
		n.InViewport = parent.InViewport // it has no bounds of its own
	}
}

// drawnSized reports whether node i, an element or a text, has a box
// with a size that is not visibility:hidden: something of it is drawn.
func (b *builder) drawnSized(i int) bool {
	n, f := b.nodes[i], &b.facts[i]
	if f.unlaid {
		// not laid out when the layout was made: taken as drawn
		return n.NodeType == ElementNode || strings.TrimSpace(n.Text) != ""
	}
	if f.box == nil || zeroSize(n.Bounds) || (n.NodeType != ElementNode && n.NodeType != TextNode) {
		return false
	}
	switch b.targets[f.target].styleAt(f.box, visibilityStyle) {
	case "hidden", "collapse":
		return false
	}
	return true
}

func (b *builder) firstSummary(details, n *VirtualNode) bool {
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

func (b *builder) inViewport(n *VirtualNode) bool {
	vp := b.raw.Viewport
	if vp.W <= 0 || vp.H <= 0 {
		return true
	}
	r := n.Bounds
	if n.NodeType != ElementNode && n.NodeType != TextNode {
		return true
	}
	return r.X < vp.X+vp.W && r.X+r.W > vp.X && r.Y < vp.Y+vp.H && r.Y+r.H > vp.Y
}

func hasAttr(n *VirtualNode, k string) bool {
	_, ok := n.Attrs[k]
	return ok
}
