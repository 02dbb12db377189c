package dom

// Finding where the sensitive fields are drawn, for painting them over in
// a screenshot. One DOMSnapshot per target (the page and each
// out-of-process frame) gives every node's name, attributes and layout
// box, across open and closed shadow roots and same-process frames. The
// reply holds the fields' values too: only the string table keeps them,
// and it is dropped with the scan.

import "strings"

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
