package tui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"domscope/dom"
	"domscope/keymap"
	"domscope/views"
)

// dialogLayer is a JavaScript dialog the page opened: it holds the
// keyboard until the user accepts or dismisses it.
type dialogLayer struct {
	info *dom.DialogInfo
}

func (d *dialogLayer) mode() keymap.Mode                    { return keymap.Dialog }
func (d *dialogLayer) hints(km keymap.KeyMap) []key.Binding { return km.Hints(keymap.Dialog) }

func (d *dialogLayer) handle(m *Model, c keymap.Command, msg tea.Msg) (tea.Cmd, bool) {
	if _, ok := msg.(tea.KeyPressMsg); !ok {
		return nil, false
	}
	switch c {
	case keymap.Accept, keymap.Dismiss:
		return m.answerDialog(d, c == keymap.Accept), true
	}
	return nil, true
}

func (d *dialogLayer) render(m *Model, s screen) drawn {
	w := min(s.body.w-4, 70)
	inner := w - 2
	var body []string
	body = append(body, m.st.Warn.Render("The page opened a JavaScript "+views.Clean(d.info.Type)+":"), "")
	msg := views.Clean(d.info.Message)
	for len(msg) > 0 && len(body) < 8 {
		line := views.Trunc(msg, inner)
		cut := len(strings.TrimSuffix(line, "…"))
		body = append(body, strings.TrimSuffix(line, "…"))
		msg = strings.TrimLeft(msg[cut:], " ")
	}
	if d.info.DefaultPrompt != "" {
		body = append(body, "", "answer: "+views.Quote(d.info.DefaultPrompt, inner-10))
	}
	body = append(body, "", views.Hints(m.st, d.hints(m.km), inner))
	return centred(s, views.Box(m.st, "Dialog", "", body, w, len(body)+2, true))
}

// showDialog puts a dialog the page opened on screen (one at a time: a
// newer one replaces it).
func (m *Model) showDialog(info *dom.DialogInfo) {
	m.closeDialog()
	m.push(&dialogLayer{info: info})
}

// closeDialog takes the dialog off the screen.
func (m *Model) closeDialog() {
	if d, ok := find[*dialogLayer](m); ok {
		m.pop(d)
	}
}
