package build

import (
	"strings"

	"domscope/dom"
	"domscope/dom/internal/textutil"
)

// cleanName collapses white space and truncates to MaxNameLen.
func cleanName(s string) string { return textutil.Truncate(textutil.Collapse(s), dom.MaxNameLen) }

// subtreeText collects the text of node n's visible-by-structure
// descendants, collapsed, up to max runes. It skips script/style,
// user-agent internals and private fields. It walks with a stack and
// gives up after a bounded number of nodes, so a huge container costs
// little.
func subtreeText(n *dom.VirtualNode, max int) string {
	var b strings.Builder
	stack := []*dom.VirtualNode{n}
	visited := 0
	for len(stack) > 0 && visited < 2000 && b.Len() < max*4 {
		c := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		visited++
		switch c.Tag {
		case "script", "style", "noscript", "template", "head", "#comment":
			continue
		case "#shadow-root":
			if c.ShadowType == "user-agent" {
				continue
			}
		case "#text":
			if c.Text != "" {
				if b.Len() > 0 {
					b.WriteByte(' ')
				}
				b.WriteString(c.Text)
			}
			continue
		}
		for i := len(c.Children) - 1; i >= 0; i-- {
			stack = append(stack, c.Children[i])
		}
	}
	return textutil.Truncate(textutil.Collapse(b.String()), max)
}

// attrName is the name an element gives itself without the AX tree.
func attrName(n *dom.VirtualNode) string {
	for _, k := range []string{"aria-label", "title", "alt", "placeholder"} {
		if v := strings.TrimSpace(n.Attrs[k]); v != "" {
			return v
		}
	}
	if n.Tag == "input" {
		switch strings.ToLower(n.Attrs["type"]) {
		case "button", "submit", "reset":
			return n.Attrs["value"]
		}
	}
	return ""
}
