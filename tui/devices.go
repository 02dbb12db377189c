package tui

import (
	"strconv"

	tea "charm.land/bubbletea/v2"

	"domscope/dom"
)

// viewporter is what the viewport key needs of the actor. A live service
// has it.
type viewporter interface {
	Viewport() dom.Viewport
}

// The window cycle of the viewport key: desktop, a tablet, a phone.
// Desktop is the browser's own window, with no emulation.
const (
	cycleTablet = "iPad Mini"
	cyclePhone  = "iPhone 13"
)

// viewport is the window the page is emulated at (zero: the browser's own).
func (m *Model) viewport() dom.Viewport {
	if v, ok := m.conn.actor.(viewporter); ok {
		return v.Viewport()
	}
	return dom.Viewport{}
}

// viewportLabel is the header's short name of the window. It is "" for
// the browser's own, else the device or the size.
func viewportLabel(v dom.Viewport) string {
	switch {
	case v.IsZero():
		return ""
	case v.Device != "":
		return v.Device + " " + strconv.Itoa(v.Width) + "×" + strconv.Itoa(v.Height)
	case v.Width > 0:
		return strconv.Itoa(v.Width) + "×" + strconv.Itoa(v.Height)
	}
	return v.String()
}

// nextViewport emulates the next window of the cycle. The snapshot after
// the action is of the page in it. Any other window (--device,
// --viewport) goes back to desktop.
func (m *Model) nextViewport() tea.Cmd {
	tablet, err := dom.LookupDevice(cycleTablet)
	if err != nil {
		m.setFlash(err.Error(), true)
		return nil
	}
	phone, err := dom.LookupDevice(cyclePhone)
	if err != nil {
		m.setFlash(err.Error(), true)
		return nil
	}
	var next dom.Viewport
	switch cur := m.viewport(); {
	case cur.IsZero():
		next = tablet
	case cur.Device == tablet.Device:
		next = phone
	}
	name := "desktop (the browser's own window)"
	if !next.IsZero() {
		name = next.String()
	}
	cmd := m.act(dom.Action{Kind: dom.KindViewport, Viewport: &next})
	if cmd != nil {
		m.setFlash("viewport: "+name, false)
	}
	return cmd
}
