// Package screenshot takes pictures of a page with every sensitive field
// painted over. It draws a view's node numbers on them (marks).
package screenshot

import (
	"bytes"
	"context"
	"encoding/base64"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"math"
	"time"

	"domscope/dom"
	"domscope/dom/capture"
)

// Picture is a screenshot of the page's viewport at its CSS size. It has
// one image pixel per CSS pixel of the window, whatever the device scale
// factor.
type Picture struct {
	Image *image.RGBA
	// OriginX, OriginY are where the image's top-left corner is, in
	// page-document coordinates (those of VirtualNode.Bounds). That is the
	// scroll position of the visible part of the page.
	OriginX, OriginY float64
	// Zoom is image pixels per document CSS pixel. It is 1, or less when a
	// mobile page without a viewport meta tag is shown zoomed out.
	Zoom float64
	// DeviceScale is the device pixels per CSS pixel the browser drew at.
	DeviceScale float64
}

// ToImage maps a rectangle in page-document coordinates onto the picture.
func (p *Picture) ToImage(r dom.Rect) image.Rectangle {
	x0 := (r.X - p.OriginX) * p.Zoom
	y0 := (r.Y - p.OriginY) * p.Zoom
	x1 := (r.X + r.W - p.OriginX) * p.Zoom
	y1 := (r.Y + r.H - p.OriginY) * p.Zoom
	return image.Rect(int(math.Round(x0)), int(math.Round(y0)), int(math.Round(x1)), int(math.Round(y1)))
}

// Screenshot captures the visible part of the page (Page.captureScreenshot)
// and scales it to CSS pixels. Then it paints every sensitive field over
// with a solid block (MaskColor), in every frame and shadow root. That
// happens before the picture leaves this package. known, when not nil,
// holds the fields earlier captures found sensitive. They are painted
// over too, so a password a page has turned into text stays covered.
//
// The fields are found just before and just after the picture is taken.
// A picture is kept only when they stood still in between (and the page
// did not scroll or zoom). Otherwise it is taken again, a few times, and
// then refused: where a moving field was drawn cannot be known.
func Screenshot(ctx context.Context, p dom.Page, known *SensitiveNodes) (*Picture, error) {
	if p == nil {
		return nil, dom.Errorf(dom.NotAttached, nil, "no page to take a picture of: attach to a tab first")
	}
	for try := range shotTries {
		if try > 0 {
			select {
			case <-ctx.Done():
				return nil, capture.Err(ctx.Err(), "taking a screenshot")
			case <-time.After(shotRetryWait):
			}
		}
		pic, err := screenshotOnce(ctx, p, known)
		if err != nil || pic != nil {
			return pic, err
		}
	}
	return nil, dom.Errorf(dom.SnapshotFailed, nil, "no screenshot: a sensitive field kept moving (or the page kept scrolling) while it was taken, so where to paint it over is unknown; try again once the page is still")
}

// A picture is taken again this many times, this long apart, while a
// sensitive field moves.
const (
	shotTries     = 5
	shotRetryWait = 150 * time.Millisecond
)

// viewMetrics is where the picture looks. That is the visual viewport's
// scroll position and zoom, and the device scale factor.
type viewMetrics struct {
	pageX, pageY, zoom, dpr float64
}

func readViewMetrics(ctx context.Context, s dom.Session) (viewMetrics, error) {
	var lm struct {
		Visual struct {
			PageX float64 `json:"pageX"`
			PageY float64 `json:"pageY"`
			Scale float64 `json:"scale"`
		} `json:"cssVisualViewport"`
	}
	if err := s.Call(ctx, "Page.getLayoutMetrics", nil, &lm); err != nil {
		return viewMetrics{}, dom.Errorf(dom.SnapshotFailed, err, "reading the viewport for a screenshot")
	}
	var ev struct {
		Result struct {
			Value float64 `json:"value"`
		} `json:"result"`
	}
	if err := s.Call(ctx, "Runtime.evaluate", map[string]any{"expression": "window.devicePixelRatio", "returnByValue": true}, &ev); err != nil {
		return viewMetrics{}, dom.Errorf(dom.SnapshotFailed, err, "reading the device scale factor")
	}
	m := viewMetrics{pageX: lm.Visual.PageX, pageY: lm.Visual.PageY, zoom: lm.Visual.Scale, dpr: ev.Result.Value}
	if m.dpr <= 0 || math.IsNaN(m.dpr) || math.IsInf(m.dpr, 0) {
		m.dpr = 1
	}
	if m.zoom <= 0 || math.IsNaN(m.zoom) || math.IsInf(m.zoom, 0) {
		m.zoom = 1
	}
	return m, nil
}

