package themes

import (
	"strings"
	"testing"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"domscope/dom"
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
	for _, tier := range []dom.Tier{dom.Semantic, dom.NonSemantic, dom.Structural} {
		if out := s.Tier(tier, false).Render("x"); out != "x" {
			t.Errorf("tier %v without colour rendered %q", tier, out)
		}
	}
	sel := s.Selected.Render("row")
	if ansi.Strip(sel) != "row" || !strings.Contains(sel, "\x1b[7m") {
		t.Errorf("selection without colour must use reverse video: %q", sel)
	}
	c := New(Dark(), false)
	if c.Tier(dom.Semantic, false).Render("x") == c.Tier(dom.NonSemantic, false).Render("x") {
		t.Error("tiers share a colour")
	}
	if l := New(Light(), false); l.Semantic.Render("x") == c.Semantic.Render("x") {
		t.Error("light and dark palettes are the same")
	}
}
