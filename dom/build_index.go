package dom

// box is one layout entry of DOMSnapshot: bounds already shifted into the
// target's top document, and computed style values.
type box struct {
	id     int64 // backend node id
	bounds Rect
	// styles are string-table indices in LayoutStyles order (-1: none),
	// n of them captured. Held inline: rows sliced from the decoder's slabs
	// kept every slab (about 15 MB on a 50,000-element page) alive.
	styles [maxLayoutStyles]int32
	n      uint8
}

// maxLayoutStyles bounds the computed styles a box holds (LayoutStyles
// has five).
const maxLayoutStyles = 8

// targetIndex holds one target's AX and layout facts by backend node id.
type targetIndex struct {
	raw   *RawTarget
	root  *cdpNode
	ax    map[int64]*axNode
	boxes map[int64]*box
	// layout holds the boxes in the layout's order (boxes points into it):
	// two layouts of a page are compared in step (layoutDiff).
	layout []box
	// listed holds every node the layout lists, laid out or not (nil
	// when it does not say): see layout_cover.go.
	listed    *idSet
	strings   []string
	listeners map[int64]bool
	// values are the live values of inputs and textareas (what the user
	// typed, not the value attribute the page was served with); selected
	// marks the selected options. Both from DOMSnapshot, by backend id.
	values   map[int64]string
	selected map[int64]bool
	// checked marks checked inputs; Build reads checked from AX, the live
	// model compares it to find property-only changes.
	checked map[int64]bool
	// docViewport is the size of the target's top document viewport (the
	// layout box of its #document), used to place an out-of-process frame
	// inside its <iframe> when the capture gave no offset.
	docViewport Rect
	stitched    bool
}

// style returns the computed value of one of LayoutStyles for a box.
func (ti *targetIndex) style(b *box, name string) string {
	return ti.styleAt(b, styleIndex(name))
}

// styleAt returns the computed value of LayoutStyles[i] for a box: the
// hot paths (every box of every refresh) name the style by its index.
func (ti *targetIndex) styleAt(b *box, i int) string {
	if b == nil || i < 0 || i >= int(b.n) {
		return ""
	}
	s := int(b.styles[i])
	if s < 0 || s >= len(ti.strings) {
		return ""
	}
	return ti.strings[s]
}

// cursorStyle is the index of "cursor" in LayoutStyles.
var cursorStyle = styleIndex("cursor")

// visibilityStyle is the index of "visibility" in LayoutStyles.
var visibilityStyle = styleIndex("visibility")

func styleIndex(name string) int {
	for i, s := range LayoutStyles {
		if s == name {
			return i
		}
	}
	return -1
}

// indexTarget parses one target's capture. Unparseable AX trees or layout
// are skipped (the tree is still built from the DOM), a bad document is an
// error.
func indexTarget(rt *RawTarget, lean bool) (*targetIndex, error) {
	ti := &targetIndex{raw: rt, ax: map[int64]*axNode{}, boxes: map[int64]*box{}, listeners: map[int64]bool{}}
	root, err := parseDocument(rt.Document)
	if err != nil {
		return nil, err
	}
	ti.root = root
	if err := graftParts(root, rt.DocumentParts); err != nil {
		return nil, err
	}
	if lean {
		rt.Document, rt.DocumentParts = nil, nil
	}
	for i, raw := range rt.AXTrees {
		if len(raw) == 0 {
			continue
		}
		// a tree that does not decode is skipped: the DOM still builds
		_ = decodeAXTree(raw, ti.ax)
		if lean {
			rt.AXTrees[i] = nil
		}
	}
	for _, l := range rt.Listeners {
		if clickFamily[l.Type] || l.Type == "" {
			ti.listeners[l.BackendID] = true
		}
	}
	if len(rt.Layout) > 0 {
		// a layout that does not decode leaves every node without a box
		if snap, err := decodeSnapshot(rt.Layout); err == nil {
			ti.indexLayout(snap)
		}
		if lean {
			rt.Layout = nil
		}
	}
	return ti, nil
}

// clickFamily are the listener types that make an element act on a click.
var clickFamily = map[string]bool{
	"click": true, "dblclick": true, "auxclick": true, "mousedown": true, "mouseup": true,
	"pointerdown": true, "pointerup": true, "touchstart": true, "touchend": true,
}

