package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"domscope/dom"
)

// state is a pane's cursor, scroll offset, height and row count.
func state(p pane) (cursor, offset, height, n int) {
	switch p := p.(type) {
	case *TreePane:
		return p.cursor, p.offset, p.height, len(p.rows)
	case *FlatPane:
		return p.cursor, p.offset, p.height, len(p.lines)
	}
	panic("unknown pane")
}

// Both panes move the same way through the one interface.
func TestPaneMovement(t *testing.T) {
	m := benchModelT(t, 3000)
	for _, p := range m.panes.list() {
		_, _, h, n := state(p)
		if n < 3*h {
			t.Fatalf("%T: %d rows for a height of %d: too few to scroll", p, n, h)
		}
		steps := []struct {
			name         string
			do           func()
			cursor, offs int // offs -1: not checked
		}{
			{"top", p.Top, 0, 0},
			{"down", func() { p.Move(1) }, 1, 0},
			{"page down", func() { p.Page(1) }, h, 1},
			{"page up", func() { p.Page(-1) }, 1, 1},
			{"up past the top", func() { p.Move(-5) }, 0, 0},
			{"bottom", p.Bottom, n - 1, n - h},
			{"down past the end", func() { p.Move(3) }, n - 1, n - h},
			{"top again", p.Top, 0, 0},
			{"wheel drags the cursor", func() { p.Scroll(5) }, 5, 5},
			{"wheel back", func() { p.Scroll(-5) }, 5, 0},
			{"click row 3", func() {
				row, ok := p.RowAt(3)
				if !ok {
					t.Fatalf("%T: no row at y 3", p)
				}
				p.SetCursor(row)
			}, 3, 0},
		}
		for _, st := range steps {
			st.do()
			c, o, _, _ := state(p)
			if c != st.cursor || (st.offs >= 0 && o != st.offs) {
				t.Errorf("%T %s: cursor %d offset %d, want %d %d", p, st.name, c, o, st.cursor, st.offs)
			}
		}
		if _, ok := p.RowAt(h); ok {
			t.Errorf("%T: a row below the pane", p)
		}
		// Select by id and read it back, far down so the view scrolls.
		p.Bottom()
		id := p.SelectedID()
		p.Top()
		if id == "" || !p.Select(id) || p.SelectedID() != id {
			t.Errorf("%T: select %q → %q", p, id, p.SelectedID())
		}
		if c, o, _, _ := state(p); c < o || c >= o+h {
			t.Errorf("%T: the selected row %d is off screen (offset %d)", p, c, o)
		}
	}
}

// The two panes stay on the same node whichever one moves.
func TestPanesFollowEachOther(t *testing.T) {
	m := started(t, newTestActor(formPage("Sign up")), 120, 40)
	press(t, m, tabKey, downKey)
	if id := m.panes.flat.SelectedID(); id == "" || m.panes.tree.SelectedID() != id {
		t.Errorf("flat moved to %q, tree is on %q", id, m.panes.tree.SelectedID())
	}
	press(t, m, tabKey, upKey)
	if l := m.panes.flat.Counterpart(m.panes.tree.SelectedID()); l != m.panes.flat.cursor {
		t.Errorf("tree moved, flat cursor %d, counterpart %d", m.panes.flat.cursor, l)
	}
}

// longLinePage is the form page with a button whose name is far wider
// than the flat pane.
func longLinePage() *dom.Snapshot {
	s := formPage("Sign up")
	body := s.Node("node_5")
	b := &dom.VirtualNode{ID: "node_90", Tag: "button", NodeType: dom.ElementNode, Role: "button", Tier: dom.Semantic, Why: "ax:button",
		Name: strings.Repeat("very long label ", 12) + "TAILMARK", Parent: body, Visible: true, InViewport: true, Attrs: map[string]string{}}
	body.Children = append(body.Children, b)
	s.ByID[b.ID] = b
	return s
}

// Long flat lines scroll sideways. shift+→ brings a long line's end into
// view; so does → where there is nothing to expand. ← goes back.
func TestFlatPaneScrollsSideways(t *testing.T) {
	for _, keys := range []struct {
		name        string
		right, left tea.KeyPressMsg
	}{
		{"shift arrows", tea.KeyPressMsg{Code: tea.KeyRight, Mod: tea.ModShift}, tea.KeyPressMsg{Code: tea.KeyLeft, Mod: tea.ModShift}},
		{"arrows in the flat pane", tea.KeyPressMsg{Code: tea.KeyRight}, tea.KeyPressMsg{Code: tea.KeyLeft}},
	} {
		t.Run(keys.name, func(t *testing.T) {
			m := started(t, newTestActor(longLinePage()), 120, 40)
			press(t, m, tabKey) // the flat pane, on the textbox (nothing to expand)
			_, flat := columns(plainScreen(m), 66)
			if !strings.Contains(flat, `button "very long label`) || strings.Contains(flat, "TAILMARK") {
				t.Fatalf("the long line should start cut:\n%s", flat)
			}
			for i := 0; i < 40 && !strings.Contains(flat, "TAILMARK"); i++ {
				press(t, m, keys.right)
				_, flat = columns(plainScreen(m), 66)
			}
			if !strings.Contains(flat, `TAILMARK"`) {
				t.Fatalf("the end of the long line never came into view:\n%s", flat)
			}
			if m.panes.flat.Column() == 0 || !strings.Contains(flat, "col ") {
				t.Errorf("no column shown while scrolled:\n%s", flat)
			}
			if m.panes.focus != flatFocus || len(m.panes.tree.rows) == 0 {
				t.Errorf("scrolling moved the focus or the tree")
			}
			for i := 0; i < 40 && m.panes.flat.Column() > 0; i++ {
				press(t, m, keys.left)
			}
			_, flat = columns(plainScreen(m), 66)
			if m.panes.flat.Column() != 0 || !strings.Contains(flat, `[7] form "Sign up"`) {
				t.Errorf("back at column 0 the lines start again:\n%s", flat)
			}
		})
	}
}
