package tui

import (
	tea "charm.land/bubbletea/v2"

	"domscope/keymap"
	"domscope/views"
)

// helpLayer shows every binding, generated from the key table, and the
// tier legend. The columns fit the screen. It scrolls without a cursor.
type helpLayer struct{ list }

func newHelpLayer(x *layerCtx) *helpLayer {
	h := &helpLayer{list{title: "Help · every key", foot: "↑↓ scroll · esc close", noCursor: true, cursor: -1}}
	h.fill(x)
	return h
}

// fill lays the help out for the current width.
func (h *helpLayer) fill(x *layerCtx) {
	h.items, h.keys = h.items[:0], h.keys[:0]
	maxW := x.screen.body.w - 4
	width := 0
	for _, l := range views.Help(x.st, x.km.Groups(), maxW-4) {
		h.add(l, "")
		width = max(width, views.Width(l))
	}
	h.width = min(width+4, maxW)
}

func (h *helpLayer) handle(x *layerCtx, c keymap.Command, msg tea.Msg) (action, bool) {
	if _, ok := msg.(tea.WindowSizeMsg); ok {
		h.fill(x) // the columns follow the width
	}
	return h.common(x, h, c, msg)
}

func (h *helpLayer) render(x *layerCtx, s screen) drawn { return h.draw(x, s) }
