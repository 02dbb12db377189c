package mcp

import (
	"strings"

	"domscope/dom"
	"domscope/dom/flatten"
)

// openModal is the open modal dialog of snap on top (the last in
// document order), or nil.
func openModal(snap *dom.Snapshot) *dom.VirtualNode {
	if snap == nil {
		return nil
	}
	var top *dom.VirtualNode
	dom.Walk(snap.Root, func(n *dom.VirtualNode) {
		if flatten.ModalOpen(n) {
			top = n
		}
	})
	return top
}

// modalNote says when an action opened or closed a modal dialog: the
// view then starts with it, or no longer does.
func modalNote(before, after *dom.Snapshot) string {
	a, b := openModal(before), openModal(after)
	switch {
	case b != nil && (a == nil || a.ID != b.ID):
		return "modal: " + b.Role + " [" + strings.TrimPrefix(b.ID, "node_") + "] " + quote(dom.Clip(b.Name, 80)) + " opened; dom_snapshot shows it first, what lies behind in one line\n"
	case a != nil && b == nil:
		return "modal: " + a.Role + " [" + strings.TrimPrefix(a.ID, "node_") + "] " + quote(dom.Clip(a.Name, 80)) + " closed\n"
	}
	return ""
}
