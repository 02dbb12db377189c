package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"domscope/keymap"
)

// The help screen shows every row of the key table, all its keys and its
// line, at every size. At 200×60 it fits one screen. At 80×24 it scrolls.
func TestHelpShowsEveryBinding(t *testing.T) {
	for _, sz := range [][2]int{{200, 60}, {120, 40}, {80, 24}} {
		m := started(t, newTestActor(formPage("Sign up")), sz[0], sz[1])
		press(t, m, k('?'))
		seen := plainScreen(m)
		for range len(m.topList().items) {
			press(t, m, downKey)
			seen += plainScreen(m)
		}
		for _, r := range m.km.Rows {
			label := keymap.Label(r.Key.Keys())
			if !strings.Contains(seen, label+" ") || !strings.Contains(seen, r.Doc) {
				t.Errorf("%dx%d: help does not show %q %q", sz[0], sz[1], label, r.Doc)
			}
		}
		for _, s := range []string{"Tiers (colour and word)", "non-sem.", "hidden", "hoist"} {
			if !strings.Contains(seen, s) {
				t.Errorf("%dx%d: legend %q missing", sz[0], sz[1], s)
			}
		}
	}
}

// The help scrolls as a page, with no cursor row. down moves the window,
// end shows the last line, home the first.
func TestHelpScrolls(t *testing.T) {
	m := started(t, newTestActor(formPage("Sign up")), 80, 24)
	press(t, m, k('?'))
	top := plainScreen(m)
	if !strings.Contains(top, "│  Move") || strings.Contains(top, "▶ ↑") {
		t.Fatalf("help opens at its first line, without a cursor:\n%s", top)
	}
	press(t, m, downKey)
	if s := plainScreen(m); strings.Contains(s, "│  Move") || !strings.Contains(s, "↑/k/ctrl+p") {
		t.Errorf("down scrolls one line:\n%s", s)
	}
	press(t, m, tea.KeyPressMsg{Code: tea.KeyEnd})
	if s := plainScreen(m); !strings.Contains(s, "left out of the flat view") {
		t.Errorf("end shows the last line:\n%s", s)
	}
	press(t, m, tea.KeyPressMsg{Code: tea.KeyHome})
	if s := plainScreen(m); s != top {
		t.Errorf("home shows the first line again:\n%s", s)
	}
	press(t, m, k('q'))
	if len(m.layers) != 0 {
		t.Error("q closes the help")
	}
}
