package views

import (
	"image"
	"strconv"
	"strings"
)

// Fit is the size in pixels of an image of iw×ih shown in cols×rows
// terminal cells of half-block pixels. It keeps the aspect ratio. One
// cell is one pixel wide and two high, about square pixels.
func Fit(iw, ih, cols, rows int) (w, h int) {
	if iw <= 0 || ih <= 0 || cols <= 0 || rows <= 0 {
		return 0, 0
	}
	w, h = cols, cols*ih/iw
	if h > 2*rows {
		w, h = max(1, 2*rows*iw/ih), 2*rows
	}
	return max(w, 1), max(h, 1)
}

// Scale returns img at w×h, averaging the source pixels under each target
// pixel. This box filter shrinks a screenshot to a few terminal cells
// without losing thin lines entirely.
func Scale(img *image.RGBA, w, h int) *image.RGBA {
	b := img.Bounds()
	sw, sh := b.Dx(), b.Dy()
	dst := image.NewRGBA(image.Rect(0, 0, w, h))
	if sw == 0 || sh == 0 {
		return dst
	}
	for y := 0; y < h; y++ {
		y0 := y * sh / h
		y1 := max(y0+1, (y+1)*sh/h)
		for x := 0; x < w; x++ {
			x0 := x * sw / w
			x1 := max(x0+1, (x+1)*sw/w)
			var r, g, bl, n uint32
			for sy := y0; sy < y1; sy++ {
				row := img.Pix[(sy)*img.Stride+(x0)*4 : (sy)*img.Stride+(x1)*4]
				for i := 0; i < len(row); i += 4 {
					r, g, bl = r+uint32(row[i]), g+uint32(row[i+1]), bl+uint32(row[i+2])
					n++
				}
			}
			o := dst.Pix[y*dst.Stride+x*4:]
			o[0], o[1], o[2], o[3] = uint8(r/n), uint8(g/n), uint8(bl/n), 255
		}
	}
	return dst
}

// HalfBlock draws img (already at its display size: w columns, h pixels)
// as lines of "▀". The upper pixel is in the foreground colour and the
// lower in the background. So any terminal with 24-bit colour shows the
// picture. A colour is written only when it changes. noColor draws shades
// of grey with " ░▒▓█" instead, for NO_COLOR.
func HalfBlock(img *image.RGBA, noColor bool, labels []Label) []string {
	at := map[[2]int]byte{}
	for _, l := range labels {
		for i := 0; i < len(l.Text); i++ {
			at[[2]int{l.Col + i, l.Row}] = l.Text[i]
		}
	}
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	lines := make([]string, 0, (h+1)/2)
	var sb strings.Builder
	for y := 0; y < h; y += 2 {
		sb.Reset()
		sb.Grow(w * 24)
		lastFg, lastBg := -1, -1
		for x := 0; x < w; x++ {
			top := img.Pix[y*img.Stride+x*4:]
			var bot []uint8
			if y+1 < h {
				bot = img.Pix[(y+1)*img.Stride+x*4:]
			}
			if c, ok := at[[2]int{x, y / 2}]; ok {
				if noColor {
					sb.WriteByte(c)
					continue
				}
				sb.WriteString("\x1b[38;2;255;255;255;48;2;230;0;126m")
				sb.WriteByte(c)
				lastFg, lastBg = -1, -1
				continue
			}
			if noColor {
				l := luma(top)
				if bot != nil {
					l = (l + luma(bot)) / 2
				}
				sb.WriteString(shades[min(len(shades)-1, l*len(shades)/256)])
				continue
			}
			fg := int(top[0])<<16 | int(top[1])<<8 | int(top[2])
			if fg != lastFg {
				sgr(&sb, "38", top)
				lastFg = fg
			}
			if bot == nil {
				if lastBg != -2 {
					sb.WriteString("\x1b[49m")
					lastBg = -2
				}
			} else if bg := int(bot[0])<<16 | int(bot[1])<<8 | int(bot[2]); bg != lastBg {
				sgr(&sb, "48", bot)
				lastBg = bg
			}
			sb.WriteString("▀")
		}
		if !noColor {
			sb.WriteString("\x1b[m")
		}
		lines = append(lines, sb.String())
	}
	return lines
}

// Label is text written over a picture in cells, such as a mark's number.
// A few pixels of digits would not survive the half-block resolution.
type Label struct {
	Col, Row int
	Text     string // digits
}

var shades = []string{" ", "░", "▒", "▓", "█"}

func luma(p []uint8) int { return (299*int(p[0]) + 587*int(p[1]) + 114*int(p[2])) / 1000 }

// sgr writes a 24-bit colour: layer "38" foreground, "48" background.
func sgr(sb *strings.Builder, layer string, p []uint8) {
	var buf [32]byte
	out := append(buf[:0], "\x1b["...)
	out = append(out, layer...)
	out = append(out, ";2;"...)
	out = strconv.AppendInt(out, int64(p[0]), 10)
	out = append(out, ';')
	out = strconv.AppendInt(out, int64(p[1]), 10)
	out = append(out, ';')
	out = strconv.AppendInt(out, int64(p[2]), 10)
	out = append(out, 'm')
	sb.Write(out)
}
