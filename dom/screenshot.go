package dom

import (
	"bytes"
	"context"
	"encoding/base64"
	"image"
	"image/draw"
	"image/png"
	"math"
)

// Picture is a screenshot of the page's viewport at its CSS size: one image
// pixel per CSS pixel of the window, whatever the device scale factor.
type Picture struct {
	Image *image.RGBA
	// OriginX, OriginY are the page-document coordinates (those of
	// VirtualNode.Bounds) of the image's top-left corner: the scroll
	// position of the visible part of the page.
	OriginX, OriginY float64
	// Zoom is image pixels per document CSS pixel: 1, or less when a
	// mobile page without a viewport meta tag is shown zoomed out.
	Zoom float64
	// DeviceScale is the device pixels per CSS pixel the browser drew at.
	DeviceScale float64
}

// ToImage maps a rectangle in page-document coordinates onto the picture.
func (p *Picture) ToImage(r Rect) image.Rectangle {
	x0 := (r.X - p.OriginX) * p.Zoom
	y0 := (r.Y - p.OriginY) * p.Zoom
	x1 := (r.X + r.W - p.OriginX) * p.Zoom
	y1 := (r.Y + r.H - p.OriginY) * p.Zoom
	return image.Rect(int(math.Round(x0)), int(math.Round(y0)), int(math.Round(x1)), int(math.Round(y1)))
}

// Screenshot captures the visible part of the page (Page.captureScreenshot)
// and scales it to CSS pixels.
func Screenshot(ctx context.Context, s Session) (*Picture, error) {
	var lm struct {
		Visual struct {
			PageX float64 `json:"pageX"`
			PageY float64 `json:"pageY"`
			Scale float64 `json:"scale"`
		} `json:"cssVisualViewport"`
	}
	if err := s.Call(ctx, "Page.getLayoutMetrics", nil, &lm); err != nil {
		return nil, Errorf(SnapshotFailed, err, "reading the viewport for a screenshot")
	}
	var ev struct {
		Result struct {
			Value float64 `json:"value"`
		} `json:"result"`
	}
	if err := s.Call(ctx, "Runtime.evaluate", map[string]any{"expression": "window.devicePixelRatio", "returnByValue": true}, &ev); err != nil {
		return nil, Errorf(SnapshotFailed, err, "reading the device scale factor")
	}
	var shot struct {
		Data string `json:"data"`
	}
	if err := s.Call(ctx, "Page.captureScreenshot", map[string]any{"format": "png"}, &shot); err != nil {
		return nil, Errorf(SnapshotFailed, err, "taking a screenshot")
	}
	raw, err := base64.StdEncoding.DecodeString(shot.Data)
	if err != nil {
		return nil, Errorf(SnapshotFailed, err, "the screenshot is not base64")
	}
	img, err := png.Decode(bytes.NewReader(raw))
	if err != nil {
		return nil, Errorf(SnapshotFailed, err, "the screenshot is not a PNG")
	}
	dpr := ev.Result.Value
	if dpr <= 0 || math.IsNaN(dpr) {
		dpr = 1
	}
	zoom := lm.Visual.Scale
	if zoom <= 0 || math.IsNaN(zoom) {
		zoom = 1
	}
	b := img.Bounds()
	w := max(1, int(math.Round(float64(b.Dx())/dpr)))
	h := max(1, int(math.Round(float64(b.Dy())/dpr)))
	return &Picture{Image: scaleTo(img, w, h), OriginX: lm.Visual.PageX, OriginY: lm.Visual.PageY, Zoom: zoom, DeviceScale: dpr}, nil
}

// scaleTo returns img as RGBA at w×h, averaging the source pixels under
// each target pixel (a box filter: device pixels down to CSS pixels).
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
