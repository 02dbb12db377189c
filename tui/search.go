package tui

import (
	"strings"

	tea "charm.land/bubbletea/v2"
)

// searchKey searches the tree, or filters the flat pane's lines when it
// has the keyboard (flatquery.go).
func (m *Model) searchKey() tea.Cmd {
	if m.panes.focus == flatFocus && !m.pic.on {
		m.openFlatFilter()
		return nil
	}
	m.openSearch()
	return nil
}

// openSearch opens the search prompt empty. The tree follows the first
// match as the query is typed. esc puts back the query and the selection
// there were before.
func (m *Model) openSearch() {
	prevQuery, prevID, prevFocus := m.search.query, m.panes.tree.SelectedID(), m.panes.focus
	p := newPrompt("search name, role, tag, id, attribute", "", "", "e.g. new todo, button, #email · enter keeps · esc restores", m.w, submitSearch)
	p.changed = func(m *Model, v string) {
		// each key's match shows; the log keeps the search submitted
		m.status.typing = true
		defer func() { m.status.typing = false }()
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
