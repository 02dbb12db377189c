// Package build turns a capture into the VirtualNode tree, one node per
// DOM node. Each node has its role, name, states, tier and visibility. Its
// ID survives a re-snapshot. It is a pure function of captured data.
package build

import (
	"strings"
	"time"

	"domscope/dom"
	"domscope/dom/cdpjson"
	"domscope/dom/urls"
)

// Options control Build.
type Options struct {
	// Prev is the previous snapshot of the same target. Nodes that survive
	// in the same document keep their IDs.
	Prev *dom.Snapshot
	// Disabled names tier rules switched off (see TierRules). A full name
	// ("heuristic:onclick") or a short one ("onclick") works.
	Disabled map[string]bool
	// Lean releases the capture's CDP JSON as each part is decoded, and
	// the snapshot keeps no Raw. It is for a one-shot snapshot that is
	// printed and dropped (no export, no rebuild, no live model). On a
	// 50,000-element page the JSON is about 67 MB.
	Lean bool
}

// facts are what the walk learns about a node, kept beside the preorder
// list for the later passes. The VirtualNode holds only public fields.
type facts struct {
	parent      int32 // preorder index of the parent, -1 for the root
	target      int32
	ax          *cdpjson.AXNode
	box         *cdpjson.Box
	elements    int32 // elements in the light-DOM subtree, itself included
	hasBoxBelow bool  // some descendant has a layout box
	sizedBelow  bool  // some descendant is drawn with a size (not zero-size)
	unlaid      bool  // inserted after the layout was made (cdpjson/cover.go)
	ua          bool  // inside a user-agent shadow root
	redact      bool  // a sensitive field (SensitiveField) or inside one
	field       bool  // the sensitive field itself
	filled      bool  // for a field: the capture shows it holds something
	detailsOpen bool  // for <details>: open attribute
	textName    bool  // Name was taken from the subtree's text
}

// builder holds the state of one Build.
type builder struct {
	raw     *dom.RawCapture
	opts    Options
	targets []*cdpjson.Target
	// stitched marks the targets whose document the walk has placed.
	stitched []bool
	byFrame  map[string]int     // out-of-process frame id -> target index
	nodes    []*dom.VirtualNode // preorder
	facts    []facts
	snap     *dom.Snapshot
	docURLs  map[int32]string // documentURL of #document nodes
	// secrets are what sensitive fields held in a capture that was not
	// scrubbed (an old file, a test). They are removed from every node
	// after classify.
	secrets []string
	// unlaid counts the nodes the layout did not know (facts.unlaid).
	unlaid int
	// ids are the previous snapshot's IDs and attribute maps.
	ids *idAssigner
	// slab and kids hand out nodes and child lists in chunks (alloc.go).
	slab []dom.VirtualNode
	kids []*dom.VirtualNode
	// whys holds each reason made from an AX role once.
	whys map[[2]string]string
}

// Build turns a raw capture into the complete VirtualNode tree. There is
// one node per DOM node of every target, with out-of-process frames
// stitched under their <iframe>. It is a pure function of raw (and
// opts.Prev for IDs). It walks iteratively and never panics on hostile
// input.
func Build(raw *dom.RawCapture, opts Options) (*dom.Snapshot, error) {
	start := time.Now()
	if raw == nil {
		return nil, dom.Errorf(dom.ValidationError, nil, "nothing to build: the capture is nil")
	}
	if len(raw.Targets) == 0 {
		return nil, dom.Errorf(dom.SnapshotFailed, nil, "the capture has no targets; capture the page again")
	}
	c, err := cdpjson.Decode(raw, opts.Lean)
	if err != nil {
		return nil, err
	}
	snap, err := FromDecoded(c, opts, start)
	if snap != nil && opts.Lean {
		snap.Raw = nil
	}
	return snap, err
}