// screenshotOnce takes one masked picture. It returns nil without an
// error when a field moved, came or went, or the page scrolled or zoomed
// meanwhile.
func screenshotOnce(ctx context.Context, p dom.Page, known *SensitiveNodes) (*Picture, error) {
	m1, err := readViewMetrics(ctx, p)
	if err != nil {
		return nil, err
	}
	before, err := scanSecrets(ctx, p, known)
	if err != nil {
		return nil, err
	}
	var shot struct {
		Data string `json:"data"`
	}
	if err := p.Call(ctx, "Page.captureScreenshot", map[string]any{"format": "png"}, &shot); err != nil {
		return nil, dom.Errorf(dom.SnapshotFailed, err, "taking a screenshot")
	}
	after, err := scanSecrets(ctx, p, known)
	if err != nil {
		return nil, err
	}
	m2, err := readViewMetrics(ctx, p)
	if err != nil {
		return nil, err
	}
	if m1 != m2 || !still(before, after) {
		return nil, nil
	}
	raw, err := base64.StdEncoding.DecodeString(shot.Data)
	if err != nil {
		return nil, dom.Errorf(dom.SnapshotFailed, err, "the screenshot is not base64")
	}
	img, err := png.Decode(bytes.NewReader(raw))
	if err != nil {
		return nil, dom.Errorf(dom.SnapshotFailed, err, "the screenshot is not a PNG")
	}
	dev := toRGBA(img)
	// A field may have moved by less than a pixel. Both boxes are covered.
	boxes := joinBoxes(before, after)
	origin := [2]float64{m1.pageX, m1.pageY}
	paintBoxes(dev, boxes, origin, m1.zoom*m1.dpr, 1)
	b := dev.Bounds()
	w := max(1, int(math.Round(float64(b.Dx())/m1.dpr)))
	h := max(1, int(math.Round(float64(b.Dy())/m1.dpr)))
	css := scaleTo(dev, w, h)
	// Again at CSS size. A pixel that the scaling mixed from the block and
	// its edge is made solid.
	paintBoxes(css, boxes, origin, m1.zoom, 0)
	return &Picture{Image: css, OriginX: m1.pageX, OriginY: m1.pageY, Zoom: m1.zoom, DeviceScale: m1.dpr}, nil
}

// SensitiveNodes are the sensitive fields captures of one document found,
// by target and backend node id. The zero value is empty.
type SensitiveNodes struct {
	doc int64 // the top document's backend node id
	m   map[fieldKey]bool
}

// Add remembers snap's sensitive fields. A snapshot of another document
// (a navigation) forgets the earlier ones.
func (k *SensitiveNodes) Add(snap *dom.Snapshot) {
	if snap == nil || snap.Root == nil {
		return
	}
	if snap.Root.BackendID != k.doc {
		k.doc, k.m = snap.Root.BackendID, nil
	}
	dom.Walk(snap.Root, func(n *dom.VirtualNode) {
		if n.Sensitive() {
			if k.m == nil {
				k.m = map[fieldKey]bool{}
			}
			k.m[fieldKey{n.TargetID, n.BackendID}] = true
		}
	})
}

// Clone is a copy that later Adds to k do not change.
func (k *SensitiveNodes) Clone() *SensitiveNodes {
	if k == nil {
		return nil
	}
	c := &SensitiveNodes{doc: k.doc, m: make(map[fieldKey]bool, len(k.m))}
	for f := range k.m {
		c.m[f] = true
	}
	return c
}

