package tui

import (
	tea "charm.land/bubbletea/v2"

	"domscope/keymap"
)

// A key of the panes is one row of the key table and one entry here
// naming its handler. The row (keymap.Default) holds its keys, help,
// footer hint and whether it needs a browser. lazygit's controllers pair
// a binding with its Handler the same way. A test checks that both
// tables name the same commands.

// paneKey does what a key of the panes asks.
type paneKey func(m *Model) tea.Cmd

// paneKeys is every command the panes handle, with its handler.
var paneKeys = map[keymap.Command]paneKey{
	keymap.Up:       moving(keymap.Up),
	keymap.Down:     moving(keymap.Down),
	keymap.PageUp:   moving(keymap.PageUp),
	keymap.PageDown: moving(keymap.PageDown),
	keymap.Top:      moving(keymap.Top),
	keymap.Bottom:   moving(keymap.Bottom),
	keymap.Expand:   (*Model).expandKey,
	keymap.Collapse: (*Model).collapseKey,
	keymap.PanRight: panning(1),
	keymap.PanLeft:  panning(-1),
	keymap.Toggle:   (*Model).toggleKey,
	keymap.ExpandAll: func(m *Model) tea.Cmd {
		m.panes.tree.SetAll(true)
		m.syncFromTree()
		return nil
	},
	keymap.CollapseAll: func(m *Model) tea.Cmd {
		m.panes.tree.SetAll(false)
		m.syncFromTree()
		return nil
	},
	keymap.Zoom:              (*Model).zoomKey,
	keymap.SwitchPane:        (*Model).switchPaneKey,
	keymap.Counterpart:       func(m *Model) tea.Cmd { m.jumpCounterpart(); return nil },
	keymap.Search:            (*Model).searchKey,
	keymap.QueryView:         (*Model).queryViewKey,
	keymap.SearchNext:        func(m *Model) tea.Cmd { m.nextMatch(1); return nil },
	keymap.SearchPrev:        func(m *Model) tea.Cmd { m.nextMatch(-1); return nil },
	keymap.FilterInteractive: (*Model).filterKey,
	keymap.Format:            (*Model).formatKey,
	keymap.Rules:             func(m *Model) tea.Cmd { m.push(newRulesLayer(m.layerCtx(), "", "")); return nil },
	keymap.Diff:              func(m *Model) tea.Cmd { m.push(newDiffLayer(m.layerCtx(), m.status.last)); return nil },
	keymap.Help:              func(m *Model) tea.Cmd { m.push(newHelpLayer(m.layerCtx())); return nil },
	keymap.Messages:          func(m *Model) tea.Cmd { m.push(newMessagesLayer(m.layerCtx(), m.status.log)); return nil },
	keymap.Calls:             (*Model).callsKey,
	keymap.AgentPause:        (*Model).agentPauseKey,
	keymap.Export:            (*Model).exportKey,
	keymap.WriteScript:       (*Model).writeScript,
	keymap.Copy:              (*Model).copyLine,
	keymap.CopyMenu:          (*Model).copyMenuKey,
	keymap.Cancel:            (*Model).cancel,
	keymap.Highlight:         (*Model).highlightKey,
	keymap.Refresh:           func(m *Model) tea.Cmd { return m.refresh(true, "taking a new snapshot") },
	keymap.Follow:            (*Model).toggleFollow,
	keymap.Targets:           (*Model).listTargets,

	keymap.Click:      (*Model).clickKey,
	keymap.Hover:      (*Model).hoverKey,
	keymap.Type:       (*Model).typeKey,
	keymap.Key:        (*Model).keyKey,
	keymap.Select:     (*Model).selectKey,
	keymap.ScrollDown: scrolling(1),
	keymap.ScrollUp:   scrolling(-1),
	keymap.Goto:       (*Model).gotoKey,
	keymap.Back:       acting("back"),
	keymap.Forward:    acting("forward"),
	keymap.Reload:     acting("reload"),

	keymap.Picture:      (*Model).pictureToggle,
	keymap.PicMarks:     (*Model).marksToggle,
	keymap.Reveal:       (*Model).revealKey,
	keymap.ViewportNext: (*Model).nextViewport,

	keymap.StepRun:  stepping(keymap.StepRun),
	keymap.StepAll:  stepping(keymap.StepAll),
	keymap.StepSkip: stepping(keymap.StepSkip),
	keymap.StepEdit: stepping(keymap.StepEdit),
	keymap.Story:    func(m *Model) tea.Cmd { m.openStory(); return nil },
}

// normalKey runs the handler of a key pressed on the panes. A command
// that needs a page says why it cannot run without one.
func (m *Model) normalKey(a keymap.Command) tea.Cmd {
	if m.km.NeedsBrowser(a) && !m.live() {
		if m.conn.savedAs != "" {
			m.setFlash("this is a saved capture ("+m.conn.savedAs+"): there is no browser, so "+a.String()+" is disabled", true)
		} else {
			m.setFlash("no browser attached", true)
		}
		return nil
	}
	if h, ok := paneKeys[a]; ok {
		return h(m)
	}
	return nil
}
