package views

import (
	"image"
	"image/color"
	"strings"
	"testing"
)

// A 3×3 synthetic image in half-blocks. Each cell is "▀" with the upper
// pixel as foreground and the lower as background. A colour is written
// only when it changes. The odd last row has the terminal's background.
// A label replaces its cells with digits on the mark colour.
func TestHalfBlockGolden(t *testing.T) {
	img := image.NewRGBA(image.Rect(0, 0, 3, 3))
	red, blue, white := color.RGBA{255, 0, 0, 255}, color.RGBA{0, 0, 255, 255}, color.RGBA{255, 255, 255, 255}
	for x := range 3 {
		img.SetRGBA(x, 0, red)
		img.SetRGBA(x, 1, blue)
		img.SetRGBA(x, 2, white)
	}
	img.SetRGBA(2, 1, red)
	got := HalfBlock(img, false, nil)
	want := []string{
		"\x1b[38;2;255;0;0m\x1b[48;2;0;0;255m▀▀\x1b[48;2;255;0;0m▀\x1b[m",
		"\x1b[38;2;255;255;255m\x1b[49m▀▀▀\x1b[m",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("half-blocks:\n got %q\nwant %q", got, want)
	}
	got = HalfBlock(img, false, []Label{{Col: 1, Row: 1, Text: "7"}})
	if want := "\x1b[38;2;255;255;255m\x1b[49m▀\x1b[38;2;255;255;255;48;2;230;0;126m7\x1b[38;2;255;255;255m\x1b[49m▀\x1b[m"; got[1] != want {
		t.Errorf("labelled row:\n got %q\nwant %q", got[1], want)
	}
	// NO_COLOR: shades of grey by brightness
	if got := HalfBlock(img, true, nil); strings.Join(got, "|") != "░░░|███" {
		t.Errorf("no colour: %q", got)
	}
}

// Fit keeps the aspect ratio in cells of two half-block pixels. Scale
// averages what it shrinks.
func TestFitScale(t *testing.T) {
	for _, c := range []struct{ iw, ih, cols, rows, w, h int }{
		{1280, 800, 100, 100, 100, 62},
		{1280, 800, 100, 20, 64, 40},
		{390, 844, 60, 30, 27, 60},
	} {
		if w, h := Fit(c.iw, c.ih, c.cols, c.rows); w != c.w || h != c.h {
			t.Errorf("Fit(%d×%d in %d×%d) = %d×%d, want %d×%d", c.iw, c.ih, c.cols, c.rows, w, h, c.w, c.h)
		}
	}
	img := image.NewRGBA(image.Rect(0, 0, 4, 2))
	for x := range 4 {
		img.SetRGBA(x, 0, color.RGBA{200, 100, 0, 255})
		img.SetRGBA(x, 1, color.RGBA{0, 100, 200, 255})
	}
	s := Scale(img, 2, 1)
	if p := s.RGBAAt(1, 0); p != (color.RGBA{100, 100, 100, 255}) {
		t.Errorf("Scale averaged to %v", p)
	}
}
