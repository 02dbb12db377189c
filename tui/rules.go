package tui

import (
	"context"
	"strings"

	tea "charm.land/bubbletea/v2"

	"domscope/dom"
	"domscope/dom/build"
)

// switchRule switches rule k of the rules list r. A flatten rule
// re-flattens at once. A tier rule rebuilds the tree from the same raw
// capture, with no new capture.
func (m *Model) switchRule(r *rulesLayer, k string) tea.Cmd {
	kind, name, ok := strings.Cut(k, ":")
	if !ok || m.doc.snap == nil {
		return nil
	}
	before := m.panes.flat.tokens
	switch kind {
	case "flatten":
		m.doc.flatOpts.Disabled[name] = !m.doc.flatOpts.Disabled[name]
		nr := newRulesLayer(m.layerCtx(), k, r.last)
		nr.pending, nr.before = name+" "+onOff(!m.doc.flatOpts.Disabled[name]), before
		m.replace(r, nr)
		return m.reflatten()
	case "tier":
		if !m.doc.snap.HasCapture() {
			m.setFlash("this snapshot has no raw capture to rebuild from", true)
			return nil
		}
		m.doc.tierOff[name] = !m.doc.tierOff[name]
		snap, off := m.doc.snap, dom.CopyRules(m.doc.tierOff)
		actor := m.conn.actor
		if !m.live() {
			actor = nil
		}
		nr := newRulesLayer(m.layerCtx(), k, r.last)
		nr.pending, nr.before = name+" "+onOff(!off[name]), before
		m.replace(r, nr)
		return m.startOp("rebuilding with "+name+" "+onOff(!off[name]), func(ctx context.Context, gen int) tea.Msg {
			if actor == nil { // a saved capture: no service to ask
				ns, err := build.Rebuild(snap, off)
				return snapshotMsg{gen: gen, snap: ns, err: err, rebuilt: true}
			}
			ns, err := actor.SetTierRules(off)
			if ns == nil && err == nil {
				// none yet, or the page moved on from it: a new read
				ns, err = actor.Snapshot(ctx, true)
			}
			return snapshotMsg{gen: gen, snap: ns, err: err, rebuilt: true}
		})
	}
	return nil
}
