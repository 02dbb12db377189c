package tui

import (
	"context"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"domscope/dom"
	"domscope/dom/build"
	"domscope/dom/flatten"
	"domscope/keymap"
	"domscope/views"
)

// rulesLayer lists the tier and flatten rules with their state; choosing
// one switches it. It sits over the tree pane, so the flat pane it
// changes stays in sight.
type rulesLayer struct {
	list
	last string // the last toggle and the token change it made
	// a tier toggle waits for the rebuilt tree: its name and state and
	// the token count before it
	pending string
	before  int
}

// rulesArea is the tree pane when the flat pane is on screen beside or
// below it, else the panes' whole area.
func rulesArea(s screen) rect {
	if s.flat.w > 0 && s.tree.w > 0 {
		return s.tree
	}
	return s.body
}

// newRulesLayer lists the rules with the cursor on cursorKey ("" for the
// first); last is the last toggle's token change, kept in the footer.
func newRulesLayer(m *Model, cursorKey, last string) *rulesLayer {
	foot := fmt.Sprintf("space toggles · flat view %s tokens · esc close", commas(m.panes.flat.tokens))
	if last != "" {
		foot = last + " · " + foot
	}
	r := &rulesLayer{list: list{title: "Rules · toggle to see the flat view change", foot: foot, area: rulesArea}, last: last}
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
	for _, t := range build.TierRules() {
		k := "tier:" + t.Name
		r.add(box(m.doc.tierOff[t.Name])+" "+views.Pad(t.Name, 26)+" "+count(k)+m.st.Dim.Render(t.Doc), k)
	}
	r.header("Flatten rules (re-flatten at once) · nodes")
	for _, f := range flatten.FlattenRules() {
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
			last := r.last
			if r.pending != "" {
				last = tokenChange(r.pending, r.before, m.panes.flat.tokens)
				m.setFlash(last, false)
			}
			m.replace(r, newRulesLayer(m, r.key(), last))
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
		last := tokenChange(name+" "+onOff(!m.doc.flatOpts.Disabled[name]), before, m.panes.flat.tokens)
		m.replace(r, newRulesLayer(m, k, last))
		m.setFlash(last, false)
		return nil
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
		nr := newRulesLayer(m, k, r.last)
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

// tokenChange says what a toggle did to the flat view: "class-words off ·
// 218 → 205 tokens".
func tokenChange(what string, before, after int) string {
	return fmt.Sprintf("%s · %s → %s tokens", what, commas(before), commas(after))
}

func onOff(on bool) string {
	if on {
		return "on"
	}
	return "off"
}