// FromDecoded builds from a decoded capture. It only reads it: a shallow
// copy of each target holds what the walk changes. So a live model can
// build from the same decoded capture again and again.
func FromDecoded(c *cdpjson.Capture, opts Options, start time.Time) (*dom.Snapshot, error) {
	b, err := buildKeep(c, opts, start)
	if err != nil {
		return nil, err
	}
	return b.snap, nil
}

// buildKeep is FromDecoded, keeping the builder. Its preorder lists say
// which layout box each node was built with.
func buildKeep(c *cdpjson.Capture, opts Options, start time.Time) (*builder, error) {
	raw := c.Raw
	b := &builder{raw: raw, opts: opts, byFrame: map[string]int{}, docURLs: map[int32]string{}, stitched: make([]bool, len(c.Targets))}
	for i, t := range c.Targets {
		ti := *t
		b.targets = append(b.targets, &ti)
		if i > 0 {
			if rt := raw.Targets[i]; rt.FrameID != "" {
				b.byFrame[rt.FrameID] = i
			}
			if rt := raw.Targets[i]; rt.TargetID != "" {
				if _, ok := b.byFrame[rt.TargetID]; !ok {
					b.byFrame[rt.TargetID] = i
				}
			}
		}
	}
	if b.targets[0].Root == nil {
		return nil, dom.Errorf(dom.SnapshotFailed, nil, "the capture has no document; capture the page again")
	}
	if opts.Prev != nil {
		// a re-snapshot has about as many nodes as the one before it
		n := len(opts.Prev.ByID) + len(opts.Prev.ByID)/8
		b.nodes, b.facts = make([]*dom.VirtualNode, 0, n), make([]facts, 0, n)
	}
	b.ids = newIDAssigner(opts.Prev)
	b.snap = &dom.Snapshot{URL: urls.Safe(raw.URL), Title: raw.Title, TargetID: raw.TargetID, Raw: raw, Stamp: raw.Timestamp}
	if t, err := time.Parse(time.RFC3339Nano, raw.Timestamp); err == nil {
		b.snap.Taken = t
	}
	b.walk()
	b.countSubtrees()
	b.classify()
	b.trimContainerNames()
	b.scrubSecrets()
	// A kept draft must not keep the tree before it alive.
	b.ids, b.opts.Prev = nil, nil
	b.snap.BuildTime = time.Since(start)
	return b, nil
}

// item is one pending node of the walk.
type item struct {
	raw     *cdpjson.Node
	parent  int32
	target  int32
	frameID string
	ua      bool
	redact  bool
	field   int32 // preorder index of the enclosing sensitive field, -1 none
	shiftX  float64
	shiftY  float64
}

