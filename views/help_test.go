package views

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"domscope/keymap"
	"domscope/themes"
)

func TestHintsFitAndEllipsis(t *testing.T) {
	st := themes.New(themes.Dark(), true)
	bs := keymap.Default().Hints(keymap.Normal)
	wide := ansi.Strip(Hints(st, bs, 200))
	if Width(wide) != 200 || !strings.HasPrefix(wide, "c click  t type  K key  / search") || !strings.Contains(wide, "q quit") {
		t.Errorf("wide hints %q", wide)
	}
	narrow := ansi.Strip(Hints(st, bs, 40))
	if Width(narrow) != 40 || !strings.Contains(narrow, "…") || strings.Contains(narrow, "q quit") {
		t.Errorf("narrow hints %q", narrow)
	}
}

// The kept hint line is always what Hints would render now.
func TestHintLineFollowsItsInput(t *testing.T) {
	km := keymap.Default()
	plain, dark := themes.New(themes.Dark(), true), themes.New(themes.Dark(), false)
	var h HintLine
	steps := []struct {
		st   themes.Styles
		mode keymap.Mode
		w    int
	}{
		{plain, keymap.Normal, 80}, {plain, keymap.Normal, 80}, {plain, keymap.Normal, 120},
		{plain, keymap.List, 120}, {dark, keymap.List, 120}, {dark, keymap.Dialog, 120},
		{plain, keymap.Dialog, 120}, {plain, keymap.Normal, 80},
	}
	for i, s := range steps {
		bs := km.Hints(s.mode)
		if got, want := h.Render(s.st, bs, s.w), Hints(s.st, bs, s.w); got != want {
			t.Errorf("step %d: %q, want %q", i, got, want)
		}
	}
}

// Columns sit side by side when they fit and stack when they do not. No
// line is wider than asked.
func TestHelpColumns(t *testing.T) {
	st := themes.New(themes.Dark(), false)
	gs := keymap.Default().Groups()
	for _, w := range []int{72, 116, 190} {
		for i, l := range Help(st, gs, w) {
			if Width(l) > w {
				t.Errorf("w=%d: line %d is %d wide: %q", w, i, Width(l), ansi.Strip(l))
			}
		}
	}
	wide := Help(st, gs, 190)
	first := ansi.Strip(wide[0])
	for _, g := range gs {
		if !strings.Contains(first, g.Title) {
			t.Errorf("at 190 cells every section should head the first row: %q", first)
		}
	}
	narrow := Help(st, gs, 72)
	if ansi.Strip(narrow[0]) != "Move" {
		t.Errorf("at 72 cells one column: first line %q", ansi.Strip(narrow[0]))
	}
}
