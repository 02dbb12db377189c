package tui

import (
	"context"
	"image/color"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"domscope/dom"
	"domscope/keymap"
)

func TestFirstSnapshotFillsBothPanes(t *testing.T) {
	m := started(t, newTestActor(formPage("Sign up")), 120, 40)
	if len(m.panes.tree.rows) == 0 {
		t.Fatal("tree pane is empty")
	}
	if m.op.busy != nil {
		t.Error("still busy after the snapshot arrived")
	}
	// the cursor starts on the first interactive node
	if got := m.panes.tree.Selected(); got == nil || got.Attr("id") != "email" {
		t.Errorf("start selection = %v, want the email textbox", got)
	}
	if !strings.Contains(plainScreen(m), "input#email") {
		t.Errorf("screen lacks the textbox:\n%s", plainScreen(m))
	}
}

func TestStaleReplyIsDropped(t *testing.T) {
	m := started(t, newTestActor(formPage("Sign up")), 120, 40)
	shown := m.doc.snap
	other := formPage("Another page")
	m.Update(snapshotMsg{gen: m.doc.gen - 1, snap: other})
	if m.doc.snap != shown {
		t.Fatal("a reply from an older generation replaced the snapshot")
	}
	m.Update(snapshotMsg{gen: m.doc.gen, snap: other})
	if m.doc.snap != other {
		t.Fatal("a current reply was not applied")
	}
}

// After a re-snapshot the selection stays on the same node ID. Nodes new
// in the page are marked until the next action.
func TestSelectionSurvivesResnapshot(t *testing.T) {
	first := formPage("Sign up")
	second := formPage("Sign up")
	// The page gained a banner before the form. Rows shift; IDs do not.
	body := second.Node("node_5")
	banner := &dom.VirtualNode{ID: "node_99", Tag: "div", NodeType: dom.ElementNode, Name: "Saved!", Tier: dom.Semantic, Role: "status", Parent: body, Visible: true}
	body.Children = append([]*dom.VirtualNode{banner}, body.Children...)
	second.ByID[banner.ID] = banner
	second.Node("node_10").Name = "E-mail"
	second.Seq = 2

	a := newTestActor(first, second)
	m := started(t, a, 120, 40)
	m.panes.tree.Select("node_10")
	rowBefore := m.panes.tree.cursor
	press(t, m, k('c'))

	if len(a.actions) != 1 || a.actions[0].Kind != "click" || a.actions[0].ID != "node_10" {
		t.Fatalf("actions = %+v, want one click on node_10", a.actions)
	}
	if m.doc.snap != second {
		t.Fatal("the snapshot after the action was not shown")
	}
	if got := m.panes.tree.SelectedID(); got != "node_10" {
		t.Fatalf("selection = %s, want node_10", got)
	}
	if m.panes.tree.cursor != rowBefore+1 {
		t.Errorf("cursor row %d, want %d (one row was added above)", m.panes.tree.cursor, rowBefore+1)
	}
	if m.doc.marks["node_99"] != 'A'+('+'-'A') {
		t.Errorf("added node not marked: %v", m.doc.marks)
	}
	if m.doc.marks["node_10"] != '~' {
		t.Errorf("renamed node not marked: %v", m.doc.marks)
	}
	if m.status.last == nil || !m.status.last.Success || m.status.lastDesc != "click on node_10" {
		t.Errorf("last action = %+v %q", m.status.last, m.status.lastDesc)
	}
	s := plainScreen(m)
	for _, want := range []string{"last action: click on node_10 → ok", "+1 added", "~1 changed", "+ new"} {
		if !strings.Contains(s, want) {
			t.Errorf("screen lacks %q:\n%s", want, s)
		}
	}
	// d lists the changes
	press(t, m, k('d'))
	if _, ok := topAs[*diffLayer](m); !ok {
		t.Fatal("d did not open the diff")
	}
	if s := plainScreen(m); !strings.Contains(s, `node_99 div "Saved!"`) || !strings.Contains(s, `(was "Email")`) {
		t.Errorf("diff list:\n%s", s)
	}
	// the next action clears the marks
	press(t, m, escKey, k('h'))
	if len(m.doc.marks) != 0 && m.doc.marks["node_99"] != 0 {
		t.Errorf("marks survive the next action: %v", m.doc.marks)
	}
}

