package flatten

import (
	"strconv"
	"strings"

	"domscope/dom"
)

// FormatTree writes the complete VirtualNode tree, one node per line,
// indented one space per level. A line holds the ID, tag, role, name, tier
// and the rule that set it. Then come the hidden reason and the flatten
// decision with its rule.
//
//	node_12 button role=button "Submit" semantic ax:button keep:keep-semantic
//
// d may be nil. Page strings are escaped so a node is always one line.
func FormatTree(s *dom.Snapshot, d dom.Decisions) string {
	if s == nil || s.Root == nil {
		return ""
	}
	var b strings.Builder
	type entry struct {
		n     *dom.VirtualNode
		depth int
	}
	stack := []entry{{s.Root, 0}}
	for len(stack) > 0 {
		e := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		writeTreeLine(&b, e.n, e.depth, d)
		for i := len(e.n.Children) - 1; i >= 0; i-- {
			stack = append(stack, entry{e.n.Children[i], e.depth + 1})
		}
	}
	return b.String()
}

func writeTreeLine(b *strings.Builder, n *dom.VirtualNode, depth int, d dom.Decisions) {
	writeIndent(b, depth)
	b.WriteString(n.ID)
	b.WriteByte(' ')
	b.WriteString(escapeLine(n.Tag))
	if n.Role != "" && n.Role != n.Tag && n.NodeType == dom.ElementNode {
		b.WriteString(" role=")
		b.WriteString(escapeLine(n.Role))
	}
	if n.ShadowType != "" {
		b.WriteString(" (" + escapeLine(n.ShadowType) + ")")
	}
	if n.Name != "" {
		b.WriteByte(' ')
		b.WriteString(quote(n.Name))
	}
	b.WriteByte(' ')
	b.WriteString(n.Tier.String())
	b.WriteByte(' ')
	b.WriteString(n.Why)
	if n.Hidden != "" {
		b.WriteString(" hidden:")
		b.WriteString(n.Hidden)
	}
	if n.FrameID != "" && n.Parent != nil && n.Parent.FrameID != n.FrameID {
		b.WriteString(" frame=")
		b.WriteString(escapeLine(n.FrameID))
	}
	if dec, ok := d.Lookup(n.ID); ok {
		b.WriteByte(' ')
		b.WriteString(dec.Kind.String())
		b.WriteByte(':')
		b.WriteString(dec.Rule)
	}
	b.WriteByte('\n')
}

// maxIndent caps indentation: a 10,000-deep tree would otherwise print
// 50 MB of spaces. Deeper lines say their depth instead.
const maxIndent = 80

func writeIndent(b *strings.Builder, depth int) {
	n := min(depth, maxIndent)
	for range n {
		b.WriteByte(' ')
	}
	if depth > maxIndent {
		b.WriteString("^")
		b.WriteString(strconv.Itoa(depth))
		b.WriteByte(' ')
	}
}
