package export

import (
	"bytes"
	"image"
	"image/draw"
	"image/png"

	"domscope/dom"
	"domscope/dom/screenshot"
)

// SavedPicture is the page's last picture, as the UI's P showed it. It is
// the service's screenshot: sensitive fields are already painted over.
// So `open` shows it with P, with no browser.
type SavedPicture struct {
	PNG []byte `json:"png"` // base64 in the file
	// Seq is the snapshot the picture was taken after. It may be older
	// than the capture saved with it.
	Seq         int     `json:"seq,omitempty"`
	OriginX     float64 `json:"originX,omitempty"`
	OriginY     float64 `json:"originY,omitempty"`
	Zoom        float64 `json:"zoom,omitempty"`
	DeviceScale float64 `json:"deviceScale,omitempty"`
}

// maxPicturePixels bounds a saved picture once decoded: a hostile file
// must not make open allocate gigabytes. A 4K screen at 2x is 33 MP.
const maxPicturePixels = 64 << 20

// SetPicture keeps p (taken after snapshot seq) in the capture. nil keeps
// none.
func (c *SavedCapture) SetPicture(p *screenshot.Picture, seq int) error {
	if p == nil || p.Image == nil {
		c.Picture = nil
		return nil
	}
	var b bytes.Buffer
	if err := png.Encode(&b, p.Image); err != nil {
		return dom.Errorf(dom.ValidationError, err, "could not encode the picture")
	}
	c.Picture = &SavedPicture{PNG: b.Bytes(), Seq: seq, OriginX: p.OriginX, OriginY: p.OriginY, Zoom: p.Zoom, DeviceScale: p.DeviceScale}
	return nil
}

// LoadPicture decodes the saved picture. It is nil when the file has
// none (saved with no picture taken, or by an older version).
func (c *SavedCapture) LoadPicture() (*screenshot.Picture, error) {
	sp := c.Picture
	if sp == nil || len(sp.PNG) == 0 {
		return nil, nil
	}
	cfg, err := png.DecodeConfig(bytes.NewReader(sp.PNG))
	if err != nil {
		return nil, dom.Errorf(dom.ValidationError, err, "the saved picture is not a PNG")
	}
	if cfg.Width <= 0 || cfg.Height <= 0 || int64(cfg.Width)*int64(cfg.Height) > maxPicturePixels {
		return nil, dom.Errorf(dom.ValidationError, nil, "the saved picture is %d×%d pixels, more than a screenshot has", cfg.Width, cfg.Height)
	}
	img, err := png.Decode(bytes.NewReader(sp.PNG))
	if err != nil {
		return nil, dom.Errorf(dom.ValidationError, err, "the saved picture cannot be decoded")
	}
	rgba, ok := img.(*image.RGBA)
	if !ok {
		rgba = image.NewRGBA(img.Bounds())
		draw.Draw(rgba, rgba.Bounds(), img, img.Bounds().Min, draw.Src)
	}
	zoom, scale := sp.Zoom, sp.DeviceScale
	if zoom <= 0 {
		zoom = 1
	}
	if scale <= 0 {
		scale = 1
	}
	return &screenshot.Picture{Image: rgba, OriginX: sp.OriginX, OriginY: sp.OriginY, Zoom: zoom, DeviceScale: scale}, nil
}
