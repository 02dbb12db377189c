package tui

import (
	tea "charm.land/bubbletea/v2"

	"domscope/keymap"
	"domscope/views"
)

// writtenLayer says where w or e wrote, and the command that uses the
// file, whole. The footer cuts both at 80 columns, and the command is
// what the user came for. Lines wrap between words, never inside a flag.
type writtenLayer struct {
	list
	what, cmd string // what the command is, and the command
}

// newWrittenLayer shows head ("wrote 3 steps to"), the full path, and
// the command to use it (what: "the replay command").
func newWrittenLayer(x *layerCtx, title, head, path, use, what, cmd string) *writtenLayer {
	o := &writtenLayer{list: list{title: title, foot: "enter copies the command · esc close", noCursor: true, cursor: -1}, what: what, cmd: cmd}
	w, _ := o.box(x.screen)
	inner := max(w-6, 20) // the box's border and padding, then an indent
	o.add(views.Clean(head), "")
	for _, l := range views.Wrap(views.Clean(path), inner) {
		o.add("  "+x.st.Accent.Render(l), "")
	}
	o.add(views.Clean(use), "")
	for _, l := range views.Wrap(views.Clean(cmd), inner) {
		o.add("  "+x.st.Accent.Render(l), "")
	}
	o.fit(x.screen)
	return o
}

func (o *writtenLayer) handle(x *layerCtx, c keymap.Command, msg tea.Msg) (action, bool) {
	if c == keymap.Accept {
		return actions{closeLayer{}, copyOut{o.what, o.cmd}}, true
	}
	return o.common(x, o, c, msg)
}

func (o *writtenLayer) render(x *layerCtx, s screen) drawn { return o.draw(x, s) }
