package tui

import (
	tea "charm.land/bubbletea/v2"

	"domscope/dom"
	"domscope/dom/urls"
	"domscope/keymap"
	"domscope/views"
)

// tabsLayer lists the browser's tabs; choosing one attaches to it.
type tabsLayer struct {
	list
	targets []dom.TargetInfo
}

func newTabsLayer(x *layerCtx, ts []dom.TargetInfo) *tabsLayer {
	o := &tabsLayer{list: list{title: "Tabs · pick one to attach", foot: "enter attaches · esc close"}, targets: ts}
	for _, t := range ts {
		if t.Type != "" && t.Type != "page" {
			continue
		}
		cur := "  "
		if x.doc.snap != nil && t.ID == x.doc.snap.TargetID {
			cur = x.st.OK.Render("● ")
		}
		title := views.Trunc(views.Clean(urls.SafeTitle(t.Title, t.URL)), 40)
		o.add(cur+views.Pad(title, 40)+" "+x.st.Dim.Render(views.Trunc(views.Clean(urls.Safe(t.URL)), 60)), t.ID)
	}
	if len(o.items) == 0 {
		o.header("The browser has no page tabs.")
	}
	o.first()
	if x.doc.snap != nil {
		o.selectKey(x.doc.snap.TargetID) // start on the tab shown now
	}
	return o
}

func (o *tabsLayer) handle(x *layerCtx, c keymap.Command, msg tea.Msg) (action, bool) {
	if c == keymap.Accept {
		for _, t := range o.targets {
			if t.ID == o.key() {
				return actions{closeLayer{}, attachTab{t}}, true
			}
		}
		return nil, true
	}
	return o.common(x, o, c, msg)
}

func (o *tabsLayer) render(x *layerCtx, s screen) drawn { return o.draw(x, s) }
