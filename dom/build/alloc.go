package build

import (
	"strings"
	"unsafe"

	"domscope/dom"
	"domscope/dom/cdpjson"
)

// A 50,000-element page has about 150,000 nodes. Allocated one by one,
// with child lists grown by append, they were over a million objects a
// build, which the GC then scans. Nodes and child lists come from
// chunks instead. A chunk is small, so a node kept after its tree is
// dropped keeps little else alive.
// A chunk fills the largest small size class (32 KiB): a bigger one
// takes whole pages, and wasted a sixth of them.
const (
	nodeChunk = 32 << 10 / int(unsafe.Sizeof(dom.VirtualNode{}))
	kidChunk  = 32 << 10 / int(unsafe.Sizeof((*dom.VirtualNode)(nil)))
)

// newNode hands out a zeroed node.
func (b *builder) newNode() *dom.VirtualNode {
	if len(b.slab) == 0 {
		b.slab = make([]dom.VirtualNode, nodeChunk)
	}
	n := &b.slab[0]
	b.slab = b.slab[1:]
	return n
}

// childList is an empty child list with room for r's children: shadow
// roots, a frame document, light children and template content. An
// element may also get an out-of-process frame's document (oop). Its
// capacity is capped, so an append past it copies and never writes
// into a neighbour's list.
func (b *builder) childList(r *cdpjson.Node, oop bool) []*dom.VirtualNode {
	k := len(r.ShadowRoots) + len(r.Children)
	if r.ContentDocument != nil {
		k++
	}
	if r.TemplateContent != nil {
		k++
	}
	if oop && r.NodeType == dom.ElementNode {
		k++
	}
	if k == 0 {
		return nil
	}
	return b.kidList(k)
}

// kidList is an empty child list with room for k children, cut from the
// builder's chunk. A long list gets its own array.
func (b *builder) kidList(k int) []*dom.VirtualNode {
	if k > kidChunk/4 {
		return make([]*dom.VirtualNode, 0, k)
	}
	if len(b.kids) < k {
		b.kids = make([]*dom.VirtualNode, kidChunk)
	}
	c := b.kids[:0:k]
	b.kids = b.kids[k:]
	return c
}

// sameAttrs reports whether old is the map cdpjson.AttrMap makes of a.
func sameAttrs(old map[string]string, a []string) bool {
	if len(a) < 2 {
		return false // no map to share: AttrMap gives nil
	}
	if len(old) != len(a)/2 || len(a)%2 != 0 {
		return false
	}
	for i := 0; i+1 < len(a); i += 2 {
		v, ok := old[lower(a[i])]
		if !ok || v != a[i+1] {
			return false
		}
	}
	return true
}

// lower is strings.ToLower for the usual attribute name, which is
// lower case already: no call, no copy.
func lower(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 'A' && c <= 'Z' || c >= 0x80 {
			return strings.ToLower(s)
		}
	}
	return s
}

// why is prefix+role, made once per build.
func (b *builder) why(prefix, role string) string {
	if b.whys == nil {
		b.whys = map[[2]string]string{}
	}
	k := [2]string{prefix, role}
	if w, ok := b.whys[k]; ok {
		return w
	}
	w := prefix + role
	b.whys[k] = w
	return w
}
