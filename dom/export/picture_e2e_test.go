package export_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	. "domscope/dom"
	"domscope/dom/export"
	"domscope/dom/internal/domtest"
	"domscope/dom/live"
)

// An export keeps the page's last picture, the service's screenshot, and
// open reads it back. Every sensitive field of privacy-pixels.html is
// painted over in the picture read from the file: its pixels are the same
// as before any secret was set or typed. The file holds no secret.
func TestExportKeepsThePictureMasked(t *testing.T) {
	page := domtest.PixelPage(t, Viewport{Width: 900, Height: 560}, "")
	svc := live.NewService(page, live.Config{})
	t.Cleanup(func() { _ = svc.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if _, err := svc.Snapshot(ctx, true); err != nil {
		t.Fatal(err)
	}
	pic0, err := svc.Screenshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	domtest.PixelFill(t, page)
	snap, err := svc.Snapshot(ctx, true)
	if err != nil {
		t.Fatal(err)
	}
	pic1, err := svc.Screenshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	c, err := export.NewSavedCapture(snap, DefaultOptions(), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.SetPicture(pic1, snap.Seq); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "cap.json.gz")
	if err := c.WriteFile(path); err != nil {
		t.Fatal(err)
	}
	back, err := export.ReadCaptureFile(path)
	if err != nil {
		t.Fatal(err)
	}
	got, err := back.LoadPicture()
	if err != nil || got == nil {
		t.Fatalf("the export's picture: %v, %v", got, err)
	}
	if got.Image.Bounds() != pic1.Image.Bounds() || !bytes.Equal(got.Image.Pix, pic1.Image.Pix) || got.OriginY != pic1.OriginY || got.Zoom != pic1.Zoom {
		t.Fatalf("the picture read back differs from the one saved")
	}
	secrets := append(domtest.PixelSecrets(), domtest.PixelToggled)
	domtest.Report(t, "the exported picture", domtest.ComparePixels(pic0.Image, got.Image, got.ToImage, domtest.FieldBoxes(snap), secrets, domtest.PixelControls()))

	var file bytes.Buffer
	if err := back.Write(&file); err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(file.Bytes(), []byte("typed-secret-42")) {
		t.Error("the export holds the typed secret")
	}
	if _, err := os.Stat(path); err != nil {
		t.Fatal(err)
	}
}

// A file without a picture (an older version's) has none; a picture
// that claims a huge size is refused, not decoded.
func TestLoadPictureBounds(t *testing.T) {
	var c export.SavedCapture
	if p, err := c.LoadPicture(); p != nil || err != nil {
		t.Errorf("no picture: %v, %v", p, err)
	}
	// a PNG header for 100000×100000 pixels
	huge := []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\x0dIHDR\x00\x01\x86\xa0\x00\x01\x86\xa0\x08\x06\x00\x00\x00\x00\x00\x00\x00")
	c.Picture = &export.SavedPicture{PNG: huge}
	if _, err := c.LoadPicture(); err == nil {
		t.Error("a 100000×100000 picture was not refused")
	}
	c.Picture = &export.SavedPicture{PNG: []byte("not a png")}
	if _, err := c.LoadPicture(); err == nil {
		t.Error("a picture that is not a PNG was not refused")
	}
}
