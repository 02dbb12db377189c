package tui

import (
	"strings"
	"testing"

	"domscope/dom"
)

// j and k move like ↓ and ↑. G goes to the last row.
func TestVimMovement(t *testing.T) {
	m := started(t, newTestActor(formPage("Sign up")), 120, 40)
	start := m.panes.tree.cursor
	press(t, m, k('j'), k('j'))
	if got := m.panes.tree.cursor; got != start+2 {
		t.Fatalf("after j j the cursor is on row %d, want %d", got, start+2)
	}
	press(t, m, k('k'))
	if got := m.panes.tree.cursor; got != start+1 {
		t.Fatalf("after k the cursor is on row %d, want %d", got, start+1)
	}
	press(t, m, k('G'))
	if got := m.panes.tree.cursor; got != len(m.panes.tree.rows)-1 {
		t.Fatalf("after G the cursor is on row %d, want the last, %d", got, len(m.panes.tree.rows)-1)
	}
	if m.prompt() != nil {
		t.Fatal("k opened a prompt")
	}
}

// The search prompt opens empty, and the tree follows the first match as
// the query is typed. esc puts back the selection and the query before.
func TestIncrementalSearch(t *testing.T) {
	m := started(t, newTestActor(formPage("Sign up")), 120, 40)
	press(t, m, k('/'))
	typeText(t, m, "Shadow")
	press(t, m, enterKey)
	if m.search.query != "Shadow" {
		t.Fatalf("query %q", m.search.query)
	}
	m.panes.tree.Select("node_10")
	press(t, m, k('/'))
	if v := m.prompt().input.Value(); v != "" {
		t.Fatalf("the search prompt opened with %q, want it empty", v)
	}
	typeText(t, m, "sub")
	if got := m.panes.tree.Selected(); got == nil || got.Name != "Submit" {
		t.Fatalf("while typing “sub” the selection is %v, want the Submit div", got)
	}
	typeText(t, m, "mit(")
	if got := m.panes.tree.Selected(); got == nil || got.Attr("onclick") != "submit()" {
		t.Fatalf("while typing “submit(” the selection is %v, want the onclick div", got)
	}
	press(t, m, escKey)
	if got := m.panes.tree.SelectedID(); got != "node_10" {
		t.Errorf("esc left the selection on %s, want node_10 back", got)
	}
	if m.search.query != "Shadow" {
		t.Errorf("esc left the query %q, want the previous one back", m.search.query)
	}
	// enter keeps what was found
	press(t, m, k('/'))
	typeText(t, m, "Shadow button")
	press(t, m, enterKey)
	if got := m.panes.tree.Selected(); got == nil || got.Name != "Shadow button" {
		t.Errorf("after enter the selection is %v", got)
	}
}

// A key that means nothing says so, and names the help.
func TestUnboundKeyHint(t *testing.T) {
	m := started(t, newTestActor(formPage("Sign up")), 120, 40)
	press(t, m, k('Q'))
	if s := plainScreen(m); !strings.Contains(s, "Q: no such key — ? for help") {
		t.Errorf("no hint for an unbound key:\n%s", s)
	}
	press(t, m, k('j'))
	if s := plainScreen(m); strings.Contains(s, "no such key") {
		t.Errorf("the hint stayed after a bound key")
	}
}

// Z gives the focused pane the whole body. tab then shows the other one
// maximised. Z again brings both back.
func TestZoomPane(t *testing.T) {
	m := started(t, newTestActor(formPage("Sign up")), 120, 40)
	press(t, m, k('Z'))
	s := plainScreen(m)
	if !strings.Contains(s, "VirtualNode tree") || strings.Contains(s, "Flattened for the LLM") {
		t.Fatalf("z did not maximise the tree:\n%s", s)
	}
	if m.panes.tree.width != 118 {
		t.Errorf("maximised tree is %d wide, want 118", m.panes.tree.width)
	}
	press(t, m, tabKey)
	s = plainScreen(m)
	if strings.Contains(s, "VirtualNode tree") || !strings.Contains(s, "Flattened for the LLM") {
		t.Fatalf("tab did not show the flat pane maximised:\n%s", s)
	}
	press(t, m, k('Z'))
	s = plainScreen(m)
	if !strings.Contains(s, "VirtualNode tree") || !strings.Contains(s, "Flattened for the LLM") {
		t.Fatalf("z again did not bring both panes back:\n%s", s)
	}
	lines := strings.Split(m.render(), "\n")
	if len(lines) != 40 {
		t.Errorf("%d lines", len(lines))
	}
}

// L lists the last messages in full, even those the footer had to cut.
func TestMessageLog(t *testing.T) {
	m := started(t, newTestActor(formPage("Sign up")), 80, 24)
	long := "export failed: open /a/very/long/path/that/does/not/exist/anywhere/on/this/machine/domscope-capture.json: no such file or directory"
	m.setFlash(long, true)
	if s := plainScreen(m); !strings.Contains(s, "(L: all)") {
		t.Fatalf("the footer does not say the message is cut:\n%s", s)
	}
	press(t, m, k('L'))
	s := plainScreen(m)
	flat := strings.Join(strings.Fields(strings.NewReplacer("│", " ").Replace(s)), " ")
	for _, part := range []string{"Messages", "export failed:", "no such file or", "directory", "domscope-capture.json"} {
		if !strings.Contains(flat, part) {
			t.Errorf("message log lacks %q:\n%s", part, s)
		}
	}
	press(t, m, escKey)
	if _, ok := topAs[*messagesLayer](m); ok {
		t.Error("esc did not close the log")
	}
}

// The tab picker opens with the cursor on the tab shown now.
func TestTabPickerStartsOnCurrentTab(t *testing.T) {
	m := started(t, newTestActor(formPage("Sign up")), 120, 40)
	ts := []dom.TargetInfo{{ID: "OTHER0", Type: "page", Title: "about:blank", URL: "about:blank"},
		{ID: "OTHER1", Type: "page", Title: "Docs", URL: "http://x/docs"},
		{ID: m.doc.snap.TargetID, Type: "page", Title: "Sign up", URL: m.doc.snap.URL}}
	m.Update(targetsMsg{targets: ts})
	l, ok := topAs[*tabsLayer](m)
	if !ok {
		t.Fatal("no tab picker")
	}
	if l.key() != m.doc.snap.TargetID {
		t.Errorf("the picker starts on %s, want the current tab %s", l.key(), m.doc.snap.TargetID)
	}
}
