package tui

import (
	tea "charm.land/bubbletea/v2"

	"domscope/keymap"
)

// The things Y offers to copy.
const (
	copyFlat   = "flat"
	copyTarget = "target"
	copyCSS    = "css"
	copyLine   = "line"
	copyStep   = "step"
)

// copyLayer is Y's chooser.
type copyLayer struct{ list }

// newCopyLayer offers the flat view in its format (json or text). It also
// offers the script's step when there is one.
func newCopyLayer(format string, step bool) *copyLayer {
	o := &copyLayer{list: list{title: "Copy to the clipboard", foot: "enter copies · esc close"}}
	o.add("the flat view, as shown ("+format+")", copyFlat)
	o.add("the selected node's query, as a run target (JSON)", copyTarget)
	o.add("a CSS selector for the selected node", copyCSS)
	o.add("the selected node's line", copyLine)
	if step {
		o.add("the script's current step, as a JSON line", copyStep)
	}
	o.first()
	return o
}

func (o *copyLayer) handle(x *layerCtx, c keymap.Command, msg tea.Msg) (action, bool) {
	if c == keymap.Accept {
		return actions{closeLayer{}, copyItem{o.key()}}, true
	}
	return o.common(x, o, c, msg)
}

func (o *copyLayer) render(x *layerCtx, s screen) drawn { return o.draw(x, s) }