// walk creates the VirtualNodes in preorder with an explicit stack.
func (b *builder) walk() {
	t0 := b.targets[0]
	mainFrame := b.raw.Targets[0].FrameID
	stack := []item{{raw: t0.Root, parent: -1, target: 0, frameID: mainFrame, field: -1}}
	for len(stack) > 0 || b.stitchOrphans(&stack) {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		r := it.raw
		if r == nil {
			continue
		}
		ti := b.targets[it.target]
		n := b.newNode()
		n.BackendID, n.FrameID, n.TargetID, n.NodeType = r.BackendNodeID, it.frameID, ti.Raw.TargetID, int32(r.NodeType)
		f := facts{parent: it.parent, target: it.target, ua: it.ua, redact: it.redact}
		prev, hasPrev := b.ids.prevOf(it.frameID, r.BackendNodeID)
		n.Children = b.childList(r, len(b.targets) > 1)
		switch r.NodeType {
		case dom.ElementNode:
			n.Tag = strings.ToLower(r.LocalName)
			if n.Tag == "" {
				n.Tag = strings.ToLower(r.NodeName)
			}
			if hasPrev && sameAttrs(prev.attrs, r.Attributes) {
				n.Attrs = prev.attrs // unchanged: shared, never written
			} else {
				n.Attrs = cdpjson.AttrMap(r.Attributes)
			}
		case dom.TextNode:
			n.Tag = "#text"
			n.Text = r.NodeValue
		case dom.DocumentNode:
			n.Tag = "#document"
		case dom.FragmentNode:
			if r.ShadowRootType != "" {
				n.Tag = "#shadow-root"
				n.ShadowType = r.ShadowRootType
			} else {
				n.Tag = "#document-fragment"
			}
		case dom.CommentNode:
			n.Tag = "#comment"
			n.Text = r.NodeValue
		case dom.DoctypeNode:
			n.Tag = "#doctype"
		default:
			n.Tag = strings.ToLower(r.NodeName)
		}
		if n.ShadowType == "user-agent" {
			f.ua = true
		}
		f.ax = ti.AX[r.BackendNodeID]
		if bx := ti.Boxes[r.BackendNodeID]; bx != nil {
			f.box = bx
			n.Bounds = bx.Bounds
			n.Bounds.X += it.shiftX
			n.Bounds.Y += it.shiftY
			n.Scrolls = ti.Scrolls(bx)
		} else if ti.Unlaid(r, f.ua) {
			f.unlaid = true
			b.unlaid++
		}
		if n.Tag == "details" {
			_, f.detailsOpen = n.Attrs["open"]
		}
		idx := int32(len(b.nodes))
		field := it.field
		if n.NodeType == dom.ElementNode && dom.SensitiveField(n.Tag, n.Attrs) {
			f.redact, f.field, field = true, true, idx
		}
		if f.redact && b.redactNode(n, field) && field == idx {
			f.filled = true // its own value attribute
		}
		if it.parent >= 0 {
			p := b.nodes[it.parent]
			n.Parent = p
			p.Children = append(p.Children, n)
		} else if b.snap.Root == nil {
			b.snap.Root = n
		}
		b.nodes = append(b.nodes, n)
		b.facts = append(b.facts, f)
		if r.DocumentURL != "" && r.NodeType == dom.DocumentNode {
			b.docURLs[idx] = r.DocumentURL
		}

		// Children in document order: shadow roots (rendered first), a
		// same-process frame document, light children, template content.
		// They are pushed in reverse so they pop in order.
		next := func(c *cdpjson.Node, frameID string) item {
			return item{raw: c, parent: idx, target: it.target, frameID: frameID, ua: f.ua, redact: f.redact, field: field, shiftX: it.shiftX, shiftY: it.shiftY}
		}
		if r.TemplateContent != nil {
			stack = append(stack, next(r.TemplateContent, it.frameID))
		}
		for i := len(r.Children) - 1; i >= 0; i-- {
			stack = append(stack, next(r.Children[i], it.frameID))
		}
		if r.ContentDocument != nil {
			fid := r.FrameID
			if fid == "" {
				fid = it.frameID
			}
			c := next(r.ContentDocument, fid)
			c.ua = false
			stack = append(stack, c)
		} else if n.NodeType == dom.ElementNode {
			if k, ok := b.oopHost(it.target, r); ok {
				stack = append(stack, b.stitch(k, idx, n))
			}
		}
		for i := len(r.ShadowRoots) - 1; i >= 0; i-- {
			stack = append(stack, next(r.ShadowRoots[i], it.frameID))
		}
		if b.opts.Lean {
			// Nothing reads a DOM node after its visit. Let it go, so the
			// decoded document shrinks as the tree grows.
			*r = cdpjson.Node{}
		}
	}
}

// oopHost finds the out-of-process target whose <iframe> is r (in target
// t). It goes by the owner recorded in the capture, else by frame id.
func (b *builder) oopHost(t int32, r *cdpjson.Node) (int, bool) {
	if len(b.targets) < 2 {
		return 0, false
	}
	parent := b.raw.Targets[t].TargetID
	for k := 1; k < len(b.targets); k++ {
		rt := b.raw.Targets[k]
		if !b.stitched[k] && rt.OwnerBackendID != 0 && rt.OwnerBackendID == r.BackendNodeID &&
			(rt.ParentTargetID == "" || rt.ParentTargetID == parent) {
			return k, true
		}
	}
	if r.FrameID != "" {
		if k, ok := b.byFrame[r.FrameID]; ok && !b.stitched[k] {
			return k, true
		}
	}
	return 0, false
}