func TestPromptsBuildActions(t *testing.T) {
	tests := []struct {
		name  string
		keys  func(t *testing.T, m *Model)
		want  dom.Action
		start string
	}{
		{"type with enter submits the text", func(t *testing.T, m *Model) {
			press(t, m, k('t'))
			typeText(t, m, "a@b.c")
			press(t, m, enterKey)
		}, dom.Action{Kind: "type", ID: "node_10", Text: "a@b.c"}, "node_10"},
		{"type with alt+enter also presses Enter", func(t *testing.T, m *Model) {
			press(t, m, k('t'))
			typeText(t, m, "buy milk")
			press(t, m, altEnterKey)
		}, dom.Action{Kind: "type", ID: "node_10", Text: "buy milk\n"}, "node_10"},
		{"key prompt", func(t *testing.T, m *Model) {
			press(t, m, k('K'))
			typeText(t, m, "shift+Tab")
			press(t, m, enterKey)
		}, dom.Action{Kind: "key", ID: "node_10", Key: "shift+Tab"}, "node_10"},
		{"key on a structural node goes to the focused element", func(t *testing.T, m *Model) {
			press(t, m, k('K'))
			typeText(t, m, "ctrl+a")
			press(t, m, enterKey)
		}, dom.Action{Kind: "key", Key: "ctrl+a"}, "node_5"},
		{"select", func(t *testing.T, m *Model) {
			press(t, m, k('s'))
			typeText(t, m, "Blue")
			press(t, m, enterKey)
		}, dom.Action{Kind: "select", ID: "node_10", Value: "Blue"}, "node_10"},
		{"go to a URL", func(t *testing.T, m *Model) {
			press(t, m, k('g'))
			// the prompt starts with the current URL; replace it
			m.prompt().input.SetValue("")
			typeText(t, m, "example.com")
			press(t, m, enterKey)
		}, dom.Action{Kind: "navigate", URL: "https://example.com"}, "node_10"},
		{"hover", func(t *testing.T, m *Model) { press(t, m, k('h')) }, dom.Action{Kind: "hover", ID: "node_10"}, "node_10"},
		{"back", func(t *testing.T, m *Model) { press(t, m, k('<')) }, dom.Action{Kind: "back"}, "node_10"},
		{"reload", func(t *testing.T, m *Model) { press(t, m, k('R')) }, dom.Action{Kind: "reload"}, "node_10"},
		{"scroll down", func(t *testing.T, m *Model) { press(t, m, tea.KeyPressMsg{Code: 'e', Mod: tea.ModCtrl}) }, dom.Action{Kind: "scroll", DY: 400}, "node_10"},
		{"go to a bare loopback address", func(t *testing.T, m *Model) {
			press(t, m, k('g'))
			m.prompt().input.SetValue("")
			typeText(t, m, "127.0.0.1:8766/x")
			press(t, m, enterKey)
		}, dom.Action{Kind: "navigate", URL: "http://127.0.0.1:8766/x"}, "node_10"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a := newTestActor(formPage("Sign up"))
			m := started(t, a, 120, 40)
			m.panes.tree.Select(tc.start)
			tc.keys(t, m)
			if len(a.actions) != 1 {
				t.Fatalf("actions = %+v, want one", a.actions)
			}
			got := a.actions[0]
			if got.Kind != tc.want.Kind || got.ID != tc.want.ID || got.Text != tc.want.Text || got.Key != tc.want.Key ||
				got.Value != tc.want.Value || got.URL != tc.want.URL || got.DY != tc.want.DY {
				t.Errorf("action = %+v, want %+v", got, tc.want)
			}
			if m.prompt() != nil {
				t.Error("prompt still open")
			}
		})
	}
}

