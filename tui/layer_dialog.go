package tui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"domscope/dom"
	"domscope/keymap"
	"domscope/views"
)

// dialogLayer is a JavaScript dialog the page opened: it holds the
// keyboard until the user accepts or dismisses it.
type dialogLayer struct {
	info *dom.DialogInfo
	// input is a prompt()'s answer, starting as the page's default; the
	// other dialogs have none. While it is there, enter accepts with its
	// text, esc dismisses, and every other key edits it.
	input *textinput.Model
}

func newDialogLayer(info *dom.DialogInfo, width int) *dialogLayer {
	d := &dialogLayer{info: info}
	if info.Type == "prompt" {
		in := textinput.New()
		in.Prompt = "› "
		in.CharLimit = 4096
		st := in.Styles()
		st.Cursor.Blink = false
		in.SetStyles(st)
		in.SetWidth(max(min(width-4, 70)-6, 10))
		in.SetValue(info.DefaultPrompt)
		in.CursorEnd()
		in.Focus()
		d.input = &in
	}
	return d
}

// answer is the text a prompt() gets when accepted.
func (d *dialogLayer) answer() string {
	if d.input != nil {
		return d.input.Value()
	}
	return d.info.DefaultPrompt
}

func (d *dialogLayer) mode() keymap.Mode                    { return keymap.Dialog }
func (d *dialogLayer) hints(km keymap.KeyMap) []key.Binding { return km.Hints(keymap.Dialog) }

func (d *dialogLayer) handle(m *Model, c keymap.Command, msg tea.Msg) (tea.Cmd, bool) {
	if d.input != nil {
		switch msg := msg.(type) {
		case tea.KeyPressMsg:
			switch msg.String() {
			case "enter":
				return m.answerDialog(d, true), true
			case "esc":
				return m.answerDialog(d, false), true
			}
		case tea.PasteMsg:
		default:
			return nil, false
		}
		in, cmd := d.input.Update(msg)
		d.input = &in
		return cmd, true
	}
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
	switch {
	case d.input != nil:
		body = append(body, "", views.Pad(views.Input(d.input.View()), inner), "",
			views.Pad(m.st.Dim.Render("enter answers with this text · esc dismisses (null)"), inner))
	default:
		if d.info.DefaultPrompt != "" {
			body = append(body, "", "answer: "+views.Quote(d.info.DefaultPrompt, inner-10))
		}
		body = append(body, "", views.Hints(m.st, d.hints(m.km), inner))
	}
	return centred(s, views.Box(m.st, "Dialog", "", body, w, len(body)+2, true))
}

// showDialog puts a dialog the page opened on screen (one at a time: a
// newer one replaces it).
func (m *Model) showDialog(info *dom.DialogInfo) {
	m.closeDialog()
	m.push(newDialogLayer(info, m.screen().body.w))
}

// closeDialog takes the dialog off the screen.
func (m *Model) closeDialog() {
	if d, ok := find[*dialogLayer](m); ok {
		m.pop(d)
	}
}
