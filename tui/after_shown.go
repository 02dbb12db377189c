package tui

import (
	tea "charm.land/bubbletea/v2"

	"domscope/dom/flatten"
)

// afterShown runs after a snapshot is on screen. For an action it keeps
// the view before and after with the recorded step; prev is the view
// before. It resolves the current step's target again on the new page.
func (m *Model) afterShown(msg snapshotMsg, prev *flatten.View) tea.Cmd {
	var cmds []tea.Cmd
	if msg.res != nil && m.doc.view != nil {
		// Only the texts: the view before holds its whole tree, and the
		// settle's collection runs beside this command.
		rec, before, after := m.rec, "", m.doc.view.Text
		if prev != nil {
			before = prev.Text
		}
		cmds = append(cmds, safe(func() tea.Msg {
			rec.KeepView(before, after)
			return nil
		}))
	}
	if m.step != nil && m.op.busy == nil {
		cmds = append(cmds, m.stepPreview())
	}
	return tea.Batch(cmds...)
}
