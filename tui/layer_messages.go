package tui

import (
	"time"

	tea "charm.land/bubbletea/v2"

	"domscope/keymap"
	"domscope/views"
)

// logSize is how many status messages the message log keeps.
const logSize = 200

// logEntry is one status message as the footer showed it, kept whole
// here. The footer cut it to its width.
type logEntry struct {
	at  time.Time
	msg string
	bad bool
}

// messagesLayer shows the last messages and errors in full, newest last.
// They are wrapped to the box's width.
type messagesLayer struct{ list }

func newMessagesLayer(x *layerCtx, log []logEntry) *messagesLayer {
	o := &messagesLayer{list{title: "Messages (newest last)", foot: "↑↓ scroll · esc close", noCursor: true, cursor: -1}}
	if len(log) == 0 {
		o.header("No messages yet.")
	}
	w, _ := o.box(x.screen)
	inner := max(w-4-9, 20) // the box's border and padding, then "15:04:05 "
	for _, e := range log {
		st := x.st.Accent
		if e.bad {
			st = x.st.Error
		}
		for i, line := range views.Wrap(views.Clean(e.msg), inner) {
			stamp := "         "
			if i == 0 {
				stamp = x.st.Dim.Render(e.at.Format("15:04:05")) + " "
			}
			o.add(stamp+st.Render(line), "")
		}
	}
	o.fit(x.screen)
	o.move(len(o.items)) // the newest at the bottom, in view
	return o
}

func (o *messagesLayer) handle(x *layerCtx, c keymap.Command, msg tea.Msg) (action, bool) {
	return o.common(x, o, c, msg)
}

func (o *messagesLayer) render(x *layerCtx, s screen) drawn { return o.draw(x, s) }