func TestEscCancelsPrompt(t *testing.T) {
	a := newTestActor(formPage("Sign up"))
	m := started(t, a, 120, 40)
	press(t, m, k('t'))
	if m.mode() != keymap.Prompt {
		t.Fatal("t did not open a prompt")
	}
	typeText(t, m, "q") // q in a prompt is text, not quit
	press(t, m, escKey)
	if m.prompt() != nil || len(a.actions) != 0 {
		t.Errorf("esc: prompt %v, actions %v", m.prompt(), a.actions)
	}
}

func TestBusyRefusesSecondActionAndEscDropsReply(t *testing.T) {
	a := newTestActor(formPage("Sign up"))
	m := started(t, a, 120, 40)
	_, cmd := m.Update(k('c')) // do not run it yet: the action is in flight
	if m.op.busy == nil {
		t.Fatal("not busy during an action")
	}
	if !strings.Contains(plainScreen(m), "esc cancels") {
		t.Errorf("footer does not show the running action:\n%s", plainScreen(m))
	}
	_, cmd2 := m.Update(k('h'))
	if cmd2 != nil && len(runCmd(cmd2, 100*time.Millisecond)) > 0 {
		t.Error("a second action started while busy")
	}
	gen := m.doc.gen
	m.Update(escKey)
	if m.op.busy != nil || m.doc.gen == gen {
		t.Fatal("esc did not cancel")
	}
	shown := m.doc.snap
	for _, msg := range runCmd(cmd, time.Second) {
		m.Update(msg)
	}
	if m.doc.snap != shown || m.status.last != nil {
		t.Error("the cancelled action's reply was applied")
	}
}

func TestReadOnlyRefusesActions(t *testing.T) {
	m := newModel(context.Background(), Config{NoColor: true, Theme: "dark", Now: func() time.Time { return fixedNow }})
	m.conn.savedAs = "cap.json"
	m.setSnapshot(formPage("Saved"), false)
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	press(t, m, k('c'))
	if m.op.busy != nil || !strings.Contains(m.status.flash, "saved capture") {
		t.Errorf("click on a saved capture: busy %v, flash %q", m.op.busy, m.status.flash)
	}
	s := plainScreen(m)
	if !strings.Contains(s, "saved capture (offline)") || !strings.Contains(s, "actions are disabled") {
		t.Errorf("read-only state not shown:\n%s", s)
	}
}

func TestDialogAcceptAndDismiss(t *testing.T) {
	for _, accept := range []bool{true, false} {
		a := newTestActor(formPage("Sign up"))
		m := started(t, a, 120, 40)
		m.Update(eventsMsg{actor: a, events: []dom.Event{{Kind: "dialog", Dialog: &dom.DialogInfo{Type: "confirm", Message: "Delete \x1b[2Jall?"}}}})
		if m.mode() != keymap.Dialog {
			t.Fatal("dialog event did not open the dialog")
		}
		s := plainScreen(m)
		if !strings.Contains(s, "JavaScript confirm") || !strings.Contains(s, `Delete \x1b[2Jall?`) {
			t.Errorf("dialog box:\n%s", s)
		}
		key := k('y')
		if !accept {
			key = escKey
		}
		press(t, m, key)
		if _, open := find[*dialogLayer](m); open {
			t.Error("dialog still open")
		}
		if len(a.actions) == 0 || a.actions[0].Kind != "dialog" || a.actions[0].Accept != accept {
			t.Errorf("accept=%v: actions %+v", accept, a.actions)
		}
	}
}

