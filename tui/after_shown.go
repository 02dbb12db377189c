package tui

import (
	tea "charm.land/bubbletea/v2"

	"domscope/dom"
	"domscope/dom/flatten"
)

// afterShown runs after a snapshot is on screen. For an action it keeps
// the view before and after with the recorded step; prev is the view
// before. It resolves the current step's target again on the new page.
func (m *Model) afterShown(msg snapshotMsg, prev *dom.SerializedDom) tea.Cmd {
	var cmds []tea.Cmd
	if msg.res != nil && m.doc.sd != nil {
		rec, after := m.rec, m.doc.sd
		cmds = append(cmds, safe(func() tea.Msg {
			before := ""
			if prev != nil {
				before = flatten.FormatText(prev)
			}
			rec.KeepView(before, flatten.FormatText(after))
			return nil
		}))
	}
	if m.step != nil && m.op.busy == nil {
		cmds = append(cmds, m.stepPreview())
	}
	return tea.Batch(cmds...)
}
