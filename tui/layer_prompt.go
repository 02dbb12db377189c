package tui

import (
	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"domscope/keymap"
	"domscope/views"
)

// promptLayer is the text input on the footer line. What enter does is
// the prompt's own submit function. So the model never asks which prompt
// is open. When the title and the input's hints do not fit on one line,
// the title goes on the line above, whole, and the input has the footer.
type promptLayer struct {
	title string
	// twoLines: the title is on a line of its own (fit)
	twoLines bool
	id       string // the node the prompt acts on
	// secret: the node is a sensitive field (dom.SensitiveField). So what
	// is typed is echoed as • and never shown in clear afterwards.
	secret bool
	// selected: the whole text is a suggestion that the first typed
	// character replaces, as in an address bar. The go-to prompt suggests
	// the page's URL. A key that moves or edits keeps it.
	selected bool
	input    textinput.Model
	submit   submitFunc
	// query, when set, is what ctrl+q does with the text (the flat
	// pane's filter: the query view of the words)
	query submitFunc
	// changed runs after each edit (incremental search); cancelled on esc
	changed   func(m *Model, value string)
	cancelled func(m *Model)
}

// submitFunc runs what a prompt asked for. enter says alt+enter was
// pressed: that also presses Enter in the page after typing.
type submitFunc func(m *Model, p *promptLayer, value string, enter bool) tea.Cmd

func newPrompt(title, id, value, placeholder string, width int, submit submitFunc) *promptLayer {
	in := textinput.New()
	in.Prompt = "› "
	in.Placeholder = placeholder
	in.CharLimit = 4096
	// A steady cursor: blink ticks would re-render the whole screen twice a
	// second.
	st := in.Styles()
	st.Cursor.Blink = false
	in.SetStyles(st)
	in.SetValue(value)
	in.CursorEnd()
	in.Focus()
	p := &promptLayer{title: title, id: id, input: in, submit: submit}
	p.fit(width)
	return p
}

// fit lays the prompt out for a screen w wide: on one line when the
// title, the prompt sign and the hints (or the value) fit, else on two.
func (p *promptLayer) fit(w int) {
	in := max(views.Width(p.input.Placeholder), views.Width(p.input.Value())) + 1
	sign := views.Width(p.input.Prompt)
	p.twoLines = views.Width(p.title)+1+sign+in > w
	if p.twoLines {
		p.input.SetWidth(max(w-sign-1, 10))
		return
	}
	p.input.SetWidth(max(w-views.Width(p.title)-1-sign-1, 10))
}

// conceal echoes the input as one • per cell, like a password box.
// push lays it out again for the longer title.
func (p *promptLayer) conceal() *promptLayer {
	p.secret = true
	p.title += " (sensitive: masked)"
	p.input.EchoMode = textinput.EchoPassword
	p.input.EchoCharacter = '•'
	return p
}

func (p *promptLayer) mode() keymap.Mode                    { return keymap.Prompt }
func (p *promptLayer) hints(km keymap.KeyMap) []key.Binding { return km.Hints(keymap.Prompt) }

func (p *promptLayer) handle(_ *layerCtx, c keymap.Command, msg tea.Msg) (action, bool) {
	switch c {
	case keymap.Cancel:
		if p.cancelled != nil {
			return actions{closeLayer{}, cancelled{p}}, true
		}
		return closeLayer{}, true
	case keymap.Submit, keymap.SubmitEnter:
		return actions{closeLayer{}, submit{p: p, value: p.input.Value(), enter: c == keymap.SubmitEnter}}, true
	case keymap.QueryView:
		if p.query != nil {
			return actions{closeLayer{}, submit{p: p, value: p.input.Value(), fn: p.query}}, true
		}
	}
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		p.fit(msg.Width)
		return nil, false
	case tea.MouseMsg, snapshotShown:
		return nil, false
	}
	var cmd tea.Cmd
	was := p.input.Value()
	p.deselect(msg)
	p.input, cmd = p.input.Update(msg) // keys, paste, the input's own messages
	if v := p.input.Value(); v != was && p.changed != nil {
		return actions{edited{p, v}, run{cmd}}, true
	}
	return run{cmd}, true
}

// selectAll makes the prompt's text a suggestion that typing replaces.
func (p *promptLayer) selectAll() *promptLayer {
	p.selected = p.input.Value() != ""
	return p
}

// deselect ends the selection at the first key or paste. Text typed or
// pasted replaces the whole suggestion; a key that moves or edits keeps
// it.
func (p *promptLayer) deselect(msg tea.Msg) {
	if !p.selected {
		return
	}
	switch msg := msg.(type) {
	case tea.PasteMsg:
	case tea.KeyPressMsg:
		if msg.Text == "" || msg.Mod.Contains(tea.ModCtrl) || msg.Mod.Contains(tea.ModAlt) {
			p.selected = false
			return
		}
	default:
		return // the input's own messages (cursor) keep it
	}
	p.selected = false
	p.input.SetValue("")
}

func (p *promptLayer) render(x *layerCtx, s screen) drawn {
	t := x.st.Title.Render(views.Trunc(p.title, x.w/2)) + " "
	if p.twoLines {
		t = ""
	}
	line := views.Pad(t+views.Input(p.input.View()), x.w)
	if p.selected {
		// drawn selected, so it is plain that typing replaces it
		v := views.Trunc(views.Clean(p.input.Value()), max(x.w-views.Width(t)-len(p.input.Prompt), 1))
		line = views.Pad(t+p.input.Prompt+x.st.Selected.Render(v), x.w)
	}
	if p.twoLines {
		head := views.Pad(x.st.Title.Render(views.Trunc(p.title, x.w)), x.w)
		return drawn{lines: []string{head, line}, y: s.footer - 1}
	}
	return drawn{lines: []string{line}, y: s.footer}
}
