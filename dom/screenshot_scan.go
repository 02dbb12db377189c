package dom

// Finding where the sensitive fields are drawn, for painting them over in
// a screenshot. One DOMSnapshot per target (the page and each
// out-of-process frame) gives every node's name, attributes and layout
// box, across open and closed shadow roots and same-process frames. The
// reply holds the fields' values too: they stay in this file's locals.

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
)

// fieldKey names a node by its target and backend node id.
type fieldKey struct {
	target string
	id     int64
}

// secretBoxes are where the sensitive fields were drawn at one moment, in
// page-document coordinates (those of VirtualNode.Bounds). A field's box
// is joined with the boxes of everything inside it, so text that spills
// out is covered. A frame that could not be looked into counts as one
// field: its whole box.
type secretBoxes map[fieldKey]Rect

func (s secretBoxes) add(k fieldKey, r Rect) {
	if r.W <= 0 && r.H <= 0 {
		return
	}
	if old, ok := s[k]; ok {
		r = hull(old, r)
	}
	s[k] = r
}

// hull is the smallest rectangle holding a and b.
func hull(a, b Rect) Rect {
	x0, y0 := min(a.X, b.X), min(a.Y, b.Y)
	x1, y1 := max(a.X+a.W, b.X+b.W), max(a.Y+a.H, b.Y+b.H)
	return Rect{X: x0, Y: y0, W: x1 - x0, H: y1 - y0}
}

// frameOwnerTags hold another document; without a same-process document
// of their own, their content is drawn by a target that must be scanned.
var frameOwnerTags = map[string]bool{"IFRAME": true, "FRAME": true, "FENCEDFRAME": true, "OBJECT": true, "EMBED": true}

// scanSnapshot is the part of a DOMSnapshot.captureSnapshot reply that
// finding the fields needs.
type scanSnapshot struct {
	strings []string
	docs    []scanDoc
}

type scanDoc struct {
	scrollX, scrollY float64
	parent           []int
	nodeType         []int
	nodeName         []int
	backend          []int
	attrs            [][]int
	content          rareInts // contentDocumentIndex
	layoutNode       []int
	bounds           [][]float64
}

// decodeScan reads a DOMSnapshot.captureSnapshot reply.
func decodeScan(data []byte) (*scanSnapshot, error) {
	s := &scanner{data: data}
	snap := &scanSnapshot{}
	err := s.object(func(key string) error {
		switch key {
		case "strings":
			return s.array(func() error {
				v, err := s.str()
				snap.strings = append(snap.strings, v)
				return err
			})
		case "documents":
			return s.array(func() error {
				var d scanDoc
				if err := decodeScanDoc(s, &d); err != nil {
					return err
				}
				snap.docs = append(snap.docs, d)
				return nil
			})
		}
		return s.skip()
	})
	if err == nil && (s.peek() != 0 || len(snap.docs) == 0) {
		err = errScan
	}
	return snap, err
}

func decodeScanDoc(s *scanner, d *scanDoc) error {
	return s.object(func(key string) error {
		switch key {
		case "scrollOffsetX":
			return s.float(&d.scrollX)
		case "scrollOffsetY":
			return s.float(&d.scrollY)
		case "nodes":
			return s.object(func(key string) error {
				switch key {
				case "parentIndex":
					return s.ints(&d.parent)
				case "nodeType":
					return s.ints(&d.nodeType)
				case "nodeName":
					return s.ints(&d.nodeName)
				case "backendNodeId":
					return s.ints(&d.backend)
				case "attributes":
					var slab []int
					return s.array(func() error {
						start := len(slab)
						err := s.ints(&slab)
						d.attrs = append(d.attrs, slab[start:len(slab):len(slab)])
						return err
					})
				case "contentDocumentIndex":
					return readRare(s, &d.content)
				}
				return s.skip()
			})
		case "layout":
			return s.object(func(key string) error {
				switch key {
				case "nodeIndex":
					return s.ints(&d.layoutNode)
				case "bounds":
					var slab []float64
					return s.array(func() error {
						start := len(slab)
						err := s.floats(&slab)
						d.bounds = append(d.bounds, slab[start:len(slab):len(slab)])
						return err
					})
				}
				return s.skip()
			})
		}
		return s.skip()
	})
}

