package themes

import (
	"image/color"

	"charm.land/lipgloss/v2"

	"domscope/dom"
)

// Styles are built once from a palette; views only use these.
type Styles struct {
	NoColor bool

	Semantic, NonSemantic, Structural, Hidden lipgloss.Style

	Title, Accent, Dim, Bold, Error, OK, Warn lipgloss.Style
	BorderStyle                               lipgloss.Style
	Selected                                  lipgloss.Style // cursor row in the focused pane
	SelectedBlur                              lipgloss.Style // cursor row in the other pane
	Match                                     lipgloss.Style
	Added, Renamed, Removed                   lipgloss.Style
	Key, KeyDesc                              lipgloss.Style
	Badge                                     lipgloss.Style
}

// New builds the styles for a palette. noColor gives plain output that
// still marks the selection (reverse video) and emphasis (bold), for
// NO_COLOR and for golden files.
func New(p Palette, noColor bool) Styles {
	fg := func(c color.Color) lipgloss.Style {
		if noColor {
			return lipgloss.NewStyle()
		}
		return lipgloss.NewStyle().Foreground(c)
	}
	s := Styles{NoColor: noColor}
	s.Semantic = fg(p.Semantic)
	s.NonSemantic = fg(p.NonSemantic)
	s.Structural = fg(p.Structural)
	s.Hidden = fg(p.Hidden).Faint(true)
	s.Title = fg(p.Accent).Bold(true)
	s.Accent = fg(p.Accent)
	s.Dim = fg(p.Dim)
	s.Bold = lipgloss.NewStyle().Bold(true)
	s.Error = fg(p.Error).Bold(true)
	s.OK = fg(p.OK)
	s.Warn = fg(p.Warn)
	s.BorderStyle = fg(p.Border)
	s.Added = fg(p.Added).Bold(true)
	s.Renamed = fg(p.Renamed).Bold(true)
	s.Removed = fg(p.Error)
	s.Key = fg(p.Accent).Bold(true)
	s.KeyDesc = fg(p.Dim)
	s.Badge = fg(p.Accent)
	if noColor {
		s.Selected = lipgloss.NewStyle().Reverse(true)
		s.SelectedBlur = lipgloss.NewStyle().Underline(true)
		s.Match = lipgloss.NewStyle().Underline(true)
	} else {
		s.Selected = lipgloss.NewStyle().Background(p.SelectBG).Bold(true)
		s.SelectedBlur = lipgloss.NewStyle().Background(p.SelectBG)
		s.Match = lipgloss.NewStyle().Background(p.MatchBG)
	}
	return s
}

// Tier is the style of a node's tier; hidden nodes are dimmed whatever their tier.
func (s Styles) Tier(t dom.Tier, hidden bool) lipgloss.Style {
	if hidden {
		return s.Hidden
	}
	switch t {
	case dom.Semantic:
		return s.Semantic
	case dom.NonSemantic:
		return s.NonSemantic
	}
	return s.Structural
}

// For picks the palette for a background and builds its styles.
func For(dark, noColor bool) Styles {
	if dark {
		return New(Dark(), noColor)
	}
	return New(Light(), noColor)
}
