package themes

import (
	"strings"
	"testing"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

func TestInkMatchesLipgloss(t *testing.T) {
	st := lipgloss.NewStyle().Foreground(lipgloss.Color("#5FD7AF")).Bold(true)
	k := NewInk(st)
	if got, want := k.Render("hello"), st.Render("hello"); got != want {
		t.Errorf("Ink %q, lipgloss %q", got, want)
	}
	if k.Render("") != "" {
		t.Error("empty text must stay empty")
	}
}

func TestNoColorHasNoColour(t *testing.T) {
	s := New(Dark(), true)
	for name, ink := range map[string]Ink{"semantic": s.Semantic, "non-semantic": s.NonSemantic, "structural": s.Structural} {
		if out := ink.Render("x"); out != "x" {
			t.Errorf("tier %s without colour rendered %q", name, out)
		}
	}
	sel := s.Selected.Render("row")
	if ansi.Strip(sel) != "row" || !strings.Contains(sel, "\x1b[7m") {
		t.Errorf("selection without colour must use reverse video: %q", sel)
	}
	c := New(Dark(), false)
	tiers := map[string]bool{}
	for _, ink := range []Ink{c.Semantic, c.NonSemantic, c.Structural, c.Hidden} {
		tiers[ink.Render("x")] = true
	}
	if len(tiers) != 4 {
		t.Error("tiers share a style")
	}
	if l := New(Light(), false); l.Semantic.Render("x") == c.Semantic.Render("x") {
		t.Error("light and dark palettes are the same")
	}
}
