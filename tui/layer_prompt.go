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

// promptLayer is the one-line text input on the footer line. What enter
// does is the prompt's own submit function, so the model never asks which
// prompt is open.
type promptLayer struct {
	title string
	id    string // the node the prompt acts on
	// secret: the node is a sensitive field (dom.SensitiveField), so what
	// is typed is echoed as • and never shown in clear afterwards.
	secret bool
	// selected: the whole text is a suggestion (the page's URL in the
	// go-to prompt) that the first typed character replaces, as in an
	// address bar. A key that moves or edits keeps it.
	selected bool
	input    textinput.Model
	submit   submitFunc
	// changed runs after each edit (incremental search); cancelled on esc
	changed   func(m *Model, value string)
	cancelled func(m *Model)
}

// submitFunc runs what a prompt asked for; enter: alt+enter, which also
// presses Enter in the page after typing.
type submitFunc func(m *Model, p *promptLayer, value string, enter bool) tea.Cmd

func newPrompt(title, id, value, placeholder string, width int, submit submitFunc) *promptLayer {
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
	return &promptLayer{title: title, id: id, input: in, submit: submit}
}

// conceal echoes the input as one • per cell, like a password box.
func (p *promptLayer) conceal() *promptLayer {
	p.secret = true
	p.title += " (sensitive: masked)"
	p.input.EchoMode = textinput.EchoPassword
	p.input.EchoCharacter = '•'
	return p
}

func (p *promptLayer) mode() keymap.Mode                    { return keymap.Prompt }
func (p *promptLayer) hints(km keymap.KeyMap) []key.Binding { return km.Hints(keymap.Prompt) }

func (p *promptLayer) handle(m *Model, c keymap.Command, msg tea.Msg) (tea.Cmd, bool) {
	switch c {
	case keymap.Cancel:
		m.pop(p)
		if p.cancelled != nil {
			p.cancelled(m)
		}
		return nil, true
	case keymap.Submit, keymap.SubmitEnter:
		m.pop(p)
		return p.submit(m, p, p.input.Value(), c == keymap.SubmitEnter), true
	}
	switch msg.(type) {
	case tea.MouseMsg, tea.WindowSizeMsg, snapshotShown:
		return nil, false
	}
	var cmd tea.Cmd
	was := p.input.Value()
	p.deselect(msg)
	p.input, cmd = p.input.Update(msg) // keys, paste, the input's own messages
	if v := p.input.Value(); v != was && p.changed != nil {
		p.changed(m, v)
	}
	return cmd, true
}

// selectAll makes the prompt's text a suggestion that typing replaces.
func (p *promptLayer) selectAll() *promptLayer {
	p.selected = p.input.Value() != ""
	return p
}

// deselect ends the selection at the first key or paste: text typed or
// pasted replaces the whole suggestion; a key that moves or edits keeps it.
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

func (p *promptLayer) render(m *Model, s screen) drawn {
	t := m.st.Title.Render(views.Trunc(p.title, m.w/2)) + " "
	if p.selected {
		// drawn selected, so it is plain that typing replaces it
		v := views.Trunc(views.Clean(p.input.Value()), max(m.w-views.Width(t)-len(p.input.Prompt), 1))
		return drawn{lines: []string{views.Pad(t+p.input.Prompt+m.st.Selected.Render(v), m.w)}, y: s.footer}
	}
	return drawn{lines: []string{views.Pad(t+views.Input(p.input.View()), m.w)}, y: s.footer}
}

// The prompts' submit functions.

func submitType(m *Model, p *promptLayer, v string, enter bool) tea.Cmd {
	if enter {
		v += "\n"
	}
	return m.actOn(dom.Action{Kind: "type", ID: p.id, Text: v}, p.secret)
}

func submitKey(m *Model, p *promptLayer, v string, _ bool) tea.Cmd {
	k := strings.TrimSpace(v)
	if k == "" {
		m.setFlash("no key given", true)
		return nil
	}
	return m.act(dom.Action{Kind: "key", ID: p.id, Key: k})
}

func submitSelect(m *Model, p *promptLayer, v string, _ bool) tea.Cmd {
	return m.actOn(dom.Action{Kind: "select", ID: p.id, Value: v}, p.secret)
}

func submitGoto(m *Model, _ *promptLayer, v string, _ bool) tea.Cmd {
	u := address(v)
	if u == "" {
		return nil
	}
	return m.act(dom.Action{Kind: "navigate", URL: u})
}

// openSearch opens the search prompt empty. The tree follows the first
// match as the query is typed; esc puts back the query and the selection
// there were before.
func (m *Model) openSearch() {
	prevQuery, prevID, prevFocus := m.search.query, m.panes.tree.SelectedID(), m.panes.focus
	p := newPrompt("search name, role, tag, id, attribute", "", "", "e.g. new todo, button, #email · enter keeps · esc restores", m.w, submitSearch)
	p.changed = func(m *Model, v string) {
		m.runSearch(strings.TrimSpace(v), false)
		if len(m.search.matches) > 0 {
			m.nextMatch(1)
		} else if prevID != "" {
			m.panes.tree.Select(prevID)
			m.syncFromTree()
		}
	}
	p.cancelled = func(m *Model) {
		m.runSearch(prevQuery, false)
		if prevID != "" {
			m.panes.tree.Reveal(prevID)
		}
		m.panes.focus = prevFocus
		m.syncFromTree()
		m.status.flash = ""
	}
	m.push(p)
}

func submitSearch(m *Model, _ *promptLayer, v string, _ bool) tea.Cmd {
	q := strings.TrimSpace(v)
	if q == m.search.query && m.search.idx >= 0 {
		// already on the match found while typing: stay, and say so
		m.search.idx--
		m.nextMatch(1)
		return nil
	}
	m.runSearch(q, true)
	return nil
}

func submitExport(m *Model, _ *promptLayer, v string, _ bool) tea.Cmd {
	return m.export(strings.TrimSpace(v))
}
