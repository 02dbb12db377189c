package screenshot

// Finding where the sensitive fields are drawn, for painting them over in
// a screenshot. There is one DOMSnapshot per target: the page and each
// out-of-process frame. It gives every node's name, attributes and layout
// box, across open and closed shadow roots and same-process frames. The
// reply holds the fields' values too. Only the string table keeps them,
// and it is dropped with the scan.

import (
	"strings"

	"domscope/dom"
	"domscope/dom/cdpjson"
)

// fieldKey names a node by its target and backend node id.
type fieldKey struct {
	target string
	id     int64
}

// secretBoxes are where the sensitive fields were drawn at one moment. They
// are in page-document coordinates (those of VirtualNode.Bounds). A
// field's box is joined with the boxes of everything inside it, so text
// that spills out is covered. A frame that could not be looked into counts
// as one field: its whole box.
type secretBoxes map[fieldKey]dom.Rect

func (s secretBoxes) add(k fieldKey, r dom.Rect) {
	if r.W <= 0 && r.H <= 0 {
		return
	}
	if old, ok := s[k]; ok {
		r = hull(old, r)
	}
	s[k] = r
}

// hull is the smallest rectangle holding a and b.
func hull(a, b dom.Rect) dom.Rect {
	x0, y0 := min(a.X, b.X), min(a.Y, b.Y)
	x1, y1 := max(a.X+a.W, b.X+b.W), max(a.Y+a.H, b.Y+b.H)
	return dom.Rect{X: x0, Y: y0, W: x1 - x0, H: y1 - y0}
}

// frameOwnerTags hold another document. Without a same-process document
// of their own, their content is drawn by a target that must be scanned.
var frameOwnerTags = map[string]bool{"IFRAME": true, "FRAME": true, "FENCEDFRAME": true, "OBJECT": true, "EMBED": true}

// scanTarget is one target's part of a scan.
type scanTarget struct {
	id, parent string
	sess       dom.Session
	snap       *cdpjson.NodeLayout
	// fields are the sensitive fields' boxes, by document, in the
	// coordinates of that document.
	fields []map[fieldKey]dom.Rect
	// holes are frame owners with no document here. The key's node has
	// its document and box.
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
	box dom.Rect
}

// find collects the sensitive fields' boxes and the frame owners of
// every document of t.
func (t *scanTarget) find(known *SensitiveNodes) {
	snap := t.snap
	// the string-table entries that name the two attributes read
	typ, ac := map[int]bool{}, map[int]bool{}
	for i, s := range snap.Strings {
		switch strings.ToLower(s) {
		case "type":
			typ[i] = true
		case "autocomplete":
			ac[i] = true
		}
	}
	str := func(i int) string {
		if i >= 0 && i < len(snap.Strings) {
			return snap.Strings[i]
		}
		return ""
	}
	t.fields = make([]map[fieldKey]dom.Rect, len(snap.Docs))
	t.host = map[int][2]int{}
	for d := range snap.Docs {
		doc := &snap.Docs[d]
		for k, ni := range doc.Content.Index {
			if k < len(doc.Content.Value) {
				t.host[doc.Content.Value[k]] = [2]int{d, ni}
			}
		}
	}
	for d := range snap.Docs {
		doc := &snap.Docs[d]
		n := len(doc.NodeType)
		hasDoc := map[int]bool{}
		for _, ni := range doc.Content.Index {
			hasDoc[ni] = true
		}
		// owner[i] is the sensitive field that holds node i, or -1. Nodes
		// come after their parents (the flat tree, in order).
		owner := make([]int, n)
		var owners []int // frame owners with no document here
		for i := range n {
			owner[i] = -1
			if p := at(doc.Parent, i); p >= 0 && p < i {
				owner[i] = owner[p]
			}
			if doc.NodeType[i] != dom.ElementNode {
				continue
			}
			name := str(at(doc.NodeName, i))
			var tv, av string
			if i < len(doc.Attrs) {
				a := doc.Attrs[i]
				for j := 0; j+1 < len(a); j += 2 {
					switch {
					case typ[a[j]]:
						tv = str(a[j+1])
					case ac[a[j]]:
						av = str(a[j+1])
					}
				}
			}
			if dom.SensitiveAttrs(name, tv, av) || known.has(fieldKey{t.id, int64(at(doc.Backend, i))}) {
				owner[i] = i
			}
			if frameOwnerTags[strings.ToUpper(name)] && !hasDoc[i] {
				owners = append(owners, i)
			}
		}
		fields := map[fieldKey]dom.Rect{}
		boxes := map[int]dom.Rect{} // of the frame owners
		for li, ni := range doc.LayoutNode {
			if ni < 0 || ni >= n || li >= len(doc.Bounds) {
				continue
			}
			r := cdpjson.RectOf(doc.Bounds[li])
			if o := owner[ni]; o >= 0 {
				k := fieldKey{t.id, int64(at(doc.Backend, o))}
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
			for li, ni := range doc.LayoutNode {
				if want[ni] && li < len(doc.Bounds) {
					if _, seen := boxes[ni]; !seen {
						boxes[ni] = cdpjson.RectOf(doc.Bounds[li])
					}
				}
			}
		}
		t.fields[d] = fields
		for _, i := range owners {
			// a frame owner with no box draws nothing
			if b, ok := boxes[i]; ok && b.W > 0 && b.H > 0 {
				t.holes = append(t.holes, hole{key: fieldKey{t.id, int64(at(doc.Backend, i))}, doc: d, box: b})
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