func (k *SensitiveNodes) has(f fieldKey) bool { return k != nil && k.m[f] }

// still reports whether the same fields were found in a and b. None may
// have moved or changed size by a pixel or more.
func still(a, b secretBoxes) bool {
	if len(a) != len(b) {
		return false
	}
	for k, r := range a {
		o, ok := b[k]
		if !ok || math.Abs(r.X-o.X) >= 1 || math.Abs(r.Y-o.Y) >= 1 ||
			math.Abs(r.X+r.W-o.X-o.W) >= 1 || math.Abs(r.Y+r.H-o.Y-o.H) >= 1 {
			return false
		}
	}
	return true
}

// joinBoxes is every field of a and b, each covering both its boxes.
func joinBoxes(a, b secretBoxes) []dom.Rect {
	out := make([]dom.Rect, 0, len(a)+len(b))
	for k, r := range a {
		if o, ok := b[k]; ok {
			r = hull(r, o)
		}
		out = append(out, r)
	}
	for k, r := range b {
		if _, ok := a[k]; !ok {
			out = append(out, r)
		}
	}
	return out
}

// paintBoxes fills each box (page-document coordinates) with MaskColor on
// img. img has k pixels per CSS pixel from origin. Boxes are rounded
// outwards and grown by pad.
func paintBoxes(img *image.RGBA, boxes []dom.Rect, origin [2]float64, k float64, pad int) {
	for _, r := range boxes {
		x0 := int(math.Floor((r.X-origin[0])*k)) - pad
		y0 := int(math.Floor((r.Y-origin[1])*k)) - pad
		x1 := int(math.Ceil((r.X+r.W-origin[0])*k)) + pad
		y1 := int(math.Ceil((r.Y+r.H-origin[1])*k)) + pad
		fill(img, image.Rect(x0, y0, x1, y1), MaskColor)
	}
}

// MaskColor is the solid colour painted over a sensitive field.
var MaskColor = color.RGBA{R: 48, G: 48, B: 48, A: 255}

// toRGBA returns img as RGBA with its origin at 0,0.
func toRGBA(img image.Image) *image.RGBA {
	b := img.Bounds()
	if src, ok := img.(*image.RGBA); ok && b.Min == (image.Point{}) {
		return src
	}
	dst := image.NewRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
	draw.Draw(dst, dst.Bounds(), img, b.Min, draw.Src)
	return dst
}

// scaleTo returns img as RGBA at w×h. It averages the source pixels under
// each target pixel: a box filter, device pixels down to CSS pixels.
func scaleTo(img image.Image, w, h int) *image.RGBA {
	b := img.Bounds()
	src, ok := img.(*image.RGBA)
	if !ok || b.Min != (image.Point{}) {
		src = image.NewRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
		draw.Draw(src, src.Bounds(), img, b.Min, draw.Src)
	}
	sw, sh := src.Bounds().Dx(), src.Bounds().Dy()
	if sw == w && sh == h {
		return src
	}
	dst := image.NewRGBA(image.Rect(0, 0, w, h))
	rx, ry := float64(sw)/float64(w), float64(sh)/float64(h)
	for y := 0; y < h; y++ {
		y0 := int(float64(y) * ry)
		y1 := max(y0+1, min(sh, int(math.Ceil(float64(y+1)*ry))))
		for x := 0; x < w; x++ {
			x0 := int(float64(x) * rx)
			x1 := max(x0+1, min(sw, int(math.Ceil(float64(x+1)*rx))))
			var r, g, bl, a, n uint32
			for sy := y0; sy < y1; sy++ {
				row := src.Pix[sy*src.Stride:]
				for sx := x0; sx < x1; sx++ {
					p := row[sx*4 : sx*4+4]
					r, g, bl, a = r+uint32(p[0]), g+uint32(p[1]), bl+uint32(p[2]), a+uint32(p[3])
					n++
				}
			}
			o := dst.Pix[y*dst.Stride+x*4:]
			o[0], o[1], o[2], o[3] = uint8(r/n), uint8(g/n), uint8(bl/n), uint8(a/n)
		}
	}
	return dst
}