func TestSearchAndFilter(t *testing.T) {
	m := started(t, newTestActor(formPage("Sign up")), 120, 40)
	press(t, m, k('/'))
	typeText(t, m, "shadow button")
	press(t, m, enterKey)
	if got := m.panes.tree.Selected(); got == nil || got.Name != "Shadow button" {
		t.Fatalf("search jumped to %v", got)
	}
	// by attribute value, then next/prev wrap around
	press(t, m, k('/'))
	m.prompt().input.SetValue("")
	typeText(t, m, "you@example")
	press(t, m, enterKey)
	if got := m.panes.tree.SelectedID(); got != "node_10" {
		t.Fatalf("attribute search selected %s", got)
	}
	press(t, m, k('n'))
	if got := m.panes.tree.SelectedID(); got != "node_10" {
		t.Errorf("n with one match moved to %s", got)
	}
	// filter: only interactive nodes and their ancestors
	press(t, m, escKey, k('i'))
	for _, r := range m.panes.tree.rows {
		if r.node.Tag == "head" || r.node.Tag == "label" {
			t.Errorf("filter kept %s", r.node.Tag)
		}
	}
	if m.panes.tree.index.Find("node_10") < 0 {
		t.Error("filter dropped the textbox")
	}
	press(t, m, escKey)
	if m.panes.tree.interactiveOnly {
		t.Error("esc did not clear the filter")
	}
}

func TestTreeKeys(t *testing.T) {
	m := started(t, newTestActor(formPage("Sign up")), 120, 40)
	m.panes.tree.Select("node_7") // form
	n := len(m.panes.tree.rows)
	press(t, m, spaceKey)
	if len(m.panes.tree.rows) >= n {
		t.Fatal("space did not collapse the form")
	}
	press(t, m, tea.KeyPressMsg{Code: tea.KeyRight})
	if len(m.panes.tree.rows) != n {
		t.Fatal("right did not expand the form")
	}
	m.panes.tree.Top()
	press(t, m, k('-'))
	if len(m.panes.tree.rows) != 4 { // #document, html, head, body
		t.Errorf("collapse all left %d rows", len(m.panes.tree.rows))
	}
	press(t, m, k('+'))
	if len(m.panes.tree.rows) != len(m.doc.snap.ByID) {
		t.Errorf("expand all shows %d rows of %d nodes", len(m.panes.tree.rows), len(m.doc.snap.ByID))
	}
	press(t, m, tea.KeyPressMsg{Code: tea.KeyHome})
	if m.panes.tree.cursor != 0 {
		t.Error("home did not go to the top")
	}
	press(t, m, downKey, downKey, upKey)
	if m.panes.tree.cursor != 1 {
		t.Errorf("cursor %d after down down up", m.panes.tree.cursor)
	}
}

func TestMouseClickSelects(t *testing.T) {
	m := started(t, newTestActor(formPage("Sign up")), 120, 40)
	s := computeScreen(m.w, m.h)
	m.panes.tree.Top()
	m.Update(tea.MouseClickMsg{X: 5, Y: s.tree.y + 1 + 3, Button: tea.MouseLeft})
	if m.panes.tree.cursor != 3 {
		t.Errorf("click on row 3 selected row %d", m.panes.tree.cursor)
	}
	m.Update(tea.MouseWheelMsg{X: 5, Y: s.tree.y + 2, Button: tea.MouseWheelDown})
	if m.panes.tree.cursor < 3 {
		t.Errorf("wheel moved the cursor up: %d", m.panes.tree.cursor)
	}
}

func TestQuitKeys(t *testing.T) {
	m := started(t, newTestActor(formPage("Sign up")), 120, 40)
	for _, key := range []tea.KeyPressMsg{k('q'), {Code: 'c', Mod: tea.ModCtrl}} {
		_, cmd := m.Update(key)
		if cmd == nil {
			t.Fatalf("%s: no command", key)
		}
		found := false
		for _, msg := range runCmd(cmd, 5*time.Second) {
			if _, ok := msg.(tea.QuitMsg); ok {
				found = true
			}
		}
		if !found {
			t.Errorf("%s did not quit", key)
		}
	}
}

