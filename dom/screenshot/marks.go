package screenshot

import (
	"fmt"
	"image"
	"image/color"
	"strconv"
	"strings"

	"domscope/dom"
)

// Mark is one numbered box drawn on a screenshot ("set of marks"). It is a
// node of the flattened view, numbered as the text format numbers it ([N]).
type Mark struct {
	ID string // "node_12"
	N  int    // 12
	// Box is the node's border box on the picture. It may reach past the
	// picture's edges when the node is partly visible.
	Box image.Rectangle
	// Label is where the number is drawn (inside the picture).
	Label image.Rectangle
	// Drawn is false for a mark that is not on the picture. Why says why.
	Drawn bool
	Why   string
}

// MarkColor is the colour of every mark's outline and label.
var MarkColor = color.RGBA{R: 230, G: 0, B: 126, A: 255}

// markText is the colour of a label's digits.
var markText = color.RGBA{R: 255, G: 255, B: 255, A: 255}

// Mark geometry: outline width, and the label's digit scale and padding.
const (
	markLine  = 2
	markScale = 2
	markPad   = 2
)

// Marks places a mark for every node of the flattened view on pic, in the
// order of the view. A node with no box, or one that does not overlap the
// picture, is not drawn. Its mark says why.
func Marks(snap *dom.Snapshot, sd *dom.SerializedDom, pic *Picture) []Mark {
	var out []Mark
	area := pic.Image.Bounds()
	var walk func(ns []*dom.SerializedNode)
	walk = func(ns []*dom.SerializedNode) {
		for _, sn := range ns {
			// Page text and "more" lines carry no [N] in the text format.
			if n, ok := dom.IDNumber(sn.ID); ok && sn.Role != "text" && sn.Role != "more" {
				m := Mark{ID: sn.ID, N: n}
				v := snap.Node(sn.ID)
				switch {
				case v == nil || v.Bounds.W <= 0 || v.Bounds.H <= 0:
					m.Why = "no box"
				default:
					m.Box = pic.ToImage(v.Bounds)
					if m.Box.Empty() || !m.Box.Overlaps(area) {
						m.Why = "outside the viewport"
						break
					}
					m.Drawn = true
					m.Label = labelRect(m.Box, n, area)
				}
				out = append(out, m)
			}
			walk(sn.Children)
		}
	}
	walk(sd.Nodes)
	return out
}

// labelRect puts the number's label at the top-left corner inside box. It
// is moved into the picture when the corner is not on it.
func labelRect(box image.Rectangle, n int, area image.Rectangle) image.Rectangle {
	digits := len(strconv.Itoa(n))
	w := 2*markPad + digits*3*markScale + (digits-1)*markScale
	h := 2*markPad + 5*markScale
	p := box.Min
	p.X = max(area.Min.X, min(p.X, area.Max.X-w))
	p.Y = max(area.Min.Y, min(p.Y, area.Max.Y-h))
	return image.Rect(p.X, p.Y, p.X+w, p.Y+h).Intersect(area)
}

// MarkUp draws the marks of sd's nodes on pic and says how many it drew,
// and which were not on the picture (outside the viewport or with no
// box). noun names the picture to the reader; limit bounds the ids
// listed (0: all of them).
func MarkUp(snap *dom.Snapshot, sd *dom.SerializedDom, pic *Picture, noun string, limit int) string {
	ms := Marks(snap, sd, pic)
	DrawMarks(pic.Image, ms)
	var drawn int
	var off []string
	for _, m := range ms {
		if m.Drawn {
			drawn++
		} else {
			off = append(off, fmt.Sprintf("[%d]", m.N))
		}
	}
	line := fmt.Sprintf("marks: %d drawn", drawn)
	if len(off) > 0 {
		listed := off
		if limit > 0 {
			listed = off[:min(len(off), limit)]
		}
		line += fmt.Sprintf(", %d not on the %s (outside the viewport or no box): %s", len(off), noun, strings.Join(listed, " "))
		if len(off) > len(listed) {
			line += " …"
		}
	}
	return line
}

// DrawMarks draws the drawn marks onto img. Every outline goes first, then
// every label, so no outline crosses a number.
func DrawMarks(img *image.RGBA, marks []Mark) {
	for _, m := range marks {
		if m.Drawn {
			for _, r := range Outline(m.Box) {
				fill(img, r, MarkColor)
			}
		}
	}
	for _, m := range marks {
		if m.Drawn {
			drawLabel(img, m.Label, m.N)
		}
	}
}

// Outline is the rectangles of a box's outline, markLine pixels wide,
// inside the box. A small box is filled.
func Outline(b image.Rectangle) []image.Rectangle {
	t := markLine
	if b.Dx() <= 2*t || b.Dy() <= 2*t {
		return []image.Rectangle{b}
	}
	return []image.Rectangle{
		image.Rect(b.Min.X, b.Min.Y, b.Max.X, b.Min.Y+t),
		image.Rect(b.Min.X, b.Max.Y-t, b.Max.X, b.Max.Y),
		image.Rect(b.Min.X, b.Min.Y+t, b.Min.X+t, b.Max.Y-t),
		image.Rect(b.Max.X-t, b.Min.Y+t, b.Max.X, b.Max.Y-t),
	}
}

func fill(img *image.RGBA, r image.Rectangle, c color.RGBA) {
	r = r.Intersect(img.Bounds())
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			img.SetRGBA(x, y, c)
		}
	}
}

// digitFont is a 3×5 bitmap of each digit, one row per string.
var digitFont = [10][5]string{
	{"###", "#.#", "#.#", "#.#", "###"},
	{".#.", "##.", ".#.", ".#.", "###"},
	{"###", "..#", "###", "#..", "###"},
	{"###", "..#", "###", "..#", "###"},
	{"#.#", "#.#", "###", "..#", "..#"},
	{"###", "#..", "###", "..#", "###"},
	{"###", "#..", "###", "#.#", "###"},
	{"###", "..#", "..#", "..#", "..#"},
	{"###", "#.#", "###", "#.#", "###"},
	{"###", "#.#", "###", "..#", "###"},
}

// drawLabel fills r with the mark colour and writes n in it.
func drawLabel(img *image.RGBA, r image.Rectangle, n int) {
	fill(img, r, MarkColor)
	x := r.Min.X + markPad
	for _, d := range strconv.Itoa(n) {
		glyph := digitFont[d-'0']
		for gy, row := range glyph {
			for gx, on := range row {
				if on == '#' {
					px := image.Rect(x+gx*markScale, r.Min.Y+markPad+gy*markScale, x+(gx+1)*markScale, r.Min.Y+markPad+(gy+1)*markScale)
					fill(img, px.Intersect(r), markText)
				}
			}
		}
		x += 4 * markScale
	}
}
