// Package cdpjson reads the CDP JSON of a capture into a decoded Capture.
// The JSON is DOM.getDocument, the AX trees and DOMSnapshot. The later
// stages share the decoded form. It also writes a decoded capture back.
// It reads bytes; it calls nothing.
package cdpjson

import (
	"strings"

	"domscope/dom"
)

// Box is one layout entry of DOMSnapshot. Its bounds are already shifted
// into the target's top document. It holds computed style values.
type Box struct {
	ID     int64 // backend node id
	Bounds dom.Rect
	// Styles are string-table indices in LayoutStyles order (-1: none).
	// NStyles of them are captured. They are held inline. Rows sliced from
	// the decoder's slabs kept every slab alive (about 15 MB on a
	// 50,000-element page).
	Styles  [MaxLayoutStyles]int32
	NStyles uint8
}

// MaxLayoutStyles bounds the computed styles a box holds (LayoutStyles
// has five).
const MaxLayoutStyles = 8

// Target holds one target's AX and layout facts by backend node id.
type Target struct {
	Raw   *dom.RawTarget
	Root  *Node
	AX    map[int64]*AXNode
	Boxes map[int64]*Box
	// Layout holds the boxes in the layout's order; Boxes points into it.
	// The live model's layoutDiff compares two layouts of a page in step.
	Layout []Box
	// Listed holds every node the layout lists, laid out or not. It is nil
	// when the layout does not say. See cover.go.
	Listed    *IDSet
	Strings   []string
	Listeners map[int64]bool
	// Values are the live values of inputs and textareas. That is what the
	// user typed, not the value attribute the page was served with.
	// Selected marks the selected options. Both come from DOMSnapshot, by
	// backend id.
	Values   map[int64]string
	Selected map[int64]bool
	// Checked marks checked inputs. Build reads checked from AX. The live
	// model compares Checked to find property-only changes.
	Checked map[int64]bool
	// DocViewport is the size of the target's top document viewport: the
	// layout box of its #document. It places an out-of-process frame inside
	// its <iframe> when the capture gave no offset.
	DocViewport dom.Rect
}

// Capture is a RawCapture decoded. The stages after reading hand it on.
// Raw keeps the capture's metadata. Targets[0] is the page; the rest are
// its out-of-process frames, as in Raw.Targets.
type Capture struct {
	Raw     *dom.RawCapture
	Targets []*Target
}

// Decode decodes every target of a capture (see DecodeTarget).
// With lean, each part's JSON is released once decoded. An
// out-of-process frame that does not decode is kept empty.
func Decode(raw *dom.RawCapture, lean bool) (*Capture, error) {
	c := &Capture{Raw: raw}
	for i := range raw.Targets {
		ti, err := DecodeTarget(&raw.Targets[i], lean)
		if err != nil {
			if i == 0 {
				return nil, dom.Errorf(dom.SnapshotFailed, err, "cannot read the page's DOM from the capture")
			}
			ti = EmptyTarget(&raw.Targets[i])
		}
		c.Targets = append(c.Targets, ti)
	}
	return c, nil
}

// EmptyTarget is a target with no facts: a frame that could not be read.
func EmptyTarget(rt *dom.RawTarget) *Target {
	return &Target{Raw: rt, AX: map[int64]*AXNode{}, Boxes: map[int64]*Box{}, Listeners: map[int64]bool{}}
}

// Style returns the computed value of one of LayoutStyles for a box.
func (ti *Target) Style(b *Box, name string) string {
	return ti.StyleAt(b, styleIndex(name))
}

// StyleAt returns the computed value of LayoutStyles[i] for a box. The
// hot paths name the style by its index: they run on every box of every
// refresh.
func (ti *Target) StyleAt(b *Box, i int) string {
	if b == nil || i < 0 || i >= int(b.NStyles) {
		return ""
	}
	s := int(b.Styles[i])
	if s < 0 || s >= len(ti.Strings) {
		return ""
	}
	return ti.Strings[s]
}

// CursorStyle is the index of "cursor" in LayoutStyles.
var CursorStyle = styleIndex("cursor")

// OverflowStyle is the index of "overflow" in LayoutStyles.
var OverflowStyle = styleIndex("overflow")

// Scrolls reports whether a box's overflow scrolls on some axis (auto or
// scroll): a scroll container if its content is larger than its box.
func (ti *Target) Scrolls(b *Box) bool {
	if b == nil {
		return false
	}
	ov := ti.StyleAt(b, OverflowStyle)
	return strings.Contains(ov, "auto") || strings.Contains(ov, "scroll")
}