func TestHighlightIsDebounced(t *testing.T) {
	a := newTestActor(formPage("Sign up"))
	m := started(t, a, 120, 40)
	m.hl.on = true
	var ticks []tea.Cmd
	for i := 0; i < 3; i++ {
		_, cmd := m.Update(downKey)
		ticks = append(ticks, cmd)
	}
	for _, c := range ticks {
		for _, msg := range runCmd(c, time.Second) {
			_, cmd := m.Update(msg)
			settle(t, m, cmd)
		}
	}
	if len(a.hl) != 1 || a.hl[0] != m.panes.tree.SelectedID() {
		t.Errorf("highlights %v, want only the last selection %s", a.hl, m.panes.tree.SelectedID())
	}
}

func TestConnectionStateIsShown(t *testing.T) {
	a := newTestActor(formPage("Sign up"), formPage("Sign up"))
	m := started(t, a, 120, 40)
	m.Update(eventsMsg{actor: a, events: []dom.Event{{Kind: "state", State: dom.Reconnecting}}})
	if s := plainScreen(m); !strings.Contains(s, "reconnecting") {
		t.Errorf("reconnecting not shown:\n%s", s)
	}
	m.Update(eventsMsg{actor: a, events: []dom.Event{{Kind: "state", State: dom.Disconnected}}})
	if s := plainScreen(m); !strings.Contains(s, "✗ page lost") {
		t.Errorf("lost state not shown:\n%s", s)
	}
	// back: a fresh snapshot is taken by itself
	seq := m.doc.snap
	_, cmd := m.Update(eventsMsg{actor: a, events: []dom.Event{{Kind: "state", State: dom.Connected}}})
	settle(t, m, cmd)
	if s := plainScreen(m); !strings.Contains(s, "● live") {
		t.Errorf("connected (and following) not shown:\n%s", s)
	}
	if m.doc.snap == seq {
		t.Error("no new snapshot after the connection came back")
	}
	// events from a tab we left are ignored
	other := newTestActor()
	m.Update(eventsMsg{actor: other, events: []dom.Event{{Kind: "state", State: dom.Disconnected}}})
	if m.conn.state != dom.Connected {
		t.Error("an old tab's event changed the state")
	}
}

// After a navigation nothing survives: no marks. The cursor starts over
// on the new page's first control.
func TestNavigationStartsOver(t *testing.T) {
	next := formPage("Next page")
	// Renumber every node. A new document shares no IDs with the old one.
	byID := map[string]*dom.VirtualNode{}
	for _, n := range next.ByID {
		n.ID = "node_5" + strings.TrimPrefix(n.ID, "node_")
		byID[n.ID] = n
	}
	next.ByID = byID
	next.URL = "http://127.0.0.1:8080/next.html"
	a := newTestActor(formPage("Sign up"), next)
	m := started(t, a, 120, 40)
	m.panes.tree.Select("node_3") // head
	press(t, m, k('c'))
	if len(m.doc.marks) != 0 {
		t.Errorf("%d nodes marked after a navigation", len(m.doc.marks))
	}
	if got := m.panes.tree.Selected(); got == nil || got.Attr("id") != "email" {
		t.Errorf("selection after navigation = %v, want the first control", got)
	}
	if s := plainScreen(m); !strings.Contains(s, "a new document") {
		t.Errorf("no new-document note:\n%s", s)
	}
}

func TestBackgroundPicksPalette(t *testing.T) {
	m := newModel(context.Background(), Config{Actor: newTestActor(formPage("x")), Theme: "auto"})
	m.Update(tea.BackgroundColorMsg{Color: color.White})
	if m.dark {
		t.Error("a white background kept the dark palette")
	}
	m.Update(tea.BackgroundColorMsg{Color: color.Black})
	if !m.dark {
		t.Error("a black background kept the light palette")
	}
	fixed := newModel(context.Background(), Config{Actor: newTestActor(formPage("x")), Theme: "light"})
	fixed.Update(tea.BackgroundColorMsg{Color: color.Black})
	if fixed.dark {
		t.Error("an explicit light theme was overridden")
	}
}