// stitch makes the work item that puts out-of-process target k's document
// under its <iframe> host. It is shifted to where the frame sits in the
// page.
func (b *builder) stitch(k int, hostIdx int32, host *dom.VirtualNode) item {
	t := b.targets[k]
	b.stitched[k] = true
	rt := t.Raw
	// the target's main-document bounds + Offset - its own scroll
	dx, dy := rt.Offset.X-rt.Viewport.X, rt.Offset.Y-rt.Viewport.Y
	if rt.Offset == (dom.Rect{}) && host.Bounds.W > 0 {
		vp := t.DocViewport
		dx = host.Bounds.X + (host.Bounds.W-vp.W)/2 - rt.Viewport.X
		dy = host.Bounds.Y + (host.Bounds.H-vp.H)/2 - rt.Viewport.Y
	}
	fid := rt.FrameID
	if fid == "" {
		fid = rt.TargetID
	}
	it := item{raw: t.Root, parent: hostIdx, target: int32(k), frameID: fid, shiftX: dx, shiftY: dy, field: -1}
	if hostIdx >= 0 && int(hostIdx) < len(b.facts) && b.facts[hostIdx].redact {
		// a frame inside a sensitive element is part of it
		it.redact = true
		it.field = hostIdx
		for it.field >= 0 && !b.facts[it.field].field {
			it.field = b.facts[it.field].parent
		}
	}
	return it
}

// stitchOrphans queues under the root the out-of-process targets whose
// <iframe> was not found; it may have gone between captures. So nothing
// captured is lost. It reports whether it queued one.
func (b *builder) stitchOrphans(stack *[]item) bool {
	if len(b.nodes) == 0 {
		return false
	}
	for k := 1; k < len(b.targets); k++ {
		if t := b.targets[k]; !b.stitched[k] && t.Root != nil {
			it := b.stitch(k, 0, b.nodes[0])
			*stack = append(*stack, it)
			return true
		}
		b.stitched[k] = true
	}
	return false
}

// countSubtrees fills element counts, hasBoxBelow and sizedBelow,
// children before parents (reverse preorder).
func (b *builder) countSubtrees() {
	for i := len(b.nodes) - 1; i >= 0; i-- {
		f := &b.facts[i]
		if b.nodes[i].NodeType == dom.ElementNode {
			f.elements++
		}
		if p := f.parent; p >= 0 {
			pf := &b.facts[p]
			// Elements count the light DOM only, as querySelectorAll does.
			// Shadow roots and frame documents do not count.
			if n := b.nodes[i]; n.NodeType != dom.DocumentNode && n.NodeType != dom.FragmentNode {
				pf.elements += f.elements
			}
			// A frame's boxes are its own. They do not make its <iframe> a
			// display:contents element.
			if (f.box != nil || f.hasBoxBelow) && b.nodes[i].NodeType != dom.DocumentNode {
				pf.hasBoxBelow = true
			}
			if (f.sizedBelow || b.drawnSized(i)) && b.nodes[i].NodeType != dom.DocumentNode {
				pf.sizedBelow = true
			}
		}
	}
}

// trimContainerNames clears a text-derived name from a NonSemantic node
// that holds other acting nodes. A delegating <section> named after all
// its text repeats what its children say.
func (b *builder) trimContainerNames() {
	acts := make([]bool, len(b.nodes))
	for i := len(b.nodes) - 1; i >= 0; i-- {
		n, f := b.nodes[i], &b.facts[i]
		if f.textName && acts[i] {
			n.Name = ""
		}
		if p := f.parent; p >= 0 && (acts[i] || (n.Tier != dom.Structural && n.Visible)) {
			acts[p] = true
		}
	}
}