// scanTarget is one target's part of a scan.
type scanTarget struct {
	id, parent string
	sess       Session
	snap       *scanSnapshot
	// fields are the sensitive fields' boxes, by document, in the
	// coordinates of that document.
	fields []map[fieldKey]Rect
	// holes are frame owners with no document here: the key's node, its
	// document and box.
	holes []hole
	// host[d] is the frame owner of document d: its document and node.
	host map[int][2]int
	// shift[d] moves document d into the target's top document.
	shift  map[int]*[2]float64
	origin [2]float64 // moves the top document into the page
	placed bool
	tried  bool
	where  map[int64][2]int // a node's document and layout row, by backend id
}

type hole struct {
	key fieldKey
	doc int
	box Rect
}

// scanSecrets finds where every sensitive field of the page is drawn now,
// in every frame and shadow root. known adds nodes an earlier capture
// found sensitive (a password field a page has since turned into text).
// It fails only when the page itself cannot be read: a frame that cannot
// be read or placed is covered whole instead.
func scanSecrets(ctx context.Context, p Page, known *SensitiveNodes) (secretBoxes, error) {
	frames, err := p.Frames(ctx)
	if err != nil {
		return nil, captureErr(err, "listing frames for a screenshot")
	}
	targets := []*scanTarget{{id: p.TargetID(), sess: p}}
	for _, f := range frames {
		parent := f.ParentID
		if parent == "" {
			parent = p.TargetID()
		}
		targets = append(targets, &scanTarget{id: f.TargetID, parent: parent, sess: f.Session})
	}
	var wg sync.WaitGroup
	errs := make([]error, len(targets))
	for i, t := range targets {
		wg.Go(func() {
			var raw json.RawMessage
			if errs[i] = t.sess.Call(ctx, "DOMSnapshot.captureSnapshot", map[string]any{"computedStyles": []string{}}, &raw); errs[i] != nil {
				return
			}
			t.snap, errs[i] = decodeScan(raw)
		})
	}
	wg.Wait()
	if errs[0] != nil {
		return nil, captureErr(errs[0], "finding the sensitive fields for a screenshot")
	}
	for i, t := range targets {
		if errs[i] != nil {
			t.snap = nil // a frame that cannot be read is covered by its owner
			continue
		}
		t.find(known)
	}
	main := targets[0]
	main.placed = true
	byID := map[string]*scanTarget{}
	for _, t := range targets {
		byID[t.id] = t
	}
	owners := map[fieldKey]bool{} // frame owners whose target is placed
	// Parents before children; nesting is shallow, passes are bounded.
	for pass := 0; pass < 8; pass++ {
		moved := false
		for _, t := range targets[1:] {
			par := byID[t.parent]
			if t.tried || t.snap == nil || par == nil || !par.placed {
				continue
			}
			// tried once: a frame not placed is covered by its owner
			t.tried, moved = true, true
			owner, ok := ownerOf(ctx, par.sess, t.id)
			if !ok {
				continue
			}
			d, box, ok := par.layoutOf(owner)
			if !ok {
				// an owner without a box is not drawn: nor is the frame
				owners[fieldKey{par.id, owner}] = true
				t.snap = nil
				continue
			}
			sh, ok := par.docShift(ctx, d)
			if !ok {
				continue
			}
			in, ok := insets(ctx, par.sess, owner, box)
			if !ok {
				continue
			}
			t.placed = true
			t.origin = [2]float64{
				par.origin[0] + sh[0] + box.X + in[0] - t.snap.docs[0].scrollX,
				par.origin[1] + sh[1] + box.Y + in[1] - t.snap.docs[0].scrollY,
			}
			owners[fieldKey{par.id, owner}] = true
		}
		if !moved {
			break
		}
	}
	out := secretBoxes{}
	for _, t := range targets {
		if t.snap == nil || !t.placed {
			continue
		}
		for d, fs := range t.fields {
			if len(fs) == 0 {
				continue
			}
			sh, ok := t.docShift(ctx, d)
			if !ok {
				t.coverDoc(ctx, d, out)
				continue
			}
			for k, r := range fs {
				out.add(k, t.toPage(sh, r))
			}
		}
		for _, h := range t.holes {
			if owners[h.key] {
				continue
			}
			if sh, ok := t.docShift(ctx, h.doc); ok {
				out.add(h.key, t.toPage(sh, h.box))
			} else {
				t.coverDoc(ctx, h.doc, out)
			}
		}
	}
	return out, nil
}

