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

// dialogLayer is a JavaScript dialog the page opened. It holds the
// keyboard until the user accepts or dismisses it.
type dialogLayer struct {
	info *dom.DialogInfo
	// input is a prompt()'s answer, starting as the page's default. The
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

func (d *dialogLayer) handle(_ *layerCtx, c keymap.Command, msg tea.Msg) (action, bool) {
	if d.input != nil {
		switch msg := msg.(type) {
		case tea.KeyPressMsg:
			switch msg.String() {
			case "enter":
				return answer{d, true}, true
			case "esc":
				return answer{d, false}, true
			}
		case tea.PasteMsg:
		default:
			return nil, false
		}
		in, cmd := d.input.Update(msg)
		d.input = &in
		return run{cmd}, true
	}
	if _, ok := msg.(tea.KeyPressMsg); !ok {
		return nil, false
	}
	switch c {
	case keymap.Accept, keymap.Dismiss:
		return answer{d, c == keymap.Accept}, true
	}
	return nil, true
}

func (d *dialogLayer) render(x *layerCtx, s screen) drawn {
	w := min(s.body.w-4, 70)
	inner := w - 2
	var body []string
	body = append(body, x.st.Warn.Render("The page opened a JavaScript "+views.Clean(d.info.Type)+":"), "")
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
			views.Pad(x.st.Dim.Render("enter answers with this text · esc dismisses (null)"), inner))
	default:
		if d.info.DefaultPrompt != "" {
			body = append(body, "", "answer: "+views.Quote(d.info.DefaultPrompt, inner-10))
		}
		body = append(body, "", views.Hints(x.st, d.hints(x.km), inner))
	}
	return centred(s, views.Box(x.st, "Dialog", "", body, w, len(body)+2, true))
}