// VisibilityStyle is the index of "visibility" in LayoutStyles.
var VisibilityStyle = styleIndex("visibility")

func styleIndex(name string) int {
	for i, s := range dom.LayoutStyles {
		if s == name {
			return i
		}
	}
	return -1
}

// DecodeTarget parses one target's capture. Unparseable AX trees or
// layout are skipped; the tree is still built from the DOM. A bad
// document is an error.
func DecodeTarget(rt *dom.RawTarget, lean bool) (*Target, error) {
	return DecodeTargetEarly(rt, lean, nil)
}

// Early holds a target's parts decoded as they arrived, before the
// capture ended (see capture.Take). Each is what DecodeTarget would
// decode from the same bytes. A part not decoded early is nil.
type Early struct {
	Root    *Node
	RootErr error
	HasRoot bool
	// AX is the main frame's tree (rt.AXTrees[0]).
	AX     map[int64]*AXNode
	Layout *DOMSnapshot
	// LayoutErr: the layout did not decode; DecodeTarget skips it.
	LayoutErr error
	HasLayout bool
}

// DecodeTargetEarly is DecodeTarget, taking from e what was decoded
// already. e may be nil.
func DecodeTargetEarly(rt *dom.RawTarget, lean bool, e *Early) (*Target, error) {
	if e == nil {
		e = &Early{}
	}
	ti := EmptyTarget(rt)
	root, err := e.Root, e.RootErr
	if !e.HasRoot {
		root, err = ParseDocument(rt.Document)
	}
	if err != nil {
		return nil, err
	}
	ti.Root = root
	if err := GraftParts(root, rt.DocumentParts); err != nil {
		return nil, err
	}
	if lean {
		rt.Document, rt.DocumentParts = nil, nil
	}
	if e.AX != nil {
		// the main frame's tree, first: its nodes win
		ti.AX = e.AX
	}
	for i, raw := range rt.AXTrees {
		// a tree that does not decode is skipped: the DOM still builds
		if len(raw) > 0 && (i > 0 || e.AX == nil) {
			_ = DecodeAXTree(raw, ti.AX)
		}
		if lean {
			rt.AXTrees[i] = nil
		}
	}
	for _, l := range rt.Listeners {
		if ClickFamily[l.Type] || l.Type == "" {
			ti.Listeners[l.BackendID] = true
		}
	}
	if len(rt.Layout) > 0 || e.HasLayout {
		snap, err := e.Layout, e.LayoutErr
		if !e.HasLayout {
			snap, err = DecodeDOMSnapshot(rt.Layout)
		}
		// a layout that does not decode leaves every node without a box
		if err == nil {
			ti.IndexLayout(snap)
		}
		if lean {
			rt.Layout = nil
		}
	}
	return ti, nil
}

// ClickFamily are the listener types that make an element act on a click.
var ClickFamily = map[string]bool{
	"click": true, "dblclick": true, "auxclick": true, "mousedown": true, "mouseup": true,
	"pointerdown": true, "pointerup": true, "touchstart": true, "touchend": true,
}

