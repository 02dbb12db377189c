package live_test

import (
	"context"
	"testing"
	"time"

	"domscope/dom"
	"domscope/dom/internal/domtest"
	"domscope/dom/live"
	"domscope/dom/screenshot"
)

// TestServiceScreenshotPaintsSecretsOver: the picture pane's source is
// the service's Screenshot. It shows every sensitive field of
// privacy-pixels.html the same before and after secrets are set and
// typed. That covers the page, open and closed shadow roots, and
// same-origin and cross-origin frames. The password field the page
// turned into text stays covered: a snapshot of the service saw it as a
// password before.
func TestServiceScreenshotPaintsSecretsOver(t *testing.T) {
	page := domtest.PixelPage(t, dom.Viewport{Width: 900, Height: 560}, "")
	svc := live.NewService(page, live.Config{})
	t.Cleanup(func() { _ = svc.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	shoot := func() (*dom.Snapshot, *screenshot.Picture) {
		snap, err := svc.Snapshot(ctx, true)
		if err != nil {
			t.Fatal(err)
		}
		pic, err := svc.Screenshot(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return snap, pic
	}
	_, pic0 := shoot()
	domtest.PixelFill(t, page)
	snap1, pic1 := shoot()
	secrets := append(domtest.PixelSecrets(), domtest.PixelToggled)
	domtest.Report(t, "the service's screenshot", domtest.ComparePixels(pic0.Image, pic1.Image, pic1.ToImage, domtest.FieldBoxes(snap1), secrets, domtest.PixelControls()))
}