// A state or visibility change is marked and listed by d, with the flat
// view's changed lines. Those are what the LLM now reads differently.
func TestDiffListsStatesVisibilityAndFlatLines(t *testing.T) {
	first := formPage("Sign up")
	second := formPage("Sign up")
	second.Seq = 2
	second.Node("node_10").States = map[string]string{"focused": "true"}
	form := second.Node("node_7")
	form.Hidden, form.Visible = "display:none", false
	a := newTestActor(first, second)
	m := started(t, a, 120, 40)
	m.panes.tree.Select("node_10")
	press(t, m, k('c'))
	if m.doc.marks["node_10"] != '~' || m.doc.marks["node_7"] != '~' {
		t.Errorf("changed nodes not marked: %v", m.doc.marks)
	}
	press(t, m, k('d'))
	s := plainScreen(m)
	for _, want := range []string{`focused: unset → "true"`, "hidden (display:none)", "What the LLM reads differently", `- [7] form "Sign up"`} {
		if !strings.Contains(s, want) {
			t.Errorf("diff list lacks %q:\n%s", want, s)
		}
	}
}

// Once the next snapshot is shown, the UI lets the old tree go (tens of
// MB on a large page). The diff list still shows the old name of a
// renamed node and a removed node's tag and name. It still shows the flat
// view's lines.
func TestOldTreeLetGoDiffStillListed(t *testing.T) {
	freed := make(chan struct{}, 1)
	second := formPage("Sign up")
	second.Seq = 2
	second.Node("node_17").Name = "Shadow knob"
	form := second.Node("node_7")
	form.Parent.Children = slices.DeleteFunc(form.Parent.Children, func(n *dom.VirtualNode) bool { return n == form })
	dom.Walk(form, func(n *dom.VirtualNode) { delete(second.ByID, n.ID) })
	a := newTestActor(watchedPage(freed), second)
	m := started(t, a, 120, 40)
	m.panes.tree.Select("node_4")
	press(t, m, k('c'))
	if m.doc.snap != second {
		t.Fatal("the snapshot after the action was not shown")
	}
	for i := 0; i < 50 && len(freed) == 0; i++ {
		runtime.GC()
		time.Sleep(20 * time.Millisecond) // cleanups run on their own goroutine
	}
	if len(freed) == 0 {
		t.Error("the previous snapshot's tree is still reachable from the UI")
	}
	press(t, m, k('d'))
	s := plainScreen(m)
	for _, want := range []string{`(was "Shadow button")`, `node_7 form "Sign up"`, `- [7] form "Sign up"`, `+ [17] button "Shadow knob"`} {
		if !strings.Contains(s, want) {
			t.Errorf("diff list lacks %q:\n%s", want, s)
		}
	}
}

// Bubble Tea holds a click's batch until all its commands end (the
// spinner, the phase reports), and may still hold its reply. Neither may
// keep the tree shown before: at 50,000 elements a settle then measured
// 30 MB more live, and the memory limit let the next action grow by it.
func TestOldTreeLetGoWhileReplyHeld(t *testing.T) {
	freed := make(chan struct{}, 1)
	second := formPage("Sign up")
	second.Seq = 2
	a := newTestActor(watchedPage(freed), second)
	m := started(t, a, 120, 40)
	m.panes.tree.Select("node_4")
	_, cmd := m.Update(k('c'))
	var held []any // every command and reply, as a slow loop would hold them
	for i := 0; i < 20 && cmd != nil; i++ {
		held = append(held, cmd)
		var next []tea.Cmd
		for _, msg := range runCmd(cmd, 30*time.Second) {
			held = append(held, msg)
			_, c := m.Update(msg)
			next = append(next, c)
		}
		cmd = tea.Batch(next...)
	}
	if m.doc.snap != second {
		t.Fatal("the snapshot after the action was not shown")
	}
	for i := 0; i < 50 && len(freed) == 0; i++ {
		runtime.GC()
		time.Sleep(20 * time.Millisecond) // cleanups run on their own goroutine
	}
	if len(freed) == 0 {
		t.Error("a command or reply of the click keeps the tree shown before")
	}
	runtime.KeepAlive(held)
}