// find collects the sensitive fields' boxes and the frame owners of
// every document of t.
func (t *scanTarget) find(known *SensitiveNodes) {
	snap := t.snap
	// the string-table entries that name the two attributes read
	typ, ac := map[int]bool{}, map[int]bool{}
	for i, s := range snap.strings {
		switch strings.ToLower(s) {
		case "type":
			typ[i] = true
		case "autocomplete":
			ac[i] = true
		}
	}
	str := func(i int) string {
		if i >= 0 && i < len(snap.strings) {
			return snap.strings[i]
		}
		return ""
	}
	t.fields = make([]map[fieldKey]Rect, len(snap.docs))
	t.host = map[int][2]int{}
	for d := range snap.docs {
		doc := &snap.docs[d]
		for k, ni := range doc.content.Index {
			if k < len(doc.content.Value) {
				t.host[doc.content.Value[k]] = [2]int{d, ni}
			}
		}
	}
	for d := range snap.docs {
		doc := &snap.docs[d]
		n := len(doc.nodeType)
		hasDoc := map[int]bool{}
		for _, ni := range doc.content.Index {
			hasDoc[ni] = true
		}
		// owner[i] is the sensitive field that holds node i, or -1. Nodes
		// come after their parents (the flat tree, in order).
		owner := make([]int, n)
		var owners []int // frame owners with no document here
		for i := range n {
			owner[i] = -1
			if p := at(doc.parent, i); p >= 0 && p < i {
				owner[i] = owner[p]
			}
			if doc.nodeType[i] != ElementNode {
				continue
			}
			name := str(at(doc.nodeName, i))
			var tv, av string
			if i < len(doc.attrs) {
				a := doc.attrs[i]
				for j := 0; j+1 < len(a); j += 2 {
					switch {
					case typ[a[j]]:
						tv = str(a[j+1])
					case ac[a[j]]:
						av = str(a[j+1])
					}
				}
			}
			if sensitiveValues(name, tv, av) || known.has(fieldKey{t.id, int64(at(doc.backend, i))}) {
				owner[i] = i
			}
			if frameOwnerTags[strings.ToUpper(name)] && !hasDoc[i] {
				owners = append(owners, i)
			}
		}
		fields := map[fieldKey]Rect{}
		boxes := map[int]Rect{} // of the frame owners
		for li, ni := range doc.layoutNode {
			if ni < 0 || ni >= n || li >= len(doc.bounds) {
				continue
			}
			r := rectOf(doc.bounds[li])
			if o := owner[ni]; o >= 0 {
				k := fieldKey{t.id, int64(at(doc.backend, o))}
				if old, ok := fields[k]; ok {
					r = hull(old, r)
				}
				fields[k] = r
			}
		}
		if len(owners) > 0 {
			want := map[int]bool{}
			for _, i := range owners {
				want[i] = true
			}
			for li, ni := range doc.layoutNode {
				if want[ni] && li < len(doc.bounds) {
					if _, seen := boxes[ni]; !seen {
						boxes[ni] = rectOf(doc.bounds[li])
					}
				}
			}
		}
		t.fields[d] = fields
		for _, i := range owners {
			// a frame owner with no box draws nothing
			if b, ok := boxes[i]; ok && b.W > 0 && b.H > 0 {
				t.holes = append(t.holes, hole{key: fieldKey{t.id, int64(at(doc.backend, i))}, doc: d, box: b})
			}
		}
	}
}

// at is s[i], or -1 outside s.
func at(s []int, i int) int {
	if i >= 0 && i < len(s) {
		return s[i]
	}
	return -1
}

// layoutOf finds a node's document and its first box there.
func (t *scanTarget) layoutOf(id int64) (int, Rect, bool) {
	if t.where == nil {
		t.where = map[int64][2]int{}
		for d := range t.snap.docs {
			doc := &t.snap.docs[d]
			for li, ni := range doc.layoutNode {
				k := int64(at(doc.backend, ni))
				if _, seen := t.where[k]; !seen && li < len(doc.bounds) {
					t.where[k] = [2]int{d, li}
				}
			}
		}
	}
	w, ok := t.where[id]
	if !ok {
		return 0, Rect{}, false
	}
	r := rectOf(t.snap.docs[w[0]].bounds[w[1]])
	return w[0], r, r.W > 0 && r.H > 0
}

