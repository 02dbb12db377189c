package tui

import (
	"strings"

	tea "charm.land/bubbletea/v2"

	"domscope/dom"
	"domscope/dom/urls"
)

// What the prompts do when submitted: each is a prompt's submit function.

func submitType(m *Model, p *promptLayer, v string, enter bool) tea.Cmd {
	if enter {
		v += "\n"
	}
	return m.actOn(dom.Action{Kind: "type", ID: p.id, Text: v}, p.secret)
}

func submitKey(m *Model, p *promptLayer, v string, _ bool) tea.Cmd {
	k := strings.TrimSpace(v)
	if k == "" {
		m.setFlash("no key given", true)
		return nil
	}
	return m.act(dom.Action{Kind: "key", ID: p.id, Key: k})
}

func submitSelect(m *Model, p *promptLayer, v string, _ bool) tea.Cmd {
	return m.actOn(dom.Action{Kind: "select", ID: p.id, Value: v}, p.secret)
}

func submitGoto(m *Model, _ *promptLayer, v string, _ bool) tea.Cmd {
	if strings.TrimSpace(v) == "" {
		return nil
	}
	var base string
	if m.doc.snap != nil {
		base = m.doc.snap.URL
	}
	u, err := urls.Complete(v, base)
	if err != nil {
		m.setFlash(err.Error(), true)
		return nil
	}
	// The prompt shows the URL with its secrets withheld (…). Sent back
	// unchanged, it means this page: reload it, with its real URL.
	if m.doc.snap != nil && u == m.doc.snap.URL && strings.Contains(u, "…") {
		return m.act(dom.Action{Kind: dom.KindReload})
	}
	return m.act(dom.Action{Kind: "navigate", URL: u})
}

func submitExport(m *Model, _ *promptLayer, v string, _ bool) tea.Cmd {
	return m.export(strings.TrimSpace(v))
}
