package screenshot_test

import (
	"bytes"
	"context"
	"image"
	"image/png"
	"math"
	"testing"
	"time"

	"domscope/cdpconn/cdptest"
	"domscope/dom"
	"domscope/dom/build"
	"domscope/dom/capture"
	"domscope/dom/demo"
	"domscope/dom/flatten"
	"domscope/dom/live"
	"domscope/dom/screenshot"
)

// TestScreenshotMarks: a screenshot of the demo components page is at the
// CSS size of the window. Every mark of the flattened view sits on its
// node's border box as DOM.getBoxModel reports it. Out-of-process frame
// nodes are shifted by their <iframe>. Every drawn outline is in the mark
// colour in the encoded PNG. The same holds at a device scale factor of
// 2, where the screenshot is scaled down to CSS pixels.
func TestScreenshotMarks(t *testing.T) {
	base, stop, err := demo.Serve()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stop)
	t.Run("plain", func(t *testing.T) { screenshotMarks(t, base, dom.Viewport{}) })
	t.Run("scale2", func(t *testing.T) { screenshotMarks(t, base, dom.Viewport{Width: 1000, Height: 700, Scale: 2}) })
}

func screenshotMarks(t *testing.T, base string, vp dom.Viewport) {
	page := cdptest.Page(t, base+"/components.html")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var err error
	if !vp.IsZero() {
		if err := live.Emulate(ctx, page, vp); err != nil {
			t.Fatal(err)
		}
	}

	// The cross-origin widget loads after the page: wait for its button.
	var snap *dom.Snapshot
	var sd *dom.SerializedDom
	for i := 0; ; i++ {
		snap, err = capture.Take(ctx, page, build.Options{})
		if err != nil {
			t.Fatal(err)
		}
		sd, _ = flatten.Flatten(snap, dom.DefaultOptions())
		if bytes.Contains([]byte(flatten.FormatText(sd)), []byte(`button "Subscribe"`)) {
			break
		}
		if i == 50 {
			t.Fatalf("the widget's Subscribe button never appeared:\n%s", flatten.FormatText(sd))
		}
		time.Sleep(100 * time.Millisecond)
	}

	pic, err := screenshot.Screenshot(ctx, page, nil)
	if err != nil {
		t.Fatal(err)
	}
	var win struct {
		Result struct {
			Value []float64 `json:"value"`
		} `json:"result"`
	}
	if err := page.Call(ctx, "Runtime.evaluate", map[string]any{"expression": "[innerWidth, innerHeight]", "returnByValue": true}, &win); err != nil || len(win.Result.Value) != 2 {
		t.Fatalf("reading the window size: %v %v", err, win.Result.Value)
	}
	marks := screenshot.Marks(snap, sd, pic)
	screenshot.DrawMarks(pic.Image, marks)
	var buf bytes.Buffer
	if err := png.Encode(&buf, pic.Image); err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := img.Bounds().Size(), image.Pt(int(win.Result.Value[0]), int(win.Result.Value[1])); got != want {
		t.Fatalf("PNG is %v, the CSS window %v", got, want)
	}
	if vp.Width != 0 && (img.Bounds().Dx() != vp.Width || img.Bounds().Dy() != vp.Height || pic.DeviceScale != vp.Scale) {
		t.Fatalf("PNG is %v at device scale %g; want the emulated %dx%d at %g", img.Bounds().Size(), pic.DeviceScale, vp.Width, vp.Height, vp.Scale)
	}

	// The sessions of the out-of-process frames, and where their viewports
	// sit in the page.
	frames, err := page.Frames(ctx)
	if err != nil {
		t.Fatal(err)
	}
	type frameAt struct {
		sess   dom.Session
		dx, dy float64
	}
	sessions := map[string]frameAt{page.TargetID(): {sess: page}}
	for _, f := range frames {
		var owner struct {
			BackendNodeID int64 `json:"backendNodeId"`
		}
		if err := page.Call(ctx, "DOM.getFrameOwner", map[string]any{"frameId": f.TargetID}, &owner); err != nil {
			t.Fatalf("owner of frame %s: %v", f.TargetID, err)
		}
		q := boxModel(t, ctx, page, owner.BackendNodeID, "content")
		sessions[f.TargetID] = frameAt{f.Session, q[0], q[1]}
	}

	var drawn, inFrame int
	for _, m := range marks {
		n := snap.Node(m.ID)
		fa, ok := sessions[n.TargetID]
		if !ok {
			t.Fatalf("%s: no session for target %s", m.ID, n.TargetID)
		}
		q := boxModel(t, ctx, fa.sess, n.BackendID, "border")
		x0, y0 := math.Min(q[0], q[6])+fa.dx, math.Min(q[1], q[3])+fa.dy
		x1, y1 := math.Max(q[2], q[4])+fa.dx, math.Max(q[5], q[7])+fa.dy
		want := [4]float64{x0 * pic.Zoom, y0 * pic.Zoom, x1 * pic.Zoom, y1 * pic.Zoom}
		got := [4]int{m.Box.Min.X, m.Box.Min.Y, m.Box.Max.X, m.Box.Max.Y}
		for i := range want {
			if math.Abs(float64(got[i])-want[i]) > 1 {
				t.Errorf("mark [%d] (%s %q): box %v, DOM.getBoxModel border %.1f", m.N, n.Tag, n.Name, m.Box, want)
				break
			}
		}
		onPicture := m.Box.Overlaps(img.Bounds())
		if m.Drawn != onPicture {
			t.Errorf("mark [%d]: drawn %v, but its box %v on the %v picture overlaps it: %v", m.N, m.Drawn, m.Box, img.Bounds().Size(), onPicture)
		}
		if !m.Drawn {
			continue
		}
		drawn++
		if n.TargetID != page.TargetID() {
			inFrame++
		}
		checkOutline(t, img, m, marks)
	}
	if drawn < 10 || inFrame == 0 {
		t.Fatalf("%d marks drawn, %d of them in the out-of-process frame; want at least 10 and one in the frame", drawn, inFrame)
	}
}

