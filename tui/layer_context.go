package tui

import (
	"domscope/dom"
	"domscope/keymap"
	"domscope/themes"
	"domscope/views"
)

// layerCtx is what a layer may read while it handles a message or draws.
// That is the styles, the keys, the screen and the document on screen.
// It is a copy made for each call. A layer changes nothing through it.
// What it wants done it returns as an action, and the model applies that.
type layerCtx struct {
	st     themes.Styles
	km     keymap.KeyMap
	w      int
	screen screen
	doc    document
	// tokens is the flat view's size, which the rules list reports
	tokens int
}

// nodeName is a short readable handle for a node: "node_5 form".
func (c *layerCtx) nodeName(id string) string { return nodeLabel(c.doc.snap, id) }

// nodeLabel is a short readable handle for a node of s: "node_5 form".
func nodeLabel(s *dom.Snapshot, id string) string {
	if n := s.Node(id); n != nil {
		t := id + " " + views.Clean(n.Tag)
		if n.Name != "" {
			t += " " + views.Quote(n.Name, 30)
		}
		return t
	}
	return id
}
