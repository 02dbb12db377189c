package tui

import (
	"fmt"

	tea "charm.land/bubbletea/v2"

	"domscope/dom/build"
	"domscope/dom/flatten"
	"domscope/keymap"
	"domscope/views"
)

// rulesLayer lists the tier and flatten rules with their state. Choosing
// one switches it. It sits over the tree pane, so the flat pane it
// changes stays in sight.
type rulesLayer struct {
	list
	last string // the last toggle and the token change it made
	// A tier toggle waits for the rebuilt tree. This holds its name and
	// state, and the token count before it.
	pending string
	before  int
	wrapW   int // the box width the descriptions are wrapped for
}

// rulesArea is the tree pane when the flat pane is on screen beside or
// below it. Else it is the panes' whole area.
func rulesArea(s screen) rect {
	if s.flat.w > 0 && s.tree.w > 0 {
		return s.tree
	}
	return s.body
}

// newRulesLayer lists the rules with the cursor on cursorKey ("" for the
// first). last is the last toggle's token change, kept in the footer.
func newRulesLayer(x *layerCtx, cursorKey, last string) *rulesLayer {
	foot := fmt.Sprintf("space toggles · flat view %s tokens · esc close", commas(x.tokens))
	if last != "" {
		foot = last + " · " + foot
	}
	r := &rulesLayer{list: list{title: "Rules · toggle to see the flat view change", foot: foot, area: rulesArea}, last: last}
	box := func(off bool) string {
		if off {
			return x.st.Error.Render("[ ] off")
		}
		return x.st.OK.Render("[x] on ")
	}
	// How many nodes each rule decided on this page. A toggle will move
	// those.
	used := map[string]int{}
	if x.doc.snap != nil {
		for _, n := range x.doc.snap.ByID {
			used["tier:"+n.Why]++
		}
	}
	for _, d := range x.doc.decisions().All() {
		used["flatten:"+d.Rule]++
	}
	count := func(k string) string {
		if n := used[k]; n > 0 {
			return views.Pad(commas(n), 7)
		}
		return views.Pad("·", 7)
	}
	// A description goes on in rows of its own where it does not fit
	// beside its rule: cut, it hid what the rule does.
	w, _ := r.box(x.screen)
	r.wrapW = w
	text := max(w-4, 20) // the box's border, then the cursor's "▶ "
	add := func(head, doc, k string) {
		beside := text - views.Width(head)
		if views.Width(doc) <= beside {
			r.add(head+x.st.Dim.Render(doc), k)
			return
		}
		r.add(head, k)
		for _, l := range views.Wrap(doc, max(text-4, 10)) {
			r.more("    " + x.st.Dim.Render(l))
		}
	}
	r.header("Tier rules (rebuild the tree from the same capture) · nodes")
	for _, t := range build.TierRules() {
		k := "tier:" + t.Name
		add(box(x.doc.tierOff[t.Name])+" "+views.Pad(t.Name, 26)+" "+count(k), t.Doc, k)
	}
	r.header("Flatten rules (re-flatten at once) · nodes")
	for _, f := range flatten.FlattenRules() {
		k := "flatten:" + f.Name
		add(box(x.doc.flatOpts.Disabled[f.Name])+" "+views.Pad(f.Name, 26)+" "+count(k), f.Doc, k)
	}
	r.first()
	r.selectKey(cursorKey)
	return r
}

// snapshotShown tells the layers a new snapshot is on screen. rebuilt
// says it is the same capture built again with other tier rules.
type snapshotShown struct{ rebuilt bool }

func (r *rulesLayer) handle(x *layerCtx, c keymap.Command, msg tea.Msg) (action, bool) {
	if s, ok := msg.(snapshotShown); ok {
		if !s.rebuilt {
			return nil, true
		}
		// the counts and states changed
		if r.pending == "" {
			return replaceWith{newRulesLayer(x, r.key(), r.last)}, true
		}
		last := tokenChange(r.pending, r.before, x.tokens)
		return actions{flash{last, false}, replaceWith{newRulesLayer(x, r.key(), last)}}, true
	}
	if c == keymap.Accept {
		return ruleSwitch{r, r.key()}, true
	}
	if _, ok := msg.(tea.WindowSizeMsg); ok {
		if w, _ := r.box(x.screen); w != r.wrapW {
			// the descriptions wrap to the new width
			return replaceWith{newRulesLayer(x, r.key(), r.last)}, true
		}
	}
	return r.common(x, r, c, msg)
}

func (r *rulesLayer) render(x *layerCtx, s screen) drawn { return r.draw(x, s) }

// tokenChange says what a toggle did to the flat view, such as
// "class-words off · 218 → 205 tokens".
func tokenChange(what string, before, after int) string {
	return fmt.Sprintf("%s · %s → %s tokens", what, commas(before), commas(after))
}

func onOff(on bool) string {
	if on {
		return "on"
	}
	return "off"
}
