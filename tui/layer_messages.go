package tui

import (
	"time"

	tea "charm.land/bubbletea/v2"

	"domscope/keymap"
	"domscope/views"
)

// logSize is how many status messages the message log keeps.
const logSize = 200

// logEntry is one status message as the footer showed it (cut to the
// width there), kept whole here.
type logEntry struct {
	at  time.Time
	msg string
	bad bool
}

// messagesLayer shows the last messages and errors in full, newest last,
// wrapped to the box's width.
type messagesLayer struct{ list }

func newMessagesLayer(m *Model) *messagesLayer {
	o := &messagesLayer{list{title: "Messages (newest last)", foot: "↑↓ scroll · esc close", noCursor: true, cursor: -1}}
	if len(m.status.log) == 0 {
		o.header("No messages yet.")
	}
	w, _ := o.box(m.screen())
	inner := max(w-4-9, 20) // the box's border and padding, then "15:04:05 "
	for _, e := range m.status.log {
		st := m.st.Accent
		if e.bad {
			st = m.st.Error
		}
		for i, line := range views.Wrap(views.Clean(e.msg), inner) {
			stamp := "         "
			if i == 0 {
				stamp = m.st.Dim.Render(e.at.Format("15:04:05")) + " "
			}
			o.add(stamp+st.Render(line), "")
		}
	}
	o.fit(m.screen())
	o.move(len(o.items)) // the newest at the bottom, in view
	return o
}

func (o *messagesLayer) handle(m *Model, c keymap.Command, msg tea.Msg) (tea.Cmd, bool) {
	return o.common(m, o, c, msg)
}

func (o *messagesLayer) render(m *Model, s screen) drawn { return o.draw(m, s) }
