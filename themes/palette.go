// Package themes turns a small semantic palette into the lipgloss styles
// every view uses. Views ask for a style by name (styles.Semantic), never
// for a colour. Tiers are known here by name only; views map an engine
// tier to its style.
package themes

import (
	"image/color"

	"charm.land/lipgloss/v2"
)

// Palette is the handful of semantic colours domscope draws with.
type Palette struct {
	Semantic    color.Color // tier: semantic
	NonSemantic color.Color // tier: non-semantic interactive
	Structural  color.Color // tier: structural
	Hidden      color.Color // invisible nodes (dimmed)
	Accent      color.Color // titles, focus, prompts
	Error       color.Color
	OK          color.Color
	Warn        color.Color
	Dim         color.Color // secondary text, hints
	Border      color.Color
	Added       color.Color // diff marks
	Renamed     color.Color
	SelectBG    color.Color // selected row background
	MatchBG     color.Color // search match background
}

// Dark is the palette for dark terminal backgrounds.
func Dark() Palette {
	return Palette{
		Semantic:    lipgloss.Color("#5FD7AF"),
		NonSemantic: lipgloss.Color("#FFAF5F"),
		Structural:  lipgloss.Color("#A8A8B8"),
		Hidden:      lipgloss.Color("#5C5C6C"),
		Accent:      lipgloss.Color("#87AFFF"),
		Error:       lipgloss.Color("#FF6B6B"),
		OK:          lipgloss.Color("#87D787"),
		Warn:        lipgloss.Color("#FFD75F"),
		Dim:         lipgloss.Color("#7C7C8C"),
		Border:      lipgloss.Color("#44475A"),
		Added:       lipgloss.Color("#87D787"),
		Renamed:     lipgloss.Color("#D7AFFF"),
		SelectBG:    lipgloss.Color("#2E3A59"),
		MatchBG:     lipgloss.Color("#4A3F1F"),
	}
}

// Light is the palette for light terminal backgrounds.
func Light() Palette {
	return Palette{
		Semantic:    lipgloss.Color("#007A5A"),
		NonSemantic: lipgloss.Color("#B35900"),
		Structural:  lipgloss.Color("#555566"),
		Hidden:      lipgloss.Color("#A0A0AA"),
		Accent:      lipgloss.Color("#1F5FD1"),
		Error:       lipgloss.Color("#C62828"),
		OK:          lipgloss.Color("#2E7D32"),
		Warn:        lipgloss.Color("#8A6D00"),
		Dim:         lipgloss.Color("#80808C"),
		Border:      lipgloss.Color("#C0C0CC"),
		Added:       lipgloss.Color("#2E7D32"),
		Renamed:     lipgloss.Color("#7B3FB5"),
		SelectBG:    lipgloss.Color("#D6E4FF"),
		MatchBG:     lipgloss.Color("#FFF1B8"),
	}
}
