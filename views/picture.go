package views

import (
	"image"
	"image/color"
	"strconv"

	"domscope/dom"
	"domscope/dom/screenshot"
)

// PictureInput is what drawing the picture pane needs. That is the
// screenshot, the selected node's box and the marks (nil: none). It also
// holds the cells to fill and how the terminal draws.
type PictureInput struct {
	Pic      *screenshot.Picture
	Selected *dom.Rect // page-document coordinates; nil: no outline
	// Covered are the boxes of the controls another element is drawn
	// over (the view's covered marks), outlined dashed in CoveredColor.
	Covered []dom.Rect
	Marks   []screenshot.Mark
	Cols    int
	Rows    int
	Gfx     Graphics
	NoColor bool
	KittyID int
	// Base is the screenshot already scaled for half-blocks at this size,
	// from an earlier drawing. It may be nil.
	Base *image.RGBA
}

// PictureOutput is a drawn picture: the lines for the pane. For sixel,
// iTerm2 and kitty it also holds the escape to write to the terminal as
// it is.
type PictureOutput struct {
	Lines []string
	Raw   string
	Base  *image.RGBA // the scaled screenshot, to pass back as Base
}

// SelectColor is the outline of the selected node on the picture.
var SelectColor = color.RGBA{R: 255, G: 200, B: 0, A: 255}

// CoveredColor is the dashed outline of a covered control on the
// picture: neither the selection's amber nor the marks' magenta.
var CoveredColor = color.RGBA{R: 0, G: 200, B: 255, A: 255}

// cellPx is the pixels of a terminal cell assumed for the pixel
// protocols. A cell is about twice as high as it is wide.
const cellPx = 10

// DrawPicture draws the picture for cols×rows cells.
func DrawPicture(in PictureInput) (PictureOutput, error) {
	src := in.Pic.Image
	iw, ih := src.Bounds().Dx(), src.Bounds().Dy()
	w, h := Fit(iw, ih, in.Cols, in.Rows)
	if w == 0 {
		return PictureOutput{}, nil
	}
	if in.Gfx == HalfBlocks {
		base := in.Base
		if base == nil || base.Bounds().Dx() != w || base.Bounds().Dy() != h {
			base = Scale(src, w, h)
		}
		img := image.NewRGBA(base.Bounds())
		copy(img.Pix, base.Pix)
		sx, sy := float64(w)/float64(iw), float64(h)/float64(ih)
		scale := func(r image.Rectangle) image.Rectangle {
			return image.Rect(int(float64(r.Min.X)*sx), int(float64(r.Min.Y)*sy), int(float64(r.Max.X)*sx+0.5), int(float64(r.Max.Y)*sy+0.5))
		}
		var labels []Label
		for _, m := range in.Marks {
			if m.Drawn {
				outline(img, scale(m.Box), 1, screenshot.MarkColor)
				l := scale(m.Label)
				labels = append(labels, Label{Col: l.Min.X, Row: l.Min.Y / 2, Text: strconv.Itoa(m.N)})
			}
		}
		for _, c := range in.Covered {
			dashed(img, scale(in.Pic.ToImage(c)), 1, 2, CoveredColor)
		}
		if in.Selected != nil {
			outline(img, scale(in.Pic.ToImage(*in.Selected)), 1, SelectColor)
		}
		return PictureOutput{Lines: HalfBlock(img, in.NoColor, labels), Base: base}, nil
	}
	// the pixel protocols: draw at the screenshot's size, then shrink
	img := image.NewRGBA(src.Bounds())
	copy(img.Pix, src.Pix)
	screenshot.DrawMarks(img, in.Marks)
	for _, c := range in.Covered {
		dashed(img, in.Pic.ToImage(c), 3, 8, CoveredColor)
	}
	if in.Selected != nil {
		outline(img, in.Pic.ToImage(*in.Selected), 3, SelectColor)
	}
	px := Scale(img, w*cellPx, h*cellPx)
	rows := (h + 1) / 2
	out := PictureOutput{Lines: make([]string, rows)}
	var err error
	switch in.Gfx {
	case Kitty:
		out.Raw, out.Lines, err = KittyPicture(px, in.KittyID, w, rows)
	case Sixel:
		out.Raw = SixelPicture(px)
	case ITerm2:
		out.Raw, err = ITerm2Picture(px, w, rows)
	}
	return out, err
}

// outline draws a t pixels wide border inside r.
func outline(img *image.RGBA, r image.Rectangle, t int, c color.RGBA) {
	if r.Dx() <= 0 || r.Dy() <= 0 {
		return
	}
	for _, e := range []image.Rectangle{
		image.Rect(r.Min.X, r.Min.Y, r.Max.X, r.Min.Y+t),
		image.Rect(r.Min.X, r.Max.Y-t, r.Max.X, r.Max.Y),
		image.Rect(r.Min.X, r.Min.Y, r.Min.X+t, r.Max.Y),
		image.Rect(r.Max.X-t, r.Min.Y, r.Max.X, r.Max.Y),
	} {
		e = e.Intersect(img.Bounds())
		for y := e.Min.Y; y < e.Max.Y; y++ {
			for x := e.Min.X; x < e.Max.X; x++ {
				img.SetRGBA(x, y, c)
			}
		}
	}
}

// dashed draws a t pixels wide border inside r in dashes of d pixels,
// gaps as long: a covered control's outline, told from the selection's
// solid one without colour too.
func dashed(img *image.RGBA, r image.Rectangle, t, d int, c color.RGBA) {
	if r.Dx() <= 0 || r.Dy() <= 0 || d <= 0 {
		return
	}
	b := img.Bounds()
	set := func(x, y int) {
		if (image.Point{x, y}).In(b) {
			img.SetRGBA(x, y, c)
		}
	}
	for x := r.Min.X; x < r.Max.X; x++ {
		if (x-r.Min.X)/d%2 != 0 {
			continue
		}
		for k := range t {
			set(x, r.Min.Y+k)
			set(x, r.Max.Y-1-k)
		}
	}
	for y := r.Min.Y; y < r.Max.Y; y++ {
		if (y-r.Min.Y)/d%2 != 0 {
			continue
		}
		for k := range t {
			set(r.Min.X+k, y)
			set(r.Max.X-1-k, y)
		}
	}
}
