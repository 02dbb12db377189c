package tui

import (
	"strings"

	tea "charm.land/bubbletea/v2"

	"domscope/dom/flatten"
	"domscope/dom/query"
	"domscope/views"
)

// The flat pane's filter and query view (issue 33). / in the flat pane
// keeps the lines holding the typed words, as they are typed; ctrl+q
// shows instead the engine's query view of the words: the page's parts
// ranked by relevance (flatten.QueryLines), as snapshot --query prints.

// queryShownMsg is a query view made in a command for a flat view.
type queryShownMsg struct {
	view  *flatten.View
	words string
	out   flatOutput
}

// queryOutput is the query view of v's snapshot for words: the whole
// page, no folds and no modal scope, as query.Shape makes it for
// snapshot --query. It flattens again, so it runs in a command.
func queryOutput(v *flatten.View, words string) flatOutput {
	opts := v.Opts
	opts.Roots = nil // the whole page, not a selector's part
	query.Shape{Offscreen: opts.IncludeOffscreen, Folds: opts.Fold, Query: words}.Apply(v.Snap, &opts, nil)
	sd, _ := flatten.Flatten(v.Snap, opts)
	lines, _ := flatten.QueryLines(sd, words, 0)
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(l.Text + "\n")
	}
	return flatOutput{src: v, lines: lines, tokens: flatten.CountTokens(b.String())}
}

// openFlatFilter opens the filter prompt of the flat pane.
func (m *Model) openFlatFilter() {
	prev := m.panes.flat.filterText
	p := newPrompt("filter the flat lines", "", prev, "words · enter keeps · esc clears · ctrl+q query view", m.w, submitFlatFilter)
	p.changed = func(m *Model, v string) {
		m.status.typing = true
		defer func() { m.status.typing = false }()
		m.setFlatFilter(v)
	}
	p.cancelled = func(m *Model) {
		m.setFlatFilter("")
		m.status.flash = ""
	}
	p.query = submitQueryView
	m.push(p)
}

// setFlatFilter filters the flat pane's lines and says how many show.
func (m *Model) setFlatFilter(v string) {
	f := &m.panes.flat
	f.SetFilter(v)
	if m.panes.focus == flatFocus {
		m.panes.follow(f)
	}
	if n, of, ok := f.Filtered(); ok {
		m.setFlash(commas(n)+" of "+commas(of)+" lines hold “"+views.Clean(f.filterText)+"” · esc clears", n == 0)
	}
}

func submitFlatFilter(m *Model, _ *promptLayer, v string, _ bool) tea.Cmd {
	m.setFlatFilter(v)
	return nil
}

// submitQueryView turns the flat pane into the query view of the words
// typed in the filter prompt.
func submitQueryView(m *Model, _ *promptLayer, v string, _ bool) tea.Cmd {
	m.setFlatFilter("")
	m.status.flash = ""
	return m.showQuery(strings.TrimSpace(v))
}

// queryViewKey (ctrl+q on the panes) leaves the query view, or makes
// one of the filter's words.
func (m *Model) queryViewKey() tea.Cmd {
	f := &m.panes.flat
	if f.query != "" {
		m.leaveQuery()
		return nil
	}
	if f.filterText == "" {
		m.setFlash("type the words first: / in the flat pane, then ctrl+q", true)
		return nil
	}
	words := f.filterText
	m.setFlatFilter("")
	return m.showQuery(words)
}

// showQuery makes the query view of words in a command.
func (m *Model) showQuery(words string) tea.Cmd {
	if words == "" || m.doc.view == nil {
		m.setFlash("type the words first: / in the flat pane, then ctrl+q", true)
		return nil
	}
	m.panes.flat.query = words
	m.setFlash("ranking the page's parts for “"+views.Clean(words)+"”…", false)
	return m.makeQuery()
}

// makeQuery makes the query view of the view on screen in a command.
func (m *Model) makeQuery() tea.Cmd {
	f := &m.panes.flat
	v, words := m.doc.view, f.query
	f.queryBusy, f.queryOf = true, nil
	return safe(func() tea.Msg { return queryShownMsg{view: v, words: words, out: queryOutput(v, words)} })
}

// queryAfter runs after every message: a new view on screen gets its
// query view made again, while the old one stays shown.
func (m *Model) queryAfter() tea.Cmd {
	f := &m.panes.flat
	if f.query == "" || m.doc.view == nil || f.queryOf == m.doc.view || f.queryBusy {
		return nil
	}
	return m.makeQuery()
}

// gotQuery shows a query view made for the view on screen.
func (m *Model) gotQuery(msg queryShownMsg) tea.Cmd {
	f := &m.panes.flat
	f.queryBusy = false
	if msg.words != f.query || msg.view != m.doc.view {
		return nil // left, other words, or a new view: queryAfter again
	}
	first := f.queryOf == nil && !strings.HasPrefix(m.status.flash, "query view")
	f.queryOf = msg.view
	f.applyQuery(msg.out, m.doc.decisions())
	if first {
		m.setFlash("query view of “"+views.Clean(msg.words)+"”: the best part first · ctrl+q or esc: the whole view", false)
		// on the best part's first node, in both panes
		for i, id := range f.ids {
			if id != "" {
				f.SetCursor(i)
				m.syncFromFlat()
				return nil
			}
		}
	}
	m.syncFromTree()
	return nil
}

// leaveQuery shows the whole view again.
func (m *Model) leaveQuery() {
	f := &m.panes.flat
	f.query, f.queryOf = "", nil
	if v := m.doc.view; v != nil {
		f.apply(flatOutput{src: v, json: v.JSON, lines: v.Lines, tokens: v.Tokens()}, v.Dec)
	}
	m.setFlash("the whole flat view again", false)
	m.syncFromTree()
}
