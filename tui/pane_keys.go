package tui

import (
	tea "charm.land/bubbletea/v2"

	"domscope/keymap"
)

// The handlers of the keys that move through the panes and change what
// they show. paneKeys names them.

// moving moves the focused pane's cursor (up, down, a page, the ends).
func moving(c keymap.Command) paneKey {
	return func(m *Model) tea.Cmd {
		p := m.panes.focused()
		move(p, c)
		m.panes.follow(p)
		return nil
	}
}

// panning scrolls the flat pane's long lines sideways.
func panning(dir int) paneKey {
	return func(m *Model) tea.Cmd {
		m.panes.flat.Pan(dir)
		return nil
	}
}

func (m *Model) expandKey() tea.Cmd {
	// The flat pane scrolls long lines right where the tree has nothing
	// to open.
	if n := m.panes.tree.Selected(); (n == nil || len(n.Children) == 0 || m.panes.tree.IsOpen(n)) && m.panes.focused().Pan(1) {
		return nil
	}
	m.panes.focus = treeFocus
	m.panes.tree.Expand()
	m.syncFromTree()
	return nil
}

func (m *Model) collapseKey() tea.Cmd {
	if m.panes.focused().Pan(-1) { // back to the start of the lines first
		return nil
	}
	m.panes.focus = treeFocus
	m.panes.tree.Collapse()
	m.syncFromTree()
	return nil
}

func (m *Model) toggleKey() tea.Cmd {
	m.panes.focus = treeFocus
	m.panes.tree.Toggle()
	return nil
}

func (m *Model) zoomKey() tea.Cmd {
	m.panes.zoomed = !m.panes.zoomed
	m.layout()
	m.panes.follow(m.panes.focused())
	return nil
}

func (m *Model) switchPaneKey() tea.Cmd {
	if m.panes.focus == treeFocus {
		m.panes.focus = flatFocus
		m.syncFromTree()
	} else {
		m.panes.focus = treeFocus
	}
	return nil
}

func (m *Model) filterKey() tea.Cmd {
	m.panes.tree.SetInteractiveOnly(!m.panes.tree.interactiveOnly)
	if m.panes.tree.interactiveOnly {
		m.setFlash("showing interactive nodes and their ancestors (i shows all)", false)
	}
	m.syncFromTree()
	return nil
}

func (m *Model) formatKey() tea.Cmd {
	if m.panes.flat.query != "" {
		m.panes.flat.query, m.panes.flat.queryOf = "", nil // the query view is text only
	}
	if m.doc.view == nil {
		m.panes.flat.json = !m.panes.flat.json
		return nil
	}
	return m.formatAs(!m.panes.flat.json)
}

func (m *Model) callsKey() tea.Cmd {
	m.push(newCallsLayer(m.layerCtx(), m.cfg.Agent != nil, m.agent.calls))
	return nil
}

func (m *Model) agentPauseKey() tea.Cmd {
	if m.cfg.Agent == nil {
		m.setFlash("no agent to pause: start domscope with --mcp ADDR or --session NAME", true)
		return nil
	}
	m.toggleAgent()
	return nil
}

func (m *Model) exportKey() tea.Cmd {
	if m.doc.snap == nil {
		m.setFlash("nothing to export yet", true)
		return nil
	}
	m.push(newPrompt("export this capture to", "", m.outPath(m.exportName()), "file.json.gz", m.w, submitExport))
	return nil
}

func (m *Model) copyMenuKey() tea.Cmd {
	format := "text"
	if m.panes.flat.json {
		format = "json"
	}
	m.push(newCopyLayer(format, m.step.line() != ""))
	return nil
}

// highlightKey switches the browser's highlight of the selected node.
func (m *Model) highlightKey() tea.Cmd {
	m.hl.on = !m.hl.on
	if m.hl.on {
		m.setFlash("browser highlight on", false)
		m.hl.shown = ""
		m.hl.seq++
		seq := m.hl.seq
		return func() tea.Msg { return hlTickMsg{seq} }
	}
	m.setFlash("browser highlight off", false)
	m.hl.shown = ""
	a, ctx := m.conn.actor, m.ctx
	return safe(func() tea.Msg {
		c, cancel := ctxTimeout(ctx, highlightTimeout)
		defer cancel()
		return hlDoneMsg{a.Highlight(c, "")}
	})
}
