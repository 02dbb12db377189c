package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"domscope/views"
)

// The two ways of drawing a layer over a frame, on the same 200×60 frame
// and help box. One splices the box into the frame's lines (what View
// does). The other is lipgloss's compositor. It draws the frame and the
// box onto a cell canvas, rendered back to a string.
func composeInputs(b *testing.B) (frame []string, d drawn, w int) {
	m := benchModel(b, 50000)
	m.Update(tea.KeyPressMsg{Code: '?', Text: "?"})
	l := m.top()
	s := computeScreen(m.w, m.h)
	d = l.render(m.layerCtx(), s)
	m.layers = nil
	return strings.Split(m.render(), "\n"), d, m.w
}

func BenchmarkComposeSplice(b *testing.B) {
	frame, d, w := composeInputs(b)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		out := views.Place(append([]string(nil), frame...), d.lines, d.x, d.y, w)
		_ = strings.Join(out, "\n")
	}
}

func BenchmarkComposeLipgloss(b *testing.B) {
	frame, d, w := composeInputs(b)
	bg := strings.Join(frame, "\n")
	box := strings.Join(d.lines, "\n")
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		c := lipgloss.NewCompositor(lipgloss.NewLayer(bg), lipgloss.NewLayer(box).X(d.x).Y(d.y).Z(1))
		_ = lipgloss.NewCanvas(w, len(frame)).Compose(c).Render()
	}
}