// boxModel returns one quad ("border", "content") of a node's box model.
func boxModel(t *testing.T, ctx context.Context, s dom.Session, backendID int64, quad string) []float64 {
	t.Helper()
	var bm struct {
		Model map[string]any `json:"model"`
	}
	if err := s.Call(ctx, "DOM.getBoxModel", map[string]any{"backendNodeId": backendID}, &bm); err != nil {
		t.Fatalf("DOM.getBoxModel of backend node %d: %v", backendID, err)
	}
	raw, _ := bm.Model[quad].([]any)
	if len(raw) != 8 {
		t.Fatalf("backend node %d: no %s quad in %v", backendID, quad, bm.Model)
	}
	q := make([]float64, 8)
	for i, v := range raw {
		q[i] = v.(float64)
	}
	return q
}

// checkOutline: every pixel of m's outline on the picture is in the mark
// colour. A label covers some of it, since labels are drawn over outlines.
func checkOutline(t *testing.T, img image.Image, m screenshot.Mark, marks []screenshot.Mark) {
	t.Helper()
	bad := 0
	for _, r := range screenshot.Outline(m.Box) {
		r = r.Intersect(img.Bounds())
		for y := r.Min.Y; y < r.Max.Y; y++ {
			for x := r.Min.X; x < r.Max.X; x++ {
				p := image.Pt(x, y)
				underLabel := false
				for _, o := range marks {
					if o.Drawn && p.In(o.Label) {
						underLabel = true
						break
					}
				}
				if underLabel {
					continue
				}
				r, g, b, a := img.At(x, y).RGBA()
				c := screenshot.MarkColor
				if r>>8 != uint32(c.R) || g>>8 != uint32(c.G) || b>>8 != uint32(c.B) || a>>8 != uint32(c.A) {
					bad++
				}
			}
		}
	}
	if bad > 0 {
		t.Errorf("mark [%d]: %d outline pixels are not the mark colour", m.N, bad)
	}
}
