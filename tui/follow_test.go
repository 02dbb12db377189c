package tui

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"domscope/dom"
)

// countingActor counts the snapshots the UI asks for.
type countingActor struct {
	*testActor
	mu    sync.Mutex
	calls int
}

func (a *countingActor) Snapshot(ctx context.Context, force bool) (*dom.Snapshot, error) {
	a.mu.Lock()
	a.calls++
	a.mu.Unlock()
	return a.testActor.Snapshot(ctx, force)
}

func (a *countingActor) n() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.calls
}

func startedOn(t *testing.T, a dom.Actor, w, h int) *Model {
	t.Helper()
	m := newModel(context.Background(), Config{Actor: a, NoColor: true, Theme: "dark", NoHighlight: true, Now: func() time.Time { return fixedNow }})
	m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	settle(t, m, m.refresh(false, "first snapshot"))
	if m.doc.snap == nil {
		t.Fatal("no snapshot after start")
	}
	return m
}

func hasFollow(msgs []tea.Msg) bool {
	for _, m := range msgs {
		if _, ok := m.(followMsg); ok {
			return true
		}
	}
	return false
}

// pageChangedBy delivers the service's "page-changed" and runs what follows.
func pageChangedBy(t *testing.T, m *Model, a dom.Actor) {
	t.Helper()
	_, cmd := m.Update(eventsMsg{actor: a, events: []dom.Event{{Kind: "page-changed"}}, closed: true})
	settle(t, m, cmd)
}

// withBanner is formPage after the page put a status banner above the
// form, so rows below shift by one. It also renamed the email label's
// field.
func withBanner() *dom.Snapshot {
	s := formPage("Sign up")
	body := s.Node("node_5")
	banner := &dom.VirtualNode{ID: "node_99", Tag: "div", NodeType: dom.ElementNode, Name: "Saved by someone else", Tier: dom.Semantic, Role: "status", Parent: body, Visible: true}
	body.Children = append([]*dom.VirtualNode{banner}, body.Children...)
	s.ByID[banner.ID] = banner
	s.Node("node_10").Name = "E-mail"
	s.Seq = 2
	return s
}

// The page changes by itself. The UI takes a new snapshot with no action
// and marks what changed. The cursor stays on its node though its row
// moved.
func TestFollowKeepsCursorOnItsNode(t *testing.T) {
	a := &countingActor{testActor: newTestActor(formPage("Sign up"), withBanner())}
	m := startedOn(t, a, 120, 40)
	m.panes.tree.Select("node_10")
	row := m.panes.tree.cursor
	if s := plainScreen(m); !strings.Contains(s, "● live") {
		t.Fatalf("header does not say live:\n%s", s)
	}

	pageChangedBy(t, m, a)
	if m.doc.snap.Seq != 2 {
		t.Fatalf("shown snapshot #%d after page-changed, want #2", m.doc.snap.Seq)
	}
	if len(a.actions) != 0 {
		t.Errorf("following acted on the page: %+v", a.actions)
	}
	if got := m.panes.tree.SelectedID(); got != "node_10" {
		t.Fatalf("selection moved to %s, want node_10", got)
	}
	if m.panes.tree.cursor != row+1 {
		t.Errorf("cursor row %d, want %d (a row was added above)", m.panes.tree.cursor, row+1)
	}
	if m.panes.flat.SelectedID() != "node_10" {
		t.Errorf("flat pane on %q, want node_10", m.panes.flat.SelectedID())
	}
	s := plainScreen(m)
	for _, want := range []string{"Saved by someone else", "+ new", "+1 added", "~1 changed", "the page changed by itself", "● live"} {
		if !strings.Contains(s, want) {
			t.Errorf("screen lacks %q:\n%s", want, s)
		}
	}
}

// The node under the cursor is removed by the page. The cursor goes to
// its nearest ancestor still there, and the footer says so.
func TestFollowSaysWhenTheNodeIsGone(t *testing.T) {
	gone := formPage("Sign up")
	grp := gone.Node("node_8") // the form group holding the label and the textbox
	in := gone.Node("node_10")
	grp.Children = grp.Children[:1]
	delete(gone.ByID, in.ID)
	gone.Seq = 2
	a := newTestActor(formPage("Sign up"), gone)
	m := startedOn(t, a, 120, 40)
	m.panes.tree.Select("node_10")
	pageChangedBy(t, m, a)
	if got := m.panes.tree.SelectedID(); got != "node_8" {
		t.Fatalf("selection %s after its node went, want its parent node_8", got)
	}
	if s := plainScreen(m); !strings.Contains(s, "node_10 input") || !strings.Contains(s, "is gone from the page: the cursor is on node_8") {
		t.Errorf("the footer does not say the node went:\n%s", s)
	}
}

