package tui

import (
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
)

type promptKind int

const (
	promptType promptKind = iota
	promptKey
	promptSelect
	promptGoto
	promptSearch
	promptExport
)

// prompt is the one-line text input at the bottom of the screen.
type prompt struct {
	kind  promptKind
	title string
	id    string // the node the prompt acts on
	// secret: the node is a sensitive field (dom.SensitiveField), so what
	// is typed is echoed as • and never shown in clear afterwards.
	secret bool
	input  textinput.Model
}

func newPrompt(kind promptKind, title, id, value, placeholder string, width int) *prompt {
	in := textinput.New()
	in.Prompt = "› "
	in.Placeholder = placeholder
	in.CharLimit = 4096
	// a steady cursor: no blink ticks re-rendering the whole screen twice a second
	st := in.Styles()
	st.Cursor.Blink = false
	in.SetStyles(st)
	in.SetWidth(max(width-len(title)-6, 10))
	in.SetValue(value)
	in.CursorEnd()
	in.Focus()
	return &prompt{kind: kind, title: title, id: id, input: in}
}

// conceal echoes the input as one • per cell, like a password box.
func (p *prompt) conceal() *prompt {
	p.secret = true
	p.title += " (sensitive: masked)"
	p.input.EchoMode = textinput.EchoPassword
	p.input.EchoCharacter = '•'
	return p
}

func (p *prompt) update(msg tea.Msg) tea.Cmd {
	var cmd tea.Cmd
	p.input, cmd = p.input.Update(msg)
	return cmd
}
