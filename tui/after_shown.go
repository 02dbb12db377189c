package tui

import (
	"strings"

	tea "charm.land/bubbletea/v2"

	"domscope/dom/flatten"
	"domscope/views"
)

// afterShown runs after a snapshot is on screen. For an action it keeps
// the view before and after with the recorded step; prev is the view
// before. It resolves the current step's target again on the new page.
func (m *Model) afterShown(msg snapshotMsg, prev *flatten.View) tea.Cmd {
	var cmds []tea.Cmd
	if msg.res != nil {
		m.markScrolled(prev)
	}
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

// markScrolled marks the scroll containers (and the page) an action moved:
// the node diff does not see a scroll, the views' scroll marks do. The
// footer says where a single one went.
func (m *Model) markScrolled(prev *flatten.View) {
	v := m.doc.view
	if prev == nil || v == nil || prev.Snap == nil || v.Snap == nil || prev.Snap.TargetID != v.Snap.TargetID {
		return
	}
	var moved []string
	for id, now := range v.Scrolls {
		if was, ok := prev.Scrolls[id]; ok && was != now {
			moved = append(moved, id)
			if m.doc.marks == nil {
				m.doc.marks = map[string]views.Mark{}
			}
			if m.doc.notes == nil {
				m.doc.notes = map[string]string{}
			}
			if _, marked := m.doc.marks[id]; !marked {
				m.doc.marks[id] = views.Renamed
				m.doc.notes[id] = "~ " + strings.TrimPrefix(now, "page ")
			}
		}
	}
	if len(moved) == 0 {
		return
	}
	m.clearCache()
	if len(moved) == 1 && m.status.flash == "" {
		id := moved[0]
		m.setFlash("scrolled "+m.nodeName(id)+": "+prev.Scrolls[id]+" → "+v.Scrolls[id], false)
	}
}
