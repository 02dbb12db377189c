package tui

import (
	tea "charm.land/bubbletea/v2"

	"domscope/keymap"
	"domscope/views"
)

// helpLayer shows every binding, generated from the key table, and the
// tier legend, in columns that fit the screen. It scrolls without a cursor.
type helpLayer struct{ list }

func newHelpLayer(m *Model) *helpLayer {
	h := &helpLayer{list{title: "Help · every key", foot: "↑↓ scroll · esc close", noCursor: true, cursor: -1}}
	h.fill(m)
	return h
}

// fill lays the help out for the current width.
func (h *helpLayer) fill(m *Model) {
	h.items, h.keys = h.items[:0], h.keys[:0]
	maxW := m.screen().body.w - 4
	width := 0
	for _, l := range views.Help(m.st, m.km.Groups(), maxW-4) {
		h.add(l, "")
		width = max(width, views.Width(l))
	}
	h.width = min(width+4, maxW)
}

func (h *helpLayer) handle(m *Model, c keymap.Command, msg tea.Msg) (tea.Cmd, bool) {
	if _, ok := msg.(tea.WindowSizeMsg); ok {
		h.fill(m) // the columns follow the width
	}
	return h.common(m, h, c, msg)
}

func (h *helpLayer) render(m *Model, s screen) drawn { return h.draw(m, s) }
