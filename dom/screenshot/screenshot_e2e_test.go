package screenshot_test

import (
	"context"
	"errors"
	"fmt"
	"image"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"domscope/cdpconn"
	"domscope/cdpconn/cdptest"
	"domscope/dom"
	"domscope/dom/build"
	"domscope/dom/capture"
	"domscope/dom/flatten"
	"domscope/dom/internal/domtest"
	"domscope/dom/live"
	"domscope/dom/screenshot"
)

// TestScreenshotPaintsSecretsOver uses a page of sensitive fields: a
// cc-number textarea, a one-time code, a contenteditable card number, a
// show-password field turned into text and a password (its dots). Each
// sits in the page, an open and a closed shadow root, and a same-origin
// and a cross-origin frame. Every field's box is the same in a screenshot
// before and after secrets are set and typed. A plain field's box
// changes. A password field with no autocomplete that the page turned
// into text stays the same too. Only an earlier capture knows it. The
// test runs again at a device scale factor of 2 with the page scrolled.
// It runs on a phone (the page, with no viewport tag, zoomed out), and
// with marks drawn.
func TestScreenshotPaintsSecretsOver(t *testing.T) {
	phone, err := dom.LookupDevice("iPhone 13")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name   string
		vp     dom.Viewport
		scroll int
	}{
		{"plain", dom.Viewport{Width: 900, Height: 560}, 0},
		{"scale2-scrolled", dom.Viewport{Width: 900, Height: 480, Scale: 2}, 90},
		{"phone", phone, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			page := domtest.PixelPage(t, c.vp, "")
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			if c.scroll != 0 {
				domtest.EvalJS(t, page, "scrollTo(0, 90)")
			}
			var known screenshot.SensitiveNodes
			var prev *dom.Snapshot // keeps the ids, and so the marks' numbers
			take := func() (*dom.Snapshot, *screenshot.Picture) {
				snap, err := capture.Take(ctx, page, build.Options{Prev: prev})
				if err != nil {
					t.Fatal(err)
				}
				known.Add(snap)
				prev = snap
				pic, err := screenshot.Screenshot(ctx, page, &known)
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
			t.Logf("zoom %g, device scale %g, %v", pic1.Zoom, pic1.DeviceScale, pic1.Image.Bounds())
			boxes := domtest.FieldBoxes(snap1)
			secrets := append(domtest.PixelSecrets(), domtest.PixelToggled)
			domtest.Report(t, "screenshot", domtest.ComparePixels(pic0.Image, pic1.Image, pic1.ToImage, boxes, secrets, domtest.PixelControls()))

			// the marks are drawn over the blocks, the same on both
			mark := func(snap *dom.Snapshot, pic *screenshot.Picture) *image.RGBA {
				img := image.NewRGBA(pic.Image.Bounds())
				copy(img.Pix, pic.Image.Pix)
				sd, _ := flatten.Flatten(snap, dom.DefaultOptions())
				screenshot.DrawMarks(img, screenshot.Marks(snap, sd, pic))
				return img
			}
			domtest.Report(t, "screenshot with marks", domtest.ComparePixels(mark(snap0, pic0), mark(snap1, pic1), pic1.ToImage, boxes, secrets, domtest.PixelControls()))

			// each field is covered by a solid block
			for _, id := range secrets {
				r := pic1.ToImage(boxes[id])
				if c := pic1.Image.RGBAAt((r.Min.X+r.Max.X)/2, (r.Min.Y+r.Max.Y)/2); c != screenshot.MaskColor {
					t.Errorf("%s: the middle of its box %v is %v, not the mask colour", id, r, c)
				}
			}
		})
	}
}

// movingPage has two one-time-code fields that keep moving, each with red
// text on white. One moves by its layout (left), one by a transform.
const movingPage = `<!doctype html><html><head><meta charset="utf-8"><title>Moving</title><style>
body { margin: 0; }
input { position: relative; display: block; width: 160px; height: 30px; margin: 20px; color: #ff0000;
  background: #ffffff; font: bold 20px monospace; border: 0; outline: none; }
#a { animation: slide 3s linear infinite; }
#b { animation: spin 3s linear infinite; }
@keyframes slide { from { left: 0 } to { left: 500px } }
@keyframes spin { from { transform: translateX(0) } to { transform: translateX(500px) } }
</style></head><body>
<input id="a" autocomplete="one-time-code" value="RRRRRRRRRR">
<input id="b" autocomplete="one-time-code" value="RRRRRRRRRR">
<input id="c" value="RRRR">
</body></html>`

