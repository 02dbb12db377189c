package main

import (
	"context"
	"image"
	"image/draw"
	"image/png"
	"os"
	"path/filepath"
	"testing"
	"time"

	"domscope/cdpconn/cdptest"
	"domscope/dom"
	"domscope/dom/build"
	"domscope/dom/capture"
	"domscope/dom/live"
	"domscope/dom/screenshot"
)

// TestSnapshotScreenshotPaintsSecretsOver: `snapshot --screenshot`, with
// and without --marks, writes a PNG (mode 0600). The page is
// privacy-pixels.html. Its sensitive fields are a cc-number textarea, a
// one-time code, a contenteditable card number, a show-password field
// turned into text and a password. Each sits in the page, an open and a
// closed shadow root, and a same-origin and a cross-origin frame. Every
// such field is the same before and after secrets are set and typed. A
// plain field changes. The command attaches to the test's tab, so both
// pictures are of one layout.
func TestSnapshotScreenshotPaintsSecretsOver(t *testing.T) {
	ws := cdptest.Browser(t).WebSocketURL()
	base, other := cdptest.Serve(t, pages)
	page := cdptest.Page(t, base+"/privacy-pixels.html?other="+other+"&tab=cli-pixels")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if err := live.Emulate(ctx, page, dom.Viewport{Width: 900, Height: 560}); err != nil {
		t.Fatal(err)
	}
	var boxes map[string]dom.Rect
	for i := 0; ; i++ {
		snap, err := capture.Take(ctx, page, build.Options{})
		if err != nil {
			t.Fatal(err)
		}
		boxes = idBoxes(snap)
		if boxes["x-ta"].W > 0 && boxes["f-ta"].W > 0 {
			break
		}
		if i == 100 {
			t.Fatalf("the frames never loaded: %v", boxes)
		}
		time.Sleep(100 * time.Millisecond)
	}
	dir := t.TempDir()
	// a file already there, readable by all, is written 0600 too
	if err := os.WriteFile(filepath.Join(dir, "0.png"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	shoot := func(name string, marks bool) *image.RGBA {
		path := filepath.Join(dir, name)
		args := []string{"snapshot", "--endpoint", ws, "--target", "tab=cli-pixels", "--screenshot", path}
		if marks {
			args = append(args, "--marks")
		}
		if _, stderr, code := runCLI(t, "", args...); code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		st, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if m := st.Mode().Perm(); m != 0o600 {
			t.Errorf("%s is written %v, want 0600", name, m)
		}
		return readPNG(t, path)
	}
	plain0, marks0 := shoot("0.png", false), shoot("0m.png", true)
	fill := []struct{ expr string }{
		{"fill('987654')"},
		{"document.getElementById('m-pw').focus(), document.getElementById('m-pw').select()"},
	}
	for _, f := range fill {
		if err := page.Call(ctx, "Runtime.evaluate", map[string]any{"expression": f.expr, "awaitPromise": true}, nil); err != nil {
			t.Fatal(err)
		}
	}
	if err := page.Call(ctx, "Input.insertText", map[string]any{"text": "typed-secret-42"}, nil); err != nil {
		t.Fatal(err)
	}
	plain1, marks1 := shoot("1.png", false), shoot("1m.png", true)

	// The toggled password (type=password turned into text, with no
	// autocomplete) is left out. One snapshot sees it as plain text.
	var secrets []string
	for _, p := range []string{"m-", "o-", "c-", "f-", "x-"} {
		for _, k := range []string{"ta", "otc", "ce", "show", "pw"} {
			secrets = append(secrets, p+k)
		}
	}
	place := (&screenshot.Picture{Zoom: 1}).ToImage
	checkBoxes(t, "--screenshot", plain0, plain1, place, boxes, secrets, nil)
	// Two runs may number the marks differently. So the labels, at the top
	// left of each box (up to five digits), are skipped.
	label := func(p image.Point) bool {
		for _, id := range secrets {
			if p.In(image.Rectangle{Min: place(boxes[id]).Min, Max: place(boxes[id]).Min.Add(image.Pt(42, 14))}) {
				return true
			}
		}
		return false
	}
	checkBoxes(t, "--screenshot --marks", marks0, marks1, place, boxes, secrets, label)
	for _, p := range []string{"m-", "o-", "c-", "f-", "x-"} {
		if r := place(boxes[p+"plain"]); samePixels(plain0, plain1, r, nil) == 0 {
			t.Errorf("%splain: the plain field's box %v did not change when filled: the test sees nothing", p, r)
		}
	}
}

// checkBoxes fails for each secret whose box differs between a and b. The
// pixels skip passes over do not count.
func checkBoxes(t *testing.T, where string, a, b *image.RGBA, place func(dom.Rect) image.Rectangle, boxes map[string]dom.Rect, ids []string, skip func(image.Point) bool) {
	t.Helper()
	for _, id := range ids {
		r := place(boxes[id]).Intersect(a.Bounds())
		if r.Empty() {
			t.Errorf("%s: %s is not on the picture (%v)", where, id, boxes[id])
			continue
		}
		if d := samePixels(a, b, r, skip); d > 0 {
			t.Errorf("%s: %s: %d pixels of its box %v differ once it holds a secret", where, id, d, r)
		}
	}
}

// samePixels counts the pixels of r that differ between a and b.
func samePixels(a, b *image.RGBA, r image.Rectangle, skip func(image.Point) bool) int {
	n := 0
	r = r.Intersect(a.Bounds()).Intersect(b.Bounds())
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			pa, pb := a.Pix[a.PixOffset(x, y):][:4], b.Pix[b.PixOffset(x, y):][:4]
			if string(pa) != string(pb) && (skip == nil || !skip(image.Pt(x, y))) {
				n++
			}
		}
	}
	return n
}

// idBoxes maps the id attribute of every element to its box.
func idBoxes(snap *dom.Snapshot) map[string]dom.Rect {
	out := map[string]dom.Rect{}
	dom.Walk(snap.Root, func(n *dom.VirtualNode) {
		if id := n.Attrs["id"]; id != "" && n.NodeType == dom.ElementNode {
			out[id] = n.Bounds
		}
	})
	return out
}

// readPNG decodes a PNG file into RGBA.
func readPNG(t *testing.T, path string) *image.RGBA {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	out := image.NewRGBA(image.Rect(0, 0, img.Bounds().Dx(), img.Bounds().Dy()))
	draw.Draw(out, out.Bounds(), img, img.Bounds().Min, draw.Src)
	return out
}
