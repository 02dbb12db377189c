package tui

import (
	"math"

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

// pageStep is how far ctrl+e and ctrl+y scroll the page, in CSS px.
const pageStep = 400

// scrolling scrolls what holds the selection a step down (dir 1) or up
// (-1). That is the nearest scroll container at or above the selected
// node with more to show that way, by 90% of its height (dom_scroll's
// "down"). A row of a list is what one selects, and a wheel over it
// turns its list, or the box holding the list once it is at its end.
// Else the page scrolls. Where each stands is the view's look.
func scrolling(dir int) paneKey {
	return func(m *Model) tea.Cmd {
		n := m.panes.tree.Selected()
		var look *dom.Look
		if v := m.doc.view; v != nil && v.Snap == m.doc.snap {
			look = v.Opts.Look
		}
		if look == nil {
			// the page cannot say where things stand: the page, as ever
			return m.act(dom.Action{Kind: dom.KindScroll, DY: float64(dir * pageStep)})
		}
		if n != nil {
			if c, st := look.Holder(n, float64(dir)); c != nil {
				return m.act(dom.Action{Kind: dom.KindScroll, ID: c.ID, DY: float64(dir) * max(1, math.Round(st.ClientHeight*0.9))})
			}
		}
		way, side, end := "down", "below", "end"
		if dir < 0 {
			way, side, end = "up", "above", "top"
		}
		if p := look.Page; p == nil || (dir > 0 && !p.MoreBelow()) || (dir < 0 && !p.MoreAbove()) {
			holder, page := "nothing is selected", "the page does not scroll"
			if n != nil {
				holder = "no box holding " + m.nodeName(n.ID) + " has more " + side
			}
			if p != nil {
				page = "the page is at its " + end
			}
			m.setFlash("nothing to scroll "+way+": "+holder+", and "+page, false)
			return nil
		}
		return m.act(dom.Action{Kind: dom.KindScroll, DY: float64(dir * pageStep)})
	}
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
