package tui

import (
	tea "charm.land/bubbletea/v2"

	"domscope/dom"
	"domscope/keymap"
)

// How the model drives the stepper (layer_step.go). Keys and replies go
// in with a stepCtx; actions come out and the model applies them.

// stepCtx is the model as the stepper sees it now.
func (m *Model) stepCtx() *stepCtx {
	x := &stepCtx{layerCtx: m.layerCtx(), ctx: m.ctx, rec: m.rec}
	if m.live() {
		x.actor = m.conn.actor
	}
	return x
}

// stepping is the handler of a step key: a, A, S or E.
func stepping(a keymap.Command) paneKey {
	return func(m *Model) tea.Cmd { return m.apply(nil, m.step.key(m.stepCtx(), a)) }
}

// stepSubmit makes a prompt's submit function of a stepper's.
func stepSubmit(f func(s *stepper, x *stepCtx, v string) action) submitFunc {
	return func(m *Model, _ *promptLayer, v string, _ bool) tea.Cmd {
		return m.apply(nil, f(m.step, m.stepCtx(), v))
	}
}

// stepPreview resolves the current step's target again, in a command.
func (m *Model) stepPreview() tea.Cmd { return m.step.preview(m.stepCtx()) }

// stepMsg handles the step-through's replies (ok false: not one of them).
func (m *Model) stepMsg(msg tea.Msg) (tea.Cmd, bool) {
	switch msg := msg.(type) {
	case stepPreviewMsg:
		return m.apply(nil, m.step.previewed(m.stepCtx(), msg)), true
	case stepDoneMsg:
		if m.step != nil && msg.res.Action != dom.KindSnapshot {
			m.step.recorded++ // kept by the recorder even when the reply is stale
		}
		if msg.snap.gen != m.doc.gen {
			return nil, true // cancelled (esc) or overtaken
		}
		cmd := m.gotSnapshot(msg.snap)
		if m.step == nil {
			return cmd, true
		}
		return tea.Batch(cmd, m.apply(nil, m.step.advance(m.stepCtx(), msg))), true
	}
	return nil, false
}
