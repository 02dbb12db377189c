package tui

import (
	"context"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"domscope/dom"
	"domscope/dom/flatten"
)

// updateNoWork feeds msg to Update and fails if Update flattened,
// formatted, diffed or counted tokens itself; it returns Update's command.
func updateNoWork(t *testing.T, m *Model, msg tea.Msg) tea.Cmd {
	t.Helper()
	before := workDone()
	_, cmd := m.Update(msg)
	if after := workDone(); after != before {
		t.Fatalf("Update(%T) derived on the UI loop: %+v before, %+v after", msg, before, after)
	}
	return cmd
}

// TestUpdateShowsWhatWasDerived: after a refresh, an action and a follow
// snapshot, Update only shows the flat view, tokens and diff that the
// commands made; the flat pane then shows them.
func TestUpdateShowsWhatWasDerived(t *testing.T) {
	first, second, third := formPage("First"), formPage("Second"), formPage("Third")
	for _, n := range third.ByID {
		if n.Name != "" {
			n.Name += " (changed)" // the page changed by itself: follow shows it
		}
	}
	a := newTestActor(first, second, third)
	m := newModel(context.Background(), Config{Actor: a})
	m.fol.paused = false

	deliver := func(cmd tea.Cmd) {
		t.Helper()
		for i := 0; i < 10 && cmd != nil; i++ {
			var next []tea.Cmd
			for _, msg := range runCmd(cmd, 10*time.Second) {
				switch msg.(type) {
				case snapshotMsg, followMsg:
					next = append(next, updateNoWork(t, m, msg))
				}
			}
			cmd = tea.Batch(next...)
		}
	}

	deliver(m.refresh(false, "first snapshot"))
	if m.doc.snap != first || m.doc.view == nil || m.doc.view.Snap != first {
		t.Fatalf("the first snapshot is not shown with its view")
	}
	if m.panes.flat.tokens <= 0 || len(m.panes.flat.lines) < 2 {
		t.Fatalf("flat pane: %d tokens, %d lines", m.panes.flat.tokens, len(m.panes.flat.lines))
	}

	id := m.panes.tree.SelectedID()
	deliver(m.act(dom.Action{Kind: dom.KindClick, ID: id}))
	if m.doc.snap != second || !m.doc.hasDiff || m.doc.view.Snap != second {
		t.Fatalf("the action's snapshot is not shown with its diff")
	}
	if m.panes.flat.tokens <= 0 {
		t.Fatalf("tokens were not counted after the action")
	}

	m.fol.pending = true
	deliver(m.followNow())
	if m.doc.snap != third || m.doc.view.Snap != third {
		t.Fatalf("the follow snapshot is not shown")
	}

	// A flatten rule switched in the rules list re-flattens in a command.
	rule := flatten.FlattenRules()[0].Name
	r := newRulesLayer(m.layerCtx(), "", "")
	m.push(r)
	before := workDone()
	cmd := m.switchRule(r, "flatten:"+rule)
	if workDone() != before {
		t.Fatalf("switching a flatten rule derived on the UI loop")
	}
	for _, msg := range runCmd(cmd, 10*time.Second) {
		updateNoWork(t, m, msg)
	}
	if !m.doc.view.Opts.Disabled[rule] {
		t.Fatalf("the flat view shown was not made with %s off", rule)
	}

	// Copying the JSON view formats it in a command.
	m.panes.flat.json = true
	before = workDone()
	cmd = m.copyWhat(copyFlat)
	if workDone() != before {
		t.Fatalf("copying the JSON view formatted on the UI loop")
	}
	for _, msg := range runCmd(cmd, 10*time.Second) {
		updateNoWork(t, m, msg)
	}
	if !strings.Contains(m.status.flash, "the flat view (json)") {
		t.Fatalf("copying the JSON view said %q", m.status.flash)
	}
}

// workDone reads the derivation counters.
func workDone() [4]int64 {
	d := &flatten.Derivations
	return [4]int64{d.Flatten.Load(), d.Diff.Load(), d.Format.Load(), d.Tokens.Load()}
}
