package themes

import (
	"image/color"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/lipgloss/v2"
)

// Styles are built once from a palette; views only use these.
type Styles struct {
	NoColor bool

	Semantic, NonSemantic, Structural, Hidden Ink

	Title, Accent, Dim, DimBold, Bold, Error, OK, Warn Ink
	BorderStyle                                        Ink
	Selected                                           Ink // cursor row in the focused pane
	SelectedBlur                                       Ink // cursor row in the other pane
	Match                                              Ink
	Added, Renamed, Removed                            Ink
	Key, KeyDesc                                       Ink
	Badge                                              Ink
	// The engine's marks on tree rows: a scroll container, a covered
	// control, the open modal, an item a fold hid.
	ScrollMark, CoveredMark, ModalMark, FoldMark Ink

	// Help styles the bubbles help view (footer hints, help screen) like
	// Key and KeyDesc.
	Help help.Styles
}

// Ink is a lipgloss style reduced to the escape sequences it wraps text
// in, computed once. Rendering is then two string concatenations.
// lipgloss Render per cell run is where big frames lose their
// milliseconds. It suits single-line text without padding, margins or
// borders. That is all the views ask of it.
type Ink struct{ pre, post string }

// NewInk captures a style's opening and closing sequences.
func NewInk(st lipgloss.Style) Ink {
	const mark = "\x00"
	r := st.Render(mark)
	i := strings.Index(r, mark)
	if i < 0 {
		return Ink{}
	}
	return Ink{pre: r[:i], post: r[i+len(mark):]}
}

// Render wraps s in the style.
func (k Ink) Render(s string) string {
	if s == "" || k.pre == "" {
		return s
	}
	return k.pre + s + k.post
}

// New builds the styles for a palette. noColor gives plain output for
// NO_COLOR and for golden files. It still marks the selection (reverse
// video) and emphasis (bold).
func New(p Palette, noColor bool) Styles {
	fgs := func(c color.Color) lipgloss.Style {
		if noColor {
			return lipgloss.NewStyle()
		}
		return lipgloss.NewStyle().Foreground(c)
	}
	fg := func(c color.Color) Ink { return NewInk(fgs(c)) }
	ink := NewInk
	s := Styles{NoColor: noColor}
	s.Semantic = fg(p.Semantic)
	s.NonSemantic = fg(p.NonSemantic)
	s.Structural = fg(p.Structural)
	s.Hidden = ink(fgs(p.Hidden).Faint(true))
	s.Title = ink(fgs(p.Accent).Bold(true))
	s.Accent = fg(p.Accent)
	s.Dim = fg(p.Dim)
	s.Bold = ink(lipgloss.NewStyle().Bold(true))
	s.DimBold = ink(fgs(p.Dim).Bold(true))
	s.Error = ink(fgs(p.Error).Bold(true))
	s.OK = fg(p.OK)
	s.Warn = fg(p.Warn)
	s.BorderStyle = fg(p.Border)
	s.Added = ink(fgs(p.Added).Bold(true))
	s.Renamed = ink(fgs(p.Renamed).Bold(true))
	s.Removed = fg(p.Error)
	keySt, descSt := fgs(p.Accent).Bold(true), fgs(p.Dim)
	s.Key = ink(keySt)
	s.KeyDesc = ink(descSt)
	s.Help = help.Styles{
		Ellipsis: descSt, ShortKey: keySt, ShortDesc: descSt, ShortSeparator: lipgloss.NewStyle(),
		FullKey: keySt, FullDesc: lipgloss.NewStyle(), FullSeparator: lipgloss.NewStyle(),
	}
	s.Badge = fg(p.Accent)
	s.ScrollMark = fg(p.Accent)
	s.CoveredMark = ink(fgs(p.Warn).Bold(true))
	s.ModalMark = ink(fgs(p.Renamed).Bold(true))
	s.FoldMark = fg(p.Dim)
	if noColor {
		s.Selected = ink(lipgloss.NewStyle().Reverse(true))
		s.SelectedBlur = ink(lipgloss.NewStyle().Underline(true))
		s.Match = ink(lipgloss.NewStyle().Underline(true))
	} else {
		s.Selected = ink(lipgloss.NewStyle().Background(p.SelectBG).Bold(true))
		s.SelectedBlur = ink(lipgloss.NewStyle().Background(p.SelectBG))
		s.Match = ink(lipgloss.NewStyle().Background(p.MatchBG))
	}
	return s
}

// For picks the palette for a background and builds its styles.
func For(dark, noColor bool) Styles {
	if dark {
		return New(Dark(), noColor)
	}
	return New(Light(), noColor)
}
