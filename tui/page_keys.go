package tui

import (
	tea "charm.land/bubbletea/v2"

	"domscope/dom"
)

// The handlers of the keys that act on the page through the service.
// paneKeys names them.

// selectedOr is the selected node. With none, it says to select one to
// verb first and returns nil.
func (m *Model) selectedOr(verb string) *dom.VirtualNode {
	n := m.panes.tree.Selected()
	if n == nil || m.doc.snap == nil {
		m.setFlash("select a node to "+verb+" first", true)
		return nil
	}
	return n
}

// acting runs an action that needs no node: back, forward, reload.
func acting(kind dom.ActionKind) paneKey {
	return func(m *Model) tea.Cmd { return m.act(dom.Action{Kind: kind}) }
}

// scrolling scrolls the page by dy pixels.
func scrolling(dy float64) paneKey {
	return func(m *Model) tea.Cmd { return m.act(dom.Action{Kind: "scroll", DY: dy}) }
}

func (m *Model) clickKey() tea.Cmd {
	if n := m.selectedOr("click"); n != nil {
		return m.act(dom.Action{Kind: "click", ID: n.ID})
	}
	return nil
}

func (m *Model) hoverKey() tea.Cmd {
	if n := m.selectedOr("hover"); n != nil {
		return m.act(dom.Action{Kind: "hover", ID: n.ID})
	}
	return nil
}

func (m *Model) typeKey() tea.Cmd {
	n := m.selectedOr("type into")
	if n == nil {
		return nil
	}
	p := newPrompt("type into "+m.nodeName(n.ID), n.ID, "", "text · enter types it · alt+enter types it and presses Enter", m.w, submitType)
	if n.TakesSecret() {
		p.conceal()
	}
	m.push(p)
	return nil
}

// keyKey asks for a key to press on the selected node. When the selection
// is structural, the key goes to the focused element.
func (m *Model) keyKey() tea.Cmd {
	n := m.panes.tree.Selected()
	id, on := "", "the focused element"
	if n != nil && n.Tier != dom.Structural {
		id, on = n.ID, m.nodeName(n.ID)
	}
	m.push(newPrompt("press a key on "+on, id, "", "Enter, Escape, Tab, ArrowDown, ctrl+a, shift+Tab…", m.w, submitKey))
	return nil
}

func (m *Model) selectKey() tea.Cmd {
	n := m.selectedOr("select an option in")
	if n == nil {
		return nil
	}
	p := newPrompt("select an option in "+m.nodeName(n.ID), n.ID, "", "option value or label", m.w, submitSelect)
	if n.TakesSecret() {
		p.conceal() // a card's expiry month is a <select>
	}
	m.push(p)
	return nil
}

func (m *Model) gotoKey() tea.Cmd {
	u := ""
	if m.doc.snap != nil {
		u = m.doc.snap.URL
	}
	m.push(newPrompt("go to", "", u, "https://…", m.w, submitGoto).selectAll())
	return nil
}
