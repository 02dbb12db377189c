package dom_test

import (
	"context"
	"image"
	"testing"
	"time"

	"domscope/dom"
	"domscope/dom/internal/domtest"
)

// TestScreenshotPaintsSecretsOver: on a page with a cc-number textarea, a
// one-time code, a contenteditable card number, a show-password field
// turned into text and a password (its dots), in the page, an open and a
// closed shadow root, a same-origin and a cross-origin frame, every
// field's box is the same in a screenshot before and after secrets are
// set and typed, while a plain field's box changes. So is a password
// field with no autocomplete that the page turned into text, which only
// an earlier capture knows. Also at a device scale factor of 2 with the
// page scrolled, and with marks drawn.
func TestScreenshotPaintsSecretsOver(t *testing.T) {
	for _, c := range []struct {
		name   string
		vp     dom.Viewport
		scroll int
	}{
		{"plain", dom.Viewport{Width: 900, Height: 560}, 0},
		{"scale2-scrolled", dom.Viewport{Width: 900, Height: 480, Scale: 2}, 90},
	} {
		t.Run(c.name, func(t *testing.T) {
			page := domtest.PixelPage(t, c.vp, "")
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			if c.scroll != 0 {
				domtest.EvalJS(t, page, "scrollTo(0, 90)")
			}
			var known dom.SensitiveNodes
			var prev *dom.Snapshot // keeps the ids, and so the marks' numbers
			take := func() (*dom.Snapshot, *dom.Picture) {
				snap, err := dom.Take(ctx, page, dom.BuildOptions{Prev: prev})
				if err != nil {
					t.Fatal(err)
				}
				known.Add(snap)
				prev = snap
				pic, err := dom.Screenshot(ctx, page, &known)
				if err != nil {
					t.Fatal(err)
				}
				return snap, pic
			}
			snap0, pic0 := take()
			domtest.PixelFill(t, page)
			snap1, pic1 := take()
			if pic0.OriginY != float64(c.scroll) || pic1.OriginY != float64(c.scroll) {
				t.Fatalf("pictures at scroll %g and %g, want %d", pic0.OriginY, pic1.OriginY, c.scroll)
			}
			boxes := domtest.FieldBoxes(snap1)
			secrets := append(domtest.PixelSecrets(), domtest.PixelToggled)
			domtest.Report(t, "screenshot", domtest.ComparePixels(pic0.Image, pic1.Image, pic1.ToImage, boxes, secrets, domtest.PixelControls()))

			// the marks are drawn over the blocks, the same on both
			mark := func(snap *dom.Snapshot, pic *dom.Picture) *image.RGBA {
				img := image.NewRGBA(pic.Image.Bounds())
				copy(img.Pix, pic.Image.Pix)
				sd, _ := dom.Flatten(snap, dom.DefaultOptions())
				dom.DrawMarks(img, dom.Marks(snap, sd, pic))
				return img
			}
			domtest.Report(t, "screenshot with marks", domtest.ComparePixels(mark(snap0, pic0), mark(snap1, pic1), pic1.ToImage, boxes, secrets, domtest.PixelControls()))

			// each field is covered by a solid block
			for _, id := range secrets {
				r := pic1.ToImage(boxes[id])
				if c := pic1.Image.RGBAAt((r.Min.X+r.Max.X)/2, (r.Min.Y+r.Max.Y)/2); c != dom.MaskColor {
					t.Errorf("%s: the middle of its box %v is %v, not the mask colour", id, r, c)
				}
			}
		})
	}
}
