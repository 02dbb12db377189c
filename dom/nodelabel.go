package dom

import (
	"fmt"

	"domscope/dom/internal/textutil"
)

// NodeLabel names a node for messages. It gives its id, role and name,
// clipped to max runes.
func NodeLabel(n *VirtualNode, max int) string {
	return fmt.Sprintf("%s %s %q", n.ID, n.Role, Clip(textutil.Collapse(n.Name), max))
}

// Clip cuts s to n runes, marking the cut with an ellipsis.
func Clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}