// IndexLayout indexes layout boxes by backend node id. Same-process child
// documents have bounds relative to their own frame. It shifts their
// boxes into the coordinates of the target's top document.
func (ti *Target) IndexLayout(snap *DOMSnapshot) {
	ti.Strings = snap.Strings
	ti.Listed = listNodes(snap)
	docs := snap.Documents
	type shift struct {
		dx, dy float64
		ok     bool
	}
	shifts := make([]shift, len(docs))
	if len(docs) > 0 {
		shifts[0] = shift{ok: true}
	}
	// raw bounds of a node (by document and node index), before shifting
	rawBox := func(d, nodeIdx int) (dom.Rect, bool) {
		l := &docs[d].Layout
		for li, ni := range l.NodeIndex {
			if ni == nodeIdx && li < len(l.Bounds) {
				return RectOf(l.Bounds[li]), true
			}
		}
		return dom.Rect{}, false
	}
	// The capture says where each same-process frame sits: RawFrame.Offset.
	// That is its <iframe>'s content box in the target's main document.
	frames := map[string]dom.Rect{}
	for _, fr := range ti.Raw.Frames {
		if fr.OwnerBackendID != 0 || fr.Offset != (dom.Rect{}) {
			frames[fr.FrameID] = fr.Offset
		}
	}
	for d := 1; d < len(docs); d++ {
		fid := docs[d].FrameID
		if fid < 0 || fid >= len(snap.Strings) {
			continue
		}
		if off, ok := frames[snap.Strings[fid]]; ok {
			shifts[d] = shift{dx: off.X - docs[d].ScrollOffsetX, dy: off.Y - docs[d].ScrollOffsetY, ok: true}
		}
	}
	// Otherwise each pass places child documents whose parent is placed.
	// They go at the centre of the <iframe>'s box (borders taken as even).
	for pass := 0; pass < len(docs); pass++ {
		changed := false
		for p := range docs {
			if !shifts[p].ok {
				continue
			}
			cdi := docs[p].Nodes.ContentDocumentIndex
			for k, hostIdx := range cdi.Index {
				if k >= len(cdi.Value) {
					break
				}
				c := cdi.Value[k]
				if c < 0 || c >= len(docs) || shifts[c].ok {
					continue
				}
				host, ok := rawBox(p, hostIdx)
				if !ok {
					shifts[c] = shift{dx: shifts[p].dx, dy: shifts[p].dy, ok: true}
					changed = true
					continue
				}
				vp, _ := rawBox(c, 0)
				shifts[c] = shift{
					dx: shifts[p].dx + host.X + (host.W-vp.W)/2 - docs[c].ScrollOffsetX,
					dy: shifts[p].dy + host.Y + (host.H-vp.H)/2 - docs[c].ScrollOffsetY,
					ok: true,
				}
				changed = true
			}
		}
		if !changed {
			break
		}
	}
	ti.indexValues(snap)
	// The boxes of one layout live and die together. So they share one
	// slab, not an allocation each. A page of 10,000 elements has about
	// 20,000.
	total := 0
	for d := range docs {
		total += len(docs[d].Layout.NodeIndex)
	}
	slab := make([]Box, 0, total)
	if len(ti.Boxes) == 0 {
		ti.Boxes = make(map[int64]*Box, total)
	}
	for d := range docs {
		doc := &docs[d]
		sh := shifts[d]
		for li, ni := range doc.Layout.NodeIndex {
			if ni < 0 || ni >= len(doc.Nodes.BackendNodeID) {
				continue
			}
			id := doc.Nodes.BackendNodeID[ni]
			if _, dup := ti.Boxes[id]; dup {
				continue // a second box (continuation, pseudo) of the same node
			}
			slab = append(slab, Box{ID: id})
			b := &slab[len(slab)-1]
			if li < len(doc.Layout.Bounds) {
				b.Bounds = RectOf(doc.Layout.Bounds[li])
				b.Bounds.X += sh.dx
				b.Bounds.Y += sh.dy
			}
			if li < len(doc.Layout.Styles) {
				row := doc.Layout.Styles[li]
				b.NStyles = uint8(min(len(row), MaxLayoutStyles))
				for k := range int(b.NStyles) {
					b.Styles[k] = int32(row[k])
				}
			}
			ti.Boxes[id] = b
			if d == 0 && ni == 0 {
				ti.DocViewport = b.Bounds
			}
		}
	}
	ti.Layout = slab
}

// indexValues indexes the live form values of every document.
func (ti *Target) indexValues(snap *DOMSnapshot) {
	for d := range snap.Documents {
		nodes := &snap.Documents[d].Nodes
		backend := func(ni int) int64 {
			if ni < 0 || ni >= len(nodes.BackendNodeID) {
				return 0
			}
			return nodes.BackendNodeID[ni]
		}
		for _, col := range []*RareInts{&nodes.InputValue, &nodes.TextValue} {
			for k, ni := range col.Index {
				id := backend(ni)
				if id == 0 || k >= len(col.Value) || col.Value[k] >= len(snap.Strings) {
					continue
				}
				if ti.Values == nil {
					ti.Values = map[int64]string{}
				}
				v := "" // an empty value is string index -1
				if si := col.Value[k]; si >= 0 {
					v = snap.Strings[si]
				}
				ti.Values[id] = v
			}
		}
		for _, ni := range nodes.OptionSelected.Index {
			if id := backend(ni); id != 0 {
				if ti.Selected == nil {
					ti.Selected = map[int64]bool{}
				}
				ti.Selected[id] = true
			}
		}
		for _, ni := range nodes.InputChecked.Index {
			if id := backend(ni); id != 0 {
				if ti.Checked == nil {
					ti.Checked = map[int64]bool{}
				}
				ti.Checked[id] = true
			}
		}
	}
}

// RectOf reads a DOMSnapshot bounds row (x, y, width, height).
func RectOf(b []float64) dom.Rect {
	var r dom.Rect
	if len(b) >= 4 {
		r = dom.Rect{X: b[0], Y: b[1], W: b[2], H: b[3]}
	}
	return r
}
