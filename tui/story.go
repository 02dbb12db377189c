package tui

import "domscope/dom"

// sessionLog is the story to tell: the saved capture's, else this
// session's.
func (m *Model) sessionLog() []dom.SessionStep {
	if m.conn.saved != nil {
		return m.conn.saved.SessionLog()
	}
	return m.rec.Log()
}

func (m *Model) openStory() {
	log := m.sessionLog()
	if len(log) == 0 {
		what := "this session has no recorded steps yet: act on the page (c, t, K…)"
		if m.conn.saved != nil {
			what = "this capture carries no session steps (it was exported before any action)"
		}
		m.setFlash(what, true)
		return
	}
	m.push(newStoryLayer(m.layerCtx(), log))
}