// TestScreenshotCoversMovingFields: fields that never stop moving (by
// layout and by a transform, wrapping round) are never drawn. Each
// picture is refused, saying why, or shows no red pixel of their text.
// The plain field's red text shows.
func TestScreenshotCoversMovingFields(t *testing.T) {
	page := pageOf(t, "moving.html", movingPage)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	refused := 0
	for i := range 5 {
		pic, err := screenshot.Screenshot(ctx, page, nil)
		if err != nil {
			if !strings.Contains(err.Error(), "kept moving") {
				t.Fatalf("picture %d: %v", i, err)
			}
			refused++
			continue
		}
		// a is at y 20-52, b at 72-104, the plain field at 124-156
		if n := redPixels(pic.Image, image.Rect(0, 0, 800, 114)); n > 0 {
			t.Fatalf("picture %d: %d red pixels of the moving fields' text show", i, n)
		}
		if n := redPixels(pic.Image, image.Rect(0, 114, 800, 300)); n == 0 {
			t.Fatalf("picture %d: the plain field's red text does not show: the test sees nothing", i)
		}
	}
	t.Logf("%d of 5 pictures refused", refused)
}

// jumpPage has a one-time-code field with red text, which the test moves
// while a picture is taken. It also has a plain field with red text.
const jumpPage = `<!doctype html><html><head><meta charset="utf-8"><title>Jumping</title><style>
body { margin: 0; }
input { position: absolute; width: 160px; height: 30px; margin: 0; color: #ff0000; background: #ffffff;
  font: bold 20px monospace; border: 0; outline: none; }
</style></head><body>
<input id="a" autocomplete="one-time-code" value="RRRRRRRRRR" style="left: 0; top: 20px">
<input id="c" value="RRRR" style="left: 0; top: 124px">
</body></html>`

// jumpAtShot is a page whose field #a jumps to 500px just before the
// first picture is taken. It jumps to 100px just after it. The two looks
// for the fields find it at 0 and 100, never where it was drawn.
type jumpAtShot struct {
	*cdpconn.Page
	shots *int
}

func (j jumpAtShot) Call(ctx context.Context, method string, params, result any) error {
	if method != "Page.captureScreenshot" {
		return j.Page.Call(ctx, method, params, result)
	}
	*j.shots++
	move := func(x int) error {
		return j.Page.Call(ctx, "Runtime.evaluate", map[string]any{"expression": fmt.Sprintf("document.getElementById('a').style.left = '%dpx'; document.body.offsetTop", x)}, nil)
	}
	if *j.shots == 1 {
		if err := move(500); err != nil {
			return err
		}
	}
	err := j.Page.Call(ctx, method, params, result)
	if *j.shots == 1 {
		if err := move(100); err != nil {
			return err
		}
	}
	return err
}

// TestScreenshotRetakesWhenFieldsMove: a field that moves while the
// picture is taken is not drawn, as one that moves between the two
// looks is not. The picture is taken again once it stands still.
func TestScreenshotRetakesWhenFieldsMove(t *testing.T) {
	page := pageOf(t, "jump.html", jumpPage)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	shots := 0
	pic, err := screenshot.Screenshot(ctx, jumpAtShot{page, &shots}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if n := redPixels(pic.Image, image.Rect(0, 0, 800, 114)); n > 0 {
		t.Errorf("%d red pixels of the moved field's text show", n)
	}
	if n := redPixels(pic.Image, image.Rect(0, 114, 800, 300)); n == 0 {
		t.Errorf("the plain field's red text does not show: the test sees nothing")
	}
	if shots != 2 {
		t.Errorf("%d pictures taken, want 2", shots)
	}
}

// pageOf serves html as name and opens it in an 800×300 window.
func pageOf(t *testing.T, name, html string) *cdpconn.Page {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, name), []byte(html), 0o600); err != nil {
		t.Fatal(err)
	}
	base, _ := cdptest.Serve(t, dir)
	page := cdptest.Page(t, base+"/"+name)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := live.Emulate(ctx, page, dom.Viewport{Width: 800, Height: 300}); err != nil {
		t.Fatal(err)
	}
	return page
}

// redPixels counts the pixels of r that are red text.
func redPixels(img *image.RGBA, r image.Rectangle) int {
	n := 0
	r = r.Intersect(img.Bounds())
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if c := img.RGBAAt(x, y); c.R > 180 && c.G < 110 && c.B < 110 {
				n++
			}
		}
	}
	return n
}

// brokenFrames is a page whose out-of-process frames cannot be read
// (their DOMSnapshot fails). With hide, they are not listed at all.
type brokenFrames struct {
	*cdpconn.Page
	hide bool
}

func (b brokenFrames) Frames(ctx context.Context) ([]dom.FrameTarget, error) {
	fs, err := b.Page.Frames(ctx)
	if b.hide {
		return nil, err
	}
	for i := range fs {
		fs[i].Session = noSnapshot{fs[i].Session}
	}
	return fs, err
}

