package dom

import "strings"

// LabelControl is the form control a <label> labels, as the page's own
// label.control finds it. That is the element its for attribute names,
// in the same document or shadow root. Else it is the first labelable
// element inside it. It is nil for a node that is not a label, or a label
// of nothing. Text typed or an option picked on a label goes to this
// control, as Playwright's fill and selectOption do.
func LabelControl(n *VirtualNode) *VirtualNode {
	if n == nil || n.NodeType != ElementNode || n.Tag != "label" {
		return nil
	}
	if id, ok := n.Attrs["for"]; ok {
		// With a for attribute the label labels that element or nothing.
		if id == "" {
			return nil
		}
		root := n
		for root.Parent != nil && !scopeRoot(root) {
			root = root.Parent
		}
		c := findInScope(root, func(c *VirtualNode) bool { return c.Attrs["id"] == id })
		if c != nil && labelable(c) {
			return c
		}
		return nil
	}
	return findInScope(n, labelable)
}

// labelable reports the elements a label can label. Those are HTML's
// labelable elements, less form-associated custom elements.
func labelable(n *VirtualNode) bool {
	if n.NodeType != ElementNode {
		return false
	}
	switch n.Tag {
	case "button", "meter", "output", "progress", "select", "textarea":
		return true
	case "input":
		return !strings.EqualFold(n.Attrs["type"], "hidden")
	}
	return false
}

// scopeRoot reports a node that starts a tree of its own, where ids are
// looked up: a document or a shadow root.
func scopeRoot(n *VirtualNode) bool { return n.Tag == "#document" || n.Tag == "#shadow-root" }

// findInScope returns the first element below root, in document order,
// for which ok holds. It does not enter other documents or shadow roots.
func findInScope(root *VirtualNode, ok func(*VirtualNode) bool) *VirtualNode {
	stack := append([]*VirtualNode(nil), root.Children...)
	for i, j := 0, len(stack)-1; i < j; i, j = i+1, j-1 {
		stack[i], stack[j] = stack[j], stack[i]
	}
	for len(stack) > 0 {
		c := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if scopeRoot(c) {
			continue
		}
		if c.NodeType == ElementNode && ok(c) {
			return c
		}
		for i := len(c.Children) - 1; i >= 0; i-- {
			stack = append(stack, c.Children[i])
		}
	}
	return nil
}