// indexLayout indexes layout boxes by backend node id and shifts the boxes
// of same-process child documents (whose bounds are relative to their own
// frame) into the coordinates of the target's top document.
func (ti *targetIndex) indexLayout(snap *snapCapture) {
	ti.strings = snap.Strings
	ti.listed = listNodes(snap)
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
	rawBox := func(d, nodeIdx int) (Rect, bool) {
		l := &docs[d].Layout
		for li, ni := range l.NodeIndex {
			if ni == nodeIdx && li < len(l.Bounds) {
				return rectOf(l.Bounds[li]), true
			}
		}
		return Rect{}, false
	}
	// The capture says where each same-process frame sits (RawFrame.Offset,
	// its <iframe>'s content box in the target's main document).
	frames := map[string]Rect{}
	for _, fr := range ti.raw.Frames {
		if fr.OwnerBackendID != 0 || fr.Offset != (Rect{}) {
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
	// Otherwise: each pass places child documents whose parent is placed,
	// at the centre of the <iframe>'s box (borders taken as even).
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
	// The boxes of one layout live and die together: one slab, not an
	// allocation each (a page of 10,000 elements has about 20,000).
	total := 0
	for d := range docs {
		total += len(docs[d].Layout.NodeIndex)
	}
	slab := make([]box, 0, total)
	if len(ti.boxes) == 0 {
		ti.boxes = make(map[int64]*box, total)
	}
	for d := range docs {
		doc := &docs[d]
		sh := shifts[d]
		for li, ni := range doc.Layout.NodeIndex {
			if ni < 0 || ni >= len(doc.Nodes.BackendNodeID) {
				continue
			}
			id := doc.Nodes.BackendNodeID[ni]
			if _, dup := ti.boxes[id]; dup {
				continue // a second box (continuation, pseudo) of the same node
			}
			slab = append(slab, box{id: id})
			b := &slab[len(slab)-1]
			if li < len(doc.Layout.Bounds) {
				b.bounds = rectOf(doc.Layout.Bounds[li])
				b.bounds.X += sh.dx
				b.bounds.Y += sh.dy
			}
			if li < len(doc.Layout.Styles) {
				row := doc.Layout.Styles[li]
				b.n = uint8(min(len(row), maxLayoutStyles))
				for k := range int(b.n) {
					b.styles[k] = int32(row[k])
				}
			}
			ti.boxes[id] = b
			if d == 0 && ni == 0 {
				ti.docViewport = b.bounds
			}
		}
	}
	ti.layout = slab
}

// indexValues indexes the live form values of every document.
func (ti *targetIndex) indexValues(snap *snapCapture) {
	for d := range snap.Documents {
		nodes := &snap.Documents[d].Nodes
		backend := func(ni int) int64 {
			if ni < 0 || ni >= len(nodes.BackendNodeID) {
				return 0
			}
			return nodes.BackendNodeID[ni]
		}
		for _, col := range []*rareInts{&nodes.InputValue, &nodes.TextValue} {
			for k, ni := range col.Index {
				id := backend(ni)
				if id == 0 || k >= len(col.Value) || col.Value[k] >= len(snap.Strings) {
					continue
				}
				if ti.values == nil {
					ti.values = map[int64]string{}
				}
				v := "" // an empty value is string index -1
				if si := col.Value[k]; si >= 0 {
					v = snap.Strings[si]
				}
				ti.values[id] = v
			}
		}
		for _, ni := range nodes.OptionSelected.Index {
			if id := backend(ni); id != 0 {
				if ti.selected == nil {
					ti.selected = map[int64]bool{}
				}
				ti.selected[id] = true
			}
		}
		for _, ni := range nodes.InputChecked.Index {
			if id := backend(ni); id != 0 {
				if ti.checked == nil {
					ti.checked = map[int64]bool{}
				}
				ti.checked[id] = true
			}
		}
	}
}

func rectOf(b []float64) Rect {
	var r Rect
	if len(b) >= 4 {
		r = Rect{X: b[0], Y: b[1], W: b[2], H: b[3]}
	}
	return r
}