// F pauses: a change is not shown and the header says paused. F again
// resumes and shows the change made meanwhile.
func TestFollowPauseAndResume(t *testing.T) {
	a := &countingActor{testActor: newTestActor(formPage("Sign up"), withBanner())}
	m := startedOn(t, a, 120, 40)
	press(t, m, k('F'))
	if !m.fol.paused {
		t.Fatal("F did not pause")
	}
	if s := plainScreen(m); !strings.Contains(s, "● paused") || strings.Contains(s, "● live") {
		t.Errorf("header does not say paused:\n%s", s)
	}
	calls := a.n()
	pageChangedBy(t, m, a)
	if a.n() != calls || m.doc.snap.Seq != 1 {
		t.Fatalf("paused, yet a snapshot was taken (%d calls, #%d shown)", a.n()-calls, m.doc.snap.Seq)
	}
	press(t, m, k('F'))
	if m.doc.snap.Seq != 2 {
		t.Fatalf("resuming after a change did not show it (snapshot #%d)", m.doc.snap.Seq)
	}
	if s := plainScreen(m); !strings.Contains(s, "● live") || !strings.Contains(s, "Saved by someone else") {
		t.Errorf("after resuming:\n%s", s)
	}
}

// Changes reported while a follow snapshot is in flight cost one more
// snapshot, not one each.
func TestFollowCoalesces(t *testing.T) {
	a := &countingActor{testActor: newTestActor(formPage("Sign up"), withBanner(), withBanner())}
	m := startedOn(t, a, 120, 40)
	calls := a.n()
	ev := eventsMsg{actor: a, events: []dom.Event{{Kind: "page-changed"}}, closed: true}
	_, first := m.Update(ev)
	for range 5 {
		_, cmd := m.Update(ev)
		if hasFollow(runCmd(cmd, time.Second)) {
			t.Fatal("a second follow snapshot started while one was in flight")
		}
	}
	settle(t, m, first)
	if got := a.n() - calls; got != 2 {
		t.Errorf("%d snapshots for six reports during one snapshot, want 2", got)
	}
	if m.doc.snap.Seq != 2 {
		t.Errorf("shown #%d, want #2", m.doc.snap.Seq)
	}
	// The second snapshot (a copy) showed nothing new. The marks of the
	// change stay.
	if len(m.doc.marks) == 0 {
		t.Error("an update with nothing new wiped the change marks")
	}
}

// A page change while the user types in a prompt updates the panes below
// it. The prompt and its text stay, and typing goes on.
func TestFollowLeavesThePromptAlone(t *testing.T) {
	a := newTestActor(formPage("Sign up"), withBanner())
	m := startedOn(t, a, 120, 40)
	m.panes.tree.Select("node_10")
	press(t, m, k('t'))
	typeText(t, m, "ab")
	pageChangedBy(t, m, a)
	if m.doc.snap.Seq != 2 {
		t.Fatalf("the panes were not updated under the prompt (#%d)", m.doc.snap.Seq)
	}
	p := m.prompt()
	if p == nil {
		t.Fatal("the update closed the prompt")
	}
	typeText(t, m, "c")
	if v := p.input.Value(); v != "abc" {
		t.Errorf("prompt holds %q, want abc", v)
	}
	press(t, m, enterKey)
	if len(a.actions) != 1 || a.actions[0].Text != "abc" || a.actions[0].ID != "node_10" {
		t.Errorf("actions %+v, want typing abc into node_10", a.actions)
	}
}

// While an action runs, a page change waits. The action's own snapshot is
// shown, and the check after it (nothing new) keeps its marks.
func TestFollowWaitsForAnAction(t *testing.T) {
	a := &countingActor{testActor: newTestActor(formPage("Sign up"), withBanner(), withBanner())}
	m := startedOn(t, a, 120, 40)
	m.panes.tree.Select("node_10")
	_, act := m.Update(k('c'))
	if m.op.busy == nil {
		t.Fatal("the click is not under way")
	}
	_, cmd := m.Update(eventsMsg{actor: a, events: []dom.Event{{Kind: "page-changed"}}, closed: true})
	if hasFollow(runCmd(cmd, time.Second)) {
		t.Fatal("a follow snapshot started during an action")
	}
	settle(t, m, act)
	if m.status.lastDesc != "click on node_10" || m.doc.snap.Seq != 2 {
		t.Fatalf("the action's snapshot is not shown (%q, #%d)", m.status.lastDesc, m.doc.snap.Seq)
	}
	if m.doc.marks["node_99"] == 0 {
		t.Errorf("the action's marks were wiped: %v", m.doc.marks)
	}
}

// A page that never goes quiet is reported busy: the header says so and
// the panes follow. Once the page is quiet again the header says live.
func TestFollowSaysBusy(t *testing.T) {
	a := &countingActor{testActor: newTestActor(formPage("Sign up"), withBanner(), withBanner())}
	m := startedOn(t, a, 120, 40)
	calls := a.n()
	_, cmd := m.Update(eventsMsg{actor: a, events: []dom.Event{{Kind: "page-changed", Busy: true}}, closed: true})
	settle(t, m, cmd)
	if a.n() != calls+1 || m.doc.snap.Seq != 2 {
		t.Fatalf("a busy report took %d snapshots (shown #%d), want 1 (#2)", a.n()-calls, m.doc.snap.Seq)
	}
	if s := plainScreen(m); !strings.Contains(s, "● live · busy") {
		t.Errorf("the header does not say the page keeps changing:\n%s", s)
	}
	pageChangedBy(t, m, a)
	s := plainScreen(m)
	if strings.Contains(s, "busy") || !strings.Contains(s, "● live") {
		t.Errorf("quiet again, the header still says busy:\n%s", s)
	}
	press(t, m, k('F'))
	if s := plainScreen(m); !strings.Contains(s, "● paused") || strings.Contains(s, "busy") {
		t.Errorf("paused:\n%s", s)
	}
}
