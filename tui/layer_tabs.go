package tui

import (
	tea "charm.land/bubbletea/v2"

	"domscope/dom"
	"domscope/keymap"
	"domscope/views"
)

// tabsLayer lists the browser's tabs; choosing one attaches to it.
type tabsLayer struct {
	list
	targets []dom.TargetInfo
}

func newTabsLayer(m *Model, ts []dom.TargetInfo) *tabsLayer {
	o := &tabsLayer{list: list{title: "Tabs · pick one to attach", foot: "enter attaches · esc close"}, targets: ts}
	for _, t := range ts {
		if t.Type != "" && t.Type != "page" {
			continue
		}
		cur := "  "
		if m.doc.snap != nil && t.ID == m.doc.snap.TargetID {
			cur = m.st.OK.Render("● ")
		}
		title := views.Trunc(views.Clean(dom.SafeTitle(t.Title, t.URL)), 40)
		o.add(cur+views.Pad(title, 40)+" "+m.st.Dim.Render(views.Trunc(views.Clean(dom.SafeURL(t.URL)), 60)), t.ID)
	}
	if len(o.items) == 0 {
		o.header("The browser has no page tabs.")
	}
	o.first()
	if m.doc.snap != nil {
		o.selectKey(m.doc.snap.TargetID) // start on the tab shown now
	}
	return o
}

func (o *tabsLayer) handle(m *Model, c keymap.Command, msg tea.Msg) (tea.Cmd, bool) {
	if c == keymap.Accept {
		for _, t := range o.targets {
			if t.ID == o.key() {
				m.pop(o)
				return m.attach(t), true
			}
		}
		return nil, true
	}
	return o.common(m, o, c, msg)
}

func (o *tabsLayer) render(m *Model, s screen) drawn { return o.draw(m, s) }
