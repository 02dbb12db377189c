package tui

import (
	"context"

	tea "charm.land/bubbletea/v2"

	"domscope/dom"
)

// An action is what a layer asks of the model: close me, open that, jump
// to a node. Layers return actions and the model applies them. So a layer
// never changes the model itself; crush's dialogs work the same way.
type action interface {
	// apply does it; from is the layer that asked.
	apply(m *Model, from layer) tea.Cmd
}

// apply applies a layer's action; nil asks for nothing.
func (m *Model) apply(from layer, a action) tea.Cmd {
	if a == nil {
		return nil
	}
	return a.apply(m, from)
}

// actions are applied in order, and their commands batched.
type actions []action

func (as actions) apply(m *Model, from layer) tea.Cmd {
	var cmds []tea.Cmd
	for _, a := range as {
		cmds = append(cmds, m.apply(from, a))
	}
	return tea.Batch(cmds...)
}

// run is a command of the layer's own (a text input's cursor).
type run struct{ cmd tea.Cmd }

func (a run) apply(*Model, layer) tea.Cmd { return a.cmd }

// closeLayer takes the asking layer off the stack.
type closeLayer struct{}

func (closeLayer) apply(m *Model, from layer) tea.Cmd {
	m.pop(from)
	return nil
}

// open puts a layer on the stack.
type open struct{ l layer }

func (a open) apply(m *Model, _ layer) tea.Cmd {
	m.push(a.l)
	return nil
}

// flash says something in the footer.
type flash struct {
	text string
	bad  bool
}

func (a flash) apply(m *Model, _ layer) tea.Cmd {
	m.setFlash(a.text, a.bad)
	return nil
}

// jumpTo selects a node in the tree and gives it the keyboard. The asking
// layer closes when the node can be shown.
type jumpTo struct{ id string }

func (a jumpTo) apply(m *Model, from layer) tea.Cmd {
	if a.id != "" && m.panes.tree.Reveal(a.id) {
		m.pop(from)
		m.panes.focus = treeFocus
		m.syncFromTree()
	}
	return nil
}

// attachTab moves the UI to another tab.
type attachTab struct{ t dom.TargetInfo }

func (a attachTab) apply(m *Model, _ layer) tea.Cmd { return m.attach(a.t) }

// answer answers the page's dialog.
type answer struct {
	d      *dialogLayer
	accept bool
}

func (a answer) apply(m *Model, _ layer) tea.Cmd { return m.answerDialog(a.d, a.accept) }

// copyOut sends text to the clipboard; what names it in the footer.
type copyOut struct{ what, text string }

func (a copyOut) apply(m *Model, _ layer) tea.Cmd { return m.copyText(a.what, a.text) }

// copyItem copies one of the copy chooser's items.
type copyItem struct{ what string }

func (a copyItem) apply(m *Model, _ layer) tea.Cmd { return m.copyWhat(a.what) }

// ruleSwitch switches a tier or flatten rule.
type ruleSwitch struct {
	r   *rulesLayer
	key string
}

func (a ruleSwitch) apply(m *Model, _ layer) tea.Cmd { return m.switchRule(a.r, a.key) }

// replaceWith puts a new layer in the asking layer's place (a list
// rebuilt with fresh data).
type replaceWith struct{ l layer }

func (a replaceWith) apply(m *Model, from layer) tea.Cmd {
	m.replace(from, a.l)
	return nil
}

// submit runs what a prompt asked for (its own submit function).
type submit struct {
	p     *promptLayer
	value string
	enter bool
	fn    submitFunc // another of the prompt's functions (ctrl+q), else its submit
}

func (a submit) apply(m *Model, _ layer) tea.Cmd {
	if a.fn != nil {
		return a.fn(m, a.p, a.value, a.enter)
	}
	return a.p.submit(m, a.p, a.value, a.enter)
}

// edited tells a prompt's owner the text changed (incremental search).
type edited struct {
	p     *promptLayer
	value string
}

func (a edited) apply(m *Model, _ layer) tea.Cmd {
	a.p.changed(m, a.value)
	return nil
}

// cancelled tells a prompt's owner it was given up.
type cancelled struct{ p *promptLayer }

func (a cancelled) apply(m *Model, _ layer) tea.Cmd {
	a.p.cancelled(m)
	return nil
}

// startAction starts browser work (a script's step) the way an action
// does. The marks of the last change go, and a spinner shows.
type startAction struct {
	label string
	run   func(ctx context.Context, gen int) tea.Msg
}

func (a startAction) apply(m *Model, _ layer) tea.Cmd {
	m.doc.marks = nil
	m.clearCache()
	return m.startOp(a.label, a.run)
}

// reveal selects a node in both panes, where the keyboard is.
type reveal struct{ id string }

func (a reveal) apply(m *Model, _ layer) tea.Cmd {
	m.panes.tree.Reveal(a.id)
	m.syncFromTree()
	return nil
}
