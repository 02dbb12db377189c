package tui

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"domscope/dom"
	"domscope/keymap"
)

// Layers stack: the help opens over the rules. esc closes the top one only.
func TestLayerStack(t *testing.T) {
	m := started(t, newTestActor(formPage("Sign up")), 120, 40)
	press(t, m, k('x'))
	if _, ok := topAs[*rulesLayer](m); !ok || len(m.layers) != 1 {
		t.Fatalf("x: layers %T", m.layers)
	}
	press(t, m, k('?'))
	if _, ok := topAs[*helpLayer](m); !ok || len(m.layers) != 2 {
		t.Fatalf("? over the rules: layers %T", m.layers)
	}
	if m.mode() != keymap.List {
		t.Errorf("mode %v under the help", m.mode())
	}
	s := plainScreen(m)
	if !strings.Contains(s, "Help · every key") {
		t.Errorf("help not drawn over the rules:\n%s", s)
	}
	press(t, m, k('?')) // the help does not open over itself
	if len(m.layers) != 2 {
		t.Errorf("? in the help: %d layers", len(m.layers))
	}
	press(t, m, escKey)
	if _, ok := topAs[*rulesLayer](m); !ok || len(m.layers) != 1 {
		t.Fatalf("esc closed more than the help: layers %T", m.layers)
	}
	if s := plainScreen(m); !strings.Contains(s, "Rules · toggle") || strings.Contains(s, "Help · every key") {
		t.Errorf("after esc the rules show again:\n%s", s)
	}
	// the rules still work after the help went
	before := len(m.topList().items)
	press(t, m, downKey)
	if m.topList().cursor == 0 || len(m.topList().items) != before {
		t.Errorf("rules list does not move after the help closed: cursor %d", m.topList().cursor)
	}
	press(t, m, escKey)
	if len(m.layers) != 0 || m.mode() != keymap.Normal {
		t.Fatalf("second esc: %d layers, mode %v", len(m.layers), m.mode())
	}
	if s := plainScreen(m); strings.Contains(s, "Rules · toggle") {
		t.Errorf("rules still drawn:\n%s", s)
	}
}

// A dialog the page opens while the user types goes under the prompt. The
// prompt keeps the keyboard; the dialog has it once the prompt is gone.
func TestDialogGoesUnderPrompt(t *testing.T) {
	a := newTestActor(formPage("Sign up"))
	m := started(t, a, 120, 40)
	press(t, m, k('x'), k('t')) // t is a list key here: nothing opens
	if len(m.layers) != 1 {
		t.Fatalf("layers %T", m.layers)
	}
	press(t, m, escKey, k('t'))
	m.Update(eventsMsg{actor: a, events: []dom.Event{{Kind: "dialog", Dialog: &dom.DialogInfo{Type: "alert", Message: "Hi"}}}})
	if _, ok := topAs[*promptLayer](m); !ok || len(m.layers) != 2 {
		t.Fatalf("the dialog took the prompt's place: layers %T", m.layers)
	}
	typeText(t, m, "y") // text for the prompt, not an answer
	if len(a.actions) != 0 || m.prompt().input.Value() != "y" {
		t.Fatalf("y went to the dialog: actions %v, prompt %q", a.actions, m.prompt().input.Value())
	}
	press(t, m, escKey)
	if _, ok := topAs[*dialogLayer](m); !ok {
		t.Fatalf("after the prompt the dialog is not on top: %T", m.layers)
	}
	press(t, m, k('y'))
	if len(a.actions) != 1 || a.actions[0].Kind != "dialog" || !a.actions[0].Accept {
		t.Errorf("y did not accept the dialog: %v", a.actions)
	}
	if len(m.layers) != 0 {
		t.Errorf("dialog still open: %T", m.layers)
	}
}

// slowTab is a tab whose browser does not answer Highlight until released.
type slowTab struct {
	*testActor
	release chan struct{}
	mu      sync.Mutex
	calls   []string
	closed  bool
}

func (a *slowTab) Highlight(ctx context.Context, id string) error {
	a.mu.Lock()
	a.calls = append(a.calls, "highlight "+id)
	a.mu.Unlock()
	select {
	case <-a.release:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (a *slowTab) Close() error {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.closed = true
	return nil
}

func (a *slowTab) seen() ([]string, bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]string(nil), a.calls...), a.closed
}

// Switching tabs asks the old tab to hide its highlight and closes it in
// a command. Update itself never calls the browser.
func TestSwitchTabDoesNotCallTheBrowser(t *testing.T) {
	old := &slowTab{testActor: newTestActor(formPage("Sign up")), release: make(chan struct{})}
	m := newModel(context.Background(), Config{Actor: old, NoColor: true, Theme: "dark", NoHighlight: true, Now: func() time.Time { return fixedNow }})
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	settle(t, m, m.refresh(false, "first snapshot"))
	m.conn.own = true      // made by the UI (T), so the UI closes it
	m.hl.shown = "node_10" // the browser shows a highlight on the old tab

	next := newTestActor(formPage("Other tab"))
	_, cmd := m.Update(attachedMsg{gen: m.doc.gen, actor: next, target: dom.TargetInfo{ID: "T2", Title: "Other tab"}})
	if calls, closed := old.seen(); len(calls) != 0 || closed {
		t.Fatalf("Update called the old tab itself: %v, closed %v", calls, closed)
	}
	if m.conn.actor != next {
		t.Fatal("the UI did not move to the new tab")
	}
	close(old.release)
	settle(t, m, cmd)
	calls, closed := old.seen()
	if len(calls) != 1 || calls[0] != "highlight " || !closed {
		t.Errorf("the command did not hide the old highlight and close the tab: %v, closed %v", calls, closed)
	}
	if m.doc.snap == nil || m.doc.snap.Title != "Other tab" {
		t.Errorf("the new tab's snapshot is not shown")
	}
}

// topAs is the top layer when it is a T (the tests ask).
func topAs[T layer](m *Model) (T, bool) {
	t, ok := m.top().(T)
	return t, ok
}