// watchedPage is formPage whose tree signals freed once it is collected.
func watchedPage(freed chan struct{}) *dom.Snapshot {
	s := formPage("Sign up")
	runtime.AddCleanup(s.Root, func(c chan struct{}) { c <- struct{}{} }, freed)
	return s
}

// A focus change is a state change: the flat pane says so in d's words,
// not "renamed". A real rename still says renamed.
func TestFlatPaneNamesStateChange(t *testing.T) {
	first := formPage("Sign up")
	second := formPage("Sign up")
	second.Seq = 2
	second.Node("node_10").States = map[string]string{"focusable": "true", "required": "true", "focused": "true"}
	second.Node("node_17").Name = "Shadow knob"
	m := started(t, newTestActor(first, second), 120, 40)
	m.panes.tree.Select("node_10")
	press(t, m, k('c'))
	m.panes.tree.Select("node_7") // the notes show on rows not selected
	m.syncFromTree()
	s := plainScreen(m)
	var email, shadow string
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, `[10] textbox "Email"`) {
			email = l
		}
		if strings.Contains(l, `[17] button "Shadow knob"`) {
			shadow = l
		}
	}
	if !strings.Contains(email, "~ focused") || strings.Contains(email, "renamed") {
		t.Errorf("the focused textbox's flat line = %q, want a ~ focused note", email)
	}
	if !strings.Contains(shadow, "~ renamed") {
		t.Errorf("the renamed button's flat line = %q, want ~ renamed", shadow)
	}
}

// At 80 columns a prompt's title and hints do not fit on one line. The
// title goes on the line above, whole, and the input and its hints have
// the footer. At 200 columns it is one line.
func TestPromptFitsAt80Columns(t *testing.T) {
	for _, w := range []int{80, 200} {
		a := newTestActor(formPage("Sign up"), formPage("Sign up"))
		m := started(t, a, w, 24)
		m.panes.tree.Select("node_10")
		press(t, m, k('t'))
		lines := strings.Split(plainScreen(m), "\n")
		last, above := lines[len(lines)-1], lines[len(lines)-2]
		hints := "text · enter types it · alt+enter types it and presses Enter"
		if !strings.Contains(last, hints) {
			t.Errorf("%d columns: the footer lacks the whole hint:\n%s\n%s", w, above, last)
		}
		title := `type into node_10 input "Email"`
		if w == 80 && !strings.Contains(above, title) {
			t.Errorf("80 columns: the line above the input lacks the title: %q", above)
		}
		if w == 200 && !strings.Contains(last, title) {
			t.Errorf("200 columns: the title is not on the input's line: %q", last)
		}
		for i, l := range lines {
			if widthOf(l) != w {
				t.Errorf("%d columns: line %d is %d wide", w, i, widthOf(l))
			}
		}
		typeText(t, m, "abc")
		if last := lastLine(plainScreen(m)); !strings.Contains(last, "› abc") {
			t.Errorf("%d columns: the typed text is not on the footer: %q", w, last)
		}
		press(t, m, enterKey)
		if len(a.actions) != 1 || a.actions[0].Text != "abc" {
			t.Errorf("%d columns: actions %+v, want a type of abc", w, a.actions)
		}
	}
}

func lastLine(s string) string {
	lines := strings.Split(s, "\n")
	return lines[len(lines)-1]
}
