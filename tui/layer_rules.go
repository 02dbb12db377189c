package tui

import (
	"context"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"domscope/dom"
	"domscope/keymap"
	"domscope/views"
)

// rulesLayer lists the tier and flatten rules with their state; choosing
// one switches it.
type rulesLayer struct{ list }

// newRulesLayer lists the rules with the cursor on cursorKey ("" for the first).
func newRulesLayer(m *Model, cursorKey string) *rulesLayer {
	r := &rulesLayer{list{title: "Rules · toggle to see the flat view change",
		foot: fmt.Sprintf("space toggles · flat view now %s tokens · esc close", commas(m.panes.flat.tokens))}}
	box := func(off bool) string {
		if off {
			return m.st.Error.Render("[ ] off")
		}
		return m.st.OK.Render("[x] on ")
	}
	// how many nodes each rule decided on this page: what a toggle will move
	used := map[string]int{}
	if m.doc.snap != nil {
		for _, n := range m.doc.snap.ByID {
			used["tier:"+n.Why]++
		}
	}
	for _, d := range m.doc.dec {
		used["flatten:"+d.Rule]++
	}
	count := func(k string) string {
		if n := used[k]; n > 0 {
			return views.Pad(commas(n), 7)
		}
		return views.Pad("·", 7)
	}
	r.header("Tier rules (rebuild the tree from the same capture) · nodes")
	for _, t := range dom.TierRules() {
		k := "tier:" + t.Name
		r.add(box(m.doc.tierOff[t.Name])+" "+views.Pad(t.Name, 26)+" "+count(k)+m.st.Dim.Render(t.Doc), k)
	}
	r.header("Flatten rules (re-flatten at once) · nodes")
	for _, f := range dom.FlattenRules() {
		k := "flatten:" + f.Name
		r.add(box(m.doc.flatOpts.Disabled[f.Name])+" "+views.Pad(f.Name, 26)+" "+count(k)+m.st.Dim.Render(f.Doc), k)
	}
	r.first()
	r.selectKey(cursorKey)
	return r
}

// snapshotShown tells the layers a new snapshot is on screen; rebuilt: the
// same capture built again with other tier rules.
type snapshotShown struct{ rebuilt bool }

func (r *rulesLayer) handle(m *Model, c keymap.Command, msg tea.Msg) (tea.Cmd, bool) {
	if s, ok := msg.(snapshotShown); ok {
		if s.rebuilt { // the counts and states changed
			m.replace(r, newRulesLayer(m, r.key()))
		}
		return nil, true
	}
	if c == keymap.Accept {
		return r.toggle(m, r.key()), true
	}
	return r.common(m, r, c, msg)
}

func (r *rulesLayer) render(m *Model, s screen) drawn { return r.draw(m, s) }

// toggle switches a rule. A flatten rule re-flattens at once; a tier rule
// rebuilds the tree from the same raw capture (no new capture).
func (r *rulesLayer) toggle(m *Model, k string) tea.Cmd {
	kind, name, ok := strings.Cut(k, ":")
	if !ok || m.doc.snap == nil {
		return nil
	}
	before := m.panes.flat.tokens
	switch kind {
	case "flatten":
		m.doc.flatOpts.Disabled[name] = !m.doc.flatOpts.Disabled[name]
		m.reflatten()
		m.syncFromTree()
		m.replace(r, newRulesLayer(m, k))
		m.setFlash(fmt.Sprintf("%s %s · flat view %s → %s tokens", name, onOff(!m.doc.flatOpts.Disabled[name]), commas(before), commas(m.panes.flat.tokens)), false)
		return nil
	case "tier":
		if m.doc.snap.Raw == nil {
			m.setFlash("this snapshot has no raw capture to rebuild from", true)
			return nil
		}
		m.doc.tierOff[name] = !m.doc.tierOff[name]
		snap, off := m.doc.snap, copySet(m.doc.tierOff)
		actor := m.conn.actor
		if !m.live() {
			actor = nil
		}
		m.replace(r, newRulesLayer(m, k))
		return m.startOp("rebuilding with "+name+" "+onOff(!off[name]), func(ctx context.Context, gen int) tea.Msg {
			if actor == nil { // a saved capture: no service to ask
				ns, err := dom.Rebuild(snap, off)
				return snapshotMsg{gen: gen, snap: ns, err: err, rebuilt: true}
			}
			ns, err := actor.SetTierRules(off)
			if ns == nil && err == nil {
				ns, err = actor.Snapshot(ctx, false)
			}
			return snapshotMsg{gen: gen, snap: ns, err: err, rebuilt: true}
		})
	}
	return nil
}

func onOff(on bool) string {
	if on {
		return "on"
	}
	return "off"
}