type noSnapshot struct{ dom.Session }

func (n noSnapshot) Call(ctx context.Context, method string, params, result any) error {
	if method == "DOMSnapshot.captureSnapshot" {
		return errors.New("test: no snapshot here")
	}
	return n.Session.Call(ctx, method, params, result)
}

// TestScreenshotCoversFramesItCannotRead: a cross-origin frame whose
// fields cannot be found is painted over whole. Its DOMSnapshot fails, or
// it is not listed as a target. The same-origin frame is not painted.
func TestScreenshotCoversFramesItCannotRead(t *testing.T) {
	page := domtest.PixelPage(t, dom.Viewport{Width: 900, Height: 560}, "")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	snap, err := capture.Take(ctx, page, build.Options{})
	if err != nil {
		t.Fatal(err)
	}
	boxes := domtest.FieldBoxes(snap)
	for _, hide := range []bool{false, true} {
		pic, err := screenshot.Screenshot(ctx, brokenFrames{page, hide}, nil)
		if err != nil {
			t.Fatal(err)
		}
		whole := func(id string) bool {
			r := pic.ToImage(boxes[id])
			for y := r.Min.Y; y < r.Max.Y; y++ {
				for x := r.Min.X; x < r.Max.X; x++ {
					if pic.Image.RGBAAt(x, y) != screenshot.MaskColor {
						return false
					}
				}
			}
			return !r.Empty()
		}
		if !whole("cross") {
			t.Errorf("hide=%v: the cross-origin frame %v is not painted over whole", hide, boxes["cross"])
		}
		if whole("same") || whole("f-plain") {
			t.Errorf("hide=%v: the same-origin frame, which can be read, is painted over whole", hide)
		}
	}
}

// TestScreenshotRefusesWithoutFields: the page's own fields cannot be
// found. Then there is no picture, only an error.
func TestScreenshotRefusesWithoutFields(t *testing.T) {
	page := domtest.PixelPage(t, dom.Viewport{}, "")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	pic, err := screenshot.Screenshot(ctx, blindPage{page}, nil)
	if err == nil || pic != nil {
		t.Fatalf("a screenshot without finding the fields: %v, %v", pic, err)
	}
	if !strings.Contains(err.Error(), "sensitive fields") {
		t.Errorf("the error does not say why: %v", err)
	}
}

// blindPage is a page whose DOMSnapshot fails.
type blindPage struct{ *cdpconn.Page }

func (b blindPage) Call(ctx context.Context, method string, params, result any) error {
	return noSnapshot{b.Page}.Call(ctx, method, params, result)
}

// BenchmarkScreenshot measures screenshot.Screenshot next to
// Page.captureScreenshot alone, on the synthetic corpus pages. The first
// looks for the sensitive fields twice, around the picture. It reports
// plain-ms and masked-ms. On Linux it also reports the CPU time of the
// browser and the test (plain-cpu-ms, masked-cpu-ms). A busy machine
// distorts that less.
//
//	go test ./dom -run '^$' -bench BenchmarkScreenshot -benchtime 5x
func BenchmarkScreenshot(b *testing.B) {
	for _, name := range []string{"synthetic-1000", "synthetic-10000", "synthetic-50000"} {
		b.Run(name, func(b *testing.B) {
			dir := filepath.Join(cdptest.Shared(b), "corpus", "synthetic")
			u, _ := cdptest.Serve(b, dir)
			p := cdptest.Page(b, u+"/"+name+".html")
			ctx := context.Background()
			pid := 0
			if proc := cdptest.Browser(b).Process(); proc != nil {
				pid = proc.Pid
			}
			var plain, masked, plainCPU, maskedCPU time.Duration
			for b.Loop() {
				c0, _ := domtest.BrowserCPUTime(pid)
				t0 := time.Now()
				if err := p.Call(ctx, "Page.captureScreenshot", map[string]any{"format": "png"}, nil); err != nil {
					b.Fatal(err)
				}
				t1 := time.Now()
				c1, _ := domtest.BrowserCPUTime(pid)
				if _, err := screenshot.Screenshot(ctx, p, nil); err != nil {
					b.Fatal(err)
				}
				c2, _ := domtest.BrowserCPUTime(pid)
				plain += t1.Sub(t0)
				masked += time.Since(t1)
				plainCPU += c1 - c0
				maskedCPU += c2 - c1
			}
			n := float64(b.N)
			b.ReportMetric(float64(plain.Milliseconds())/n, "plain-ms")
			b.ReportMetric(float64(masked.Milliseconds())/n, "masked-ms")
			b.ReportMetric(float64(plainCPU.Milliseconds())/n, "plain-cpu-ms")
			b.ReportMetric(float64(maskedCPU.Milliseconds())/n, "masked-cpu-ms")
		})
	}
}