// docShift moves document d of t into t's top document: the content box
// of its frame owner, less its own scroll.
func (t *scanTarget) docShift(ctx context.Context, d int) ([2]float64, bool) {
	if d == 0 {
		return [2]float64{}, true
	}
	if t.shift == nil {
		t.shift = map[int]*[2]float64{}
	}
	if s, ok := t.shift[d]; ok {
		if s == nil {
			return [2]float64{}, false
		}
		return *s, true
	}
	t.shift[d] = nil // a cycle of owners ends here
	h, ok := t.host[d]
	if !ok || h[0] == d {
		return [2]float64{}, false
	}
	ps, ok := t.docShift(ctx, h[0])
	if !ok {
		return ps, false
	}
	pd := &t.snap.docs[h[0]]
	id := int64(at(pd.backend, h[1]))
	_, box, ok := t.layoutOf(id)
	if !ok {
		return ps, false
	}
	in, ok := insets(ctx, t.sess, id, box)
	if !ok {
		return ps, false
	}
	doc := &t.snap.docs[d]
	s := [2]float64{ps[0] + box.X + in[0] - doc.scrollX, ps[1] + box.Y + in[1] - doc.scrollY}
	t.shift[d] = &s
	return s, true
}

// coverDoc covers a document that cannot be placed with its frame
// owner's whole box, or the owner's own owner, up to a placed one.
func (t *scanTarget) coverDoc(ctx context.Context, d int, out secretBoxes) {
	for range len(t.snap.docs) {
		h, ok := t.host[d]
		if !ok {
			break
		}
		pd := &t.snap.docs[h[0]]
		id := int64(at(pd.backend, h[1]))
		if sh, ok := t.docShift(ctx, h[0]); ok {
			if _, box, ok := t.layoutOf(id); ok {
				out.add(fieldKey{t.id, id}, t.toPage(sh, box))
			}
			return
		}
		d = h[0]
	}
	// No owner to cover: the whole target. Only a broken reply gets here.
	for _, doc := range t.snap.docs[:1] {
		for li := range doc.layoutNode {
			if li < len(doc.bounds) {
				out.add(fieldKey{t.id, -1}, t.toPage([2]float64{}, rectOf(doc.bounds[li])))
			}
		}
	}
}

// toPage moves r from a document of t (shifted by sh) into the page.
func (t *scanTarget) toPage(sh [2]float64, r Rect) Rect {
	r.X += sh[0] + t.origin[0]
	r.Y += sh[1] + t.origin[1]
	return r
}

// ownerOf is the backend node id of the element that holds frameID, as
// the target s sees it.
func ownerOf(ctx context.Context, s Session, frameID string) (int64, bool) {
	var owner struct {
		BackendNodeID int64 `json:"backendNodeId"`
	}
	err := s.Call(ctx, "DOM.getFrameOwner", map[string]any{"frameId": frameID}, &owner)
	return owner.BackendNodeID, err == nil && owner.BackendNodeID != 0
}

// insets is how far a frame owner's content box sits inside its border
// box (borders and padding), in its document's CSS pixels: the box
// model's quads are in the viewport's, scaled by any zoom, which box
// (the border box from the layout) undoes.
func insets(ctx context.Context, s Session, id int64, box Rect) ([2]float64, bool) {
	var bm struct {
		Model struct {
			Content []float64 `json:"content"`
			Border  []float64 `json:"border"`
		} `json:"model"`
	}
	if err := s.Call(ctx, "DOM.getBoxModel", map[string]any{"backendNodeId": id}, &bm); err != nil ||
		len(bm.Model.Content) < 8 || len(bm.Model.Border) < 8 {
		return [2]float64{}, false
	}
	c, b := quadRect(bm.Model.Content), quadRect(bm.Model.Border)
	k := 1.0
	if b.W > 0 && box.W > 0 {
		k = box.W / b.W
	}
	return [2]float64{max(0, (c.X-b.X)*k), max(0, (c.Y-b.Y)*k)}, true
}
