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
	if s.tooSmall {
		return s
	}
	switch {
	case m.panes.zoomed && m.pic.on:
		// the picture is what one maximises to see; the tree keeps the
		// keyboard and the picture follows its selection
		s.tree, s.flat = rect{}, s.body
	case m.panes.zoomed && m.panes.focus == treeFocus:
		s.tree, s.flat = s.body, rect{}
	case m.panes.zoomed:
		s.tree, s.flat = rect{}, s.body
	case m.pic.on && s.stacked:
		s.tree, s.flat = pictureBeside(s.body, m.pic.aspect())
		s.stacked = false
	}
	return s
}

// minTreeW is the narrowest the tree gets beside the picture.
const minTreeW = 24

// pictureBeside puts the tree and the picture side by side in body. It is
// for narrow screens, where the panes stack: there the picture had the
// flat pane's few rows (17×5 cells at 80×24). Beside the tree it has the
// body's whole height, and the width the page's shape asks for at that
// height. aspect is the page's width over its height.
func pictureBeside(body rect, aspect float64) (tree, pic rect) {
	rows := max(body.h-2, 1)
	// a cell shows two pixel rows (half blocks), so it is one pixel wide
	want := int(float64(rows)*2*aspect+0.5) + 2
	pw := max(min(want, body.w-minTreeW), body.w/2)
	tree = rect{body.x, body.y, body.w - pw, body.h}
	pic = rect{body.x + body.w - pw, body.y, pw, body.h}
	return tree, pic
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
