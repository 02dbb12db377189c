package tui

// rect is a box on screen.
type rect struct{ x, y, w, h int }

func (r rect) contains(x, y int) bool {
	return x >= r.x && x < r.x+r.w && y >= r.y && y < r.y+r.h
}

// screen is where each part goes at the current size.
type screen struct {
	stacked             bool
	tree, flat, details rect
	step                rect // the script's panel (run --ui), above the details
	body                rect // the panes' area (overlays go here)
	footer              int  // y of the footer line
	tooSmall            bool
}

// stackBelow is the width under which the panes stack vertically.
const stackBelow = 100

func computeScreen(w, h int) screen {
	var s screen
	if w < 40 || h < 14 {
		s.tooSmall = true
		return s
	}
	detailsH := 8 // 6 lines + border
	switch {
	case h < 20:
		detailsH = 4
	case h < 30:
		detailsH = 6
	}
	bodyY := 1
	bodyH := h - 1 - 1 - detailsH
	s.body = rect{0, bodyY, w, bodyH}
	if w < stackBelow {
		s.stacked = true
		th := (bodyH*55 + 99) / 100
		s.tree = rect{0, bodyY, w, th}
		s.flat = rect{0, bodyY + th, w, bodyH - th}
	} else {
		tw := w * 55 / 100
		s.tree = rect{0, bodyY, tw, bodyH}
		s.flat = rect{tw, bodyY, w - tw, bodyH}
	}
	s.details = rect{0, bodyY + bodyH, w, detailsH}
	s.footer = h - 1
	return s
}

// screen is where each part goes now: computeScreen. When the focused
// pane is maximised (z), it covers the whole body.
func (m *Model) screen() screen {
	s := computeScreen(m.w, m.h)
	if m.step != nil {
		s = withStepPanel(s, m.w, m.h)
	}
	if m.panes.zoomed && !s.tooSmall {
		if m.panes.focus == treeFocus {
			s.tree, s.flat = s.body, rect{}
		} else {
			s.tree, s.flat = rect{}, s.body
		}
	}
	return s
}

// layout applies the current size to the panes.
func (m *Model) layout() {
	s := m.screen()
	if s.tooSmall {
		return
	}
	for i, p := range m.panes.list() {
		r := s.paneRects()[i]
		p.SetSize(max(r.w-2, 0), max(r.h-2, 0))
	}
}
