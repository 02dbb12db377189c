package flatten

import (
	"hash/fnv"
	"strconv"
	"strings"

	"domscope/dom"
	"domscope/dom/internal/textutil"
)

// Folding (issue 33): a run of at least foldRun siblings of the same
// shape shows its first foldKeep and one line for the rest. The line
// names the range and the call that shows them all.
const (
	foldRun  = 8
	foldKeep = 3
	// shapeDepth bounds how deep a shape looks: cards differ deep down
	// in their text, not in their outline.
	shapeDepth = 4
	// foldLabelLen bounds each name of a fold's range, in runes.
	foldLabelLen = 40
)

// FoldMarker is the Tag of a fold's line (Role "more").
const FoldMarker = "#fold"

func (f *flat) folding() bool {
	return f.opts.Fold && f.on(FlatFoldRepeats) && len(f.opts.Roots) == 0
}

// fold folds the runs of every children list of the output.
func (f *flat) fold() {
	shapes := map[*dom.SerializedNode]uint64{}
	var walk func(l []*dom.SerializedNode) []*dom.SerializedNode
	walk = func(l []*dom.SerializedNode) []*dom.SerializedNode {
		l = f.foldList(l, shapes)
		for _, c := range l {
			if c != nil && len(c.Children) > 0 {
				c.Children = walk(c.Children)
			}
		}
		return l
	}
	// iterative over depth would be kinder to deep trees; the depth of
	// the output is bounded by MaxDepth (100 by default).
	f.sd.Nodes = walk(f.sd.Nodes)
}

// foldList folds the runs of one list of siblings.
func (f *flat) foldList(l []*dom.SerializedNode, shapes map[*dom.SerializedNode]uint64) []*dom.SerializedNode {
	if len(l) < foldRun {
		return l
	}
	var out []*dom.SerializedNode
	for i := 0; i < len(l); {
		j := i + 1
		if f.foldable(l[i]) {
			s := shapeOf(l[i], shapeDepth, shapes)
			for j < len(l) && l[j] != nil && shapeOf(l[j], shapeDepth, shapes) == s {
				j++
			}
		}
		if j-i < foldRun {
			out = append(out, l[i:j]...)
			i = j
			continue
		}
		if out == nil {
			out = append(make([]*dom.SerializedNode, 0, len(l)), l[:i]...)
		}
		out = append(out, l[i:i+foldKeep]...)
		out = append(out, f.foldLine(l[i:j]))
		for _, n := range l[i+foldKeep : j] {
			f.unshow(n)
			if f.sd.Marks.Folded == nil {
				f.sd.Marks.Folded = map[string]string{}
			}
			f.sd.Marks.Folded[n.ID] = l[i].ID
		}
		i = j
	}
	if out == nil {
		return l
	}
	return out
}

// foldable: a node whose repeats may fold. Text (paragraphs) and
// markers never fold: they are what the page says. Nor does a bare
// control (a toolbar's buttons): its line is its action, and an agent
// would need a second call to find one.
func (f *flat) foldable(n *dom.SerializedNode) bool {
	if n == nil || n.Role == "text" || n.Role == "more" {
		return false
	}
	v := f.s.ByID[n.ID]
	return len(n.Children) > 0 || v == nil || !isInteractive(v)
}

// shapeOf hashes a node's role, tag and child structure to depth.
func shapeOf(n *dom.SerializedNode, depth int, memo map[*dom.SerializedNode]uint64) uint64 {
	if n == nil {
		return 0
	}
	if depth == shapeDepth {
		if s, ok := memo[n]; ok {
			return s
		}
	}
	h := fnv.New64a()
	h.Write([]byte(n.Role))
	h.Write([]byte{0})
	h.Write([]byte(n.Tag))
	if depth > 1 {
		var b [8]byte
		for _, c := range n.Children {
			s := shapeOf(c, depth-1, memo)
			for k := range b {
				b[k] = byte(s >> (8 * k))
			}
			h.Write(b[:])
		}
	}
	s := h.Sum64()
	if depth == shapeDepth {
		memo[n] = s
	}
	return s
}

// foldLine is the line that stands for run[foldKeep:]: how many, like
// which, the range of their names and how to see them all.
func (f *flat) foldLine(run []*dom.SerializedNode) *dom.SerializedNode {
	rest := run[foldKeep:]
	first, last := f.s.ByID[run[0].ID], f.s.ByID[run[len(run)-1].ID]
	list := commonAncestor(first, last)
	var b strings.Builder
	b.WriteString(strconv.Itoa(len(rest)))
	b.WriteString(" more ")
	b.WriteString(textRole(run[0]))
	b.WriteString(" like [")
	b.WriteString(shortID(run[0].ID))
	b.WriteString("] (")
	a, z := itemLabel(rest[0]), itemLabel(rest[len(rest)-1])
	if a != "" || z != "" {
		b.WriteString(quote(a) + " … " + quote(z) + "; ")
	}
	id := ""
	if list != nil {
		id = list.ID
		b.WriteString("dom_snapshot selector [" + shortID(list.ID) + "] for all)")
	} else {
		b.WriteString("dom_snapshot with folds off for all)")
	}
	return &dom.SerializedNode{ID: id, Role: "more", Tag: FoldMarker, Text: b.String()}
}

// unshow records that n and its output subtree are folded away.
func (f *flat) unshow(n *dom.SerializedNode) {
	stack := []*dom.SerializedNode{n}
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if x == nil {
			continue
		}
		if k := f.dec.Index(x.ID); k >= 0 && x.Role != "more" {
			f.dec.Change(k, dom.Hoist, FlatFoldRepeats)
		}
		stack = append(stack, x.Children...)
	}
}

// itemLabel is what names an item of a run: its name, else its first
// text or named descendant. A value is never used: it may be private.
func itemLabel(n *dom.SerializedNode) string {
	stack := []*dom.SerializedNode{n}
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if x == nil || x.Role == "more" {
			continue
		}
		if x.Name != "" {
			return textutil.Truncate(x.Name, foldLabelLen)
		}
		if x.Role == "text" && x.Text != "" {
			return textutil.Truncate(x.Text, foldLabelLen)
		}
		for i := len(x.Children) - 1; i >= 0; i-- {
			stack = append(stack, x.Children[i])
		}
	}
	return ""
}

// commonAncestor is the nearest node holding both a and b.
func commonAncestor(a, b *dom.VirtualNode) *dom.VirtualNode {
	if a == nil || b == nil {
		return nil
	}
	seen := map[*dom.VirtualNode]bool{}
	for x := a.Parent; x != nil; x = x.Parent {
		seen[x] = true
	}
	for x := b.Parent; x != nil; x = x.Parent {
		if seen[x] {
			return x
		}
	}
	return nil
}
