package domtest

import (
	"context"
	"fmt"
	"image"
	"strings"
	"testing"
	"time"

	"domscope/cdpconn"
	"domscope/cdpconn/cdptest"
	"domscope/dom"
	"domscope/dom/build"
	"domscope/dom/capture"
	"domscope/dom/live"
)

// The sensitive fields of privacy-pixels.html, by id. The same kinds sit
// in five places. They are the page (m-), an open (o-) and a closed (c-)
// shadow root, and a same-origin (f-) and a cross-origin (x-) frame. The
// kinds:
//   - ta: a cc-number textarea.
//   - otc: a one-time code.
//   - ce: a contenteditable with autocomplete=cc-number.
//   - show: a current-password field that fill turns into text.
//   - pw: a password field (its dots tell the length).
var (
	PixelPlaces = []string{"m-", "o-", "c-", "f-", "x-"}
	PixelKinds  = []string{"ta", "otc", "ce", "show", "pw"}
)

// PixelToggled is a password field with no autocomplete that fill turns
// into text. Only a capture taken before says it is sensitive.
const PixelToggled = "m-toggle"

// PixelSecrets are the ids of every sensitive field of the page.
func PixelSecrets() []string {
	var out []string
	for _, p := range PixelPlaces {
		for _, k := range PixelKinds {
			out = append(out, p+k)
		}
	}
	return out
}

// PixelControls are the plain fields fill writes a public name into. A
// picture must change there, or it would not show the secrets either.
func PixelControls() []string {
	var out []string
	for _, p := range PixelPlaces {
		out = append(out, p+"plain")
	}
	return out
}

// PixelPage serves the testdata pages on two origins. It opens
// privacy-pixels.html at the emulated window vp, once both its frames are
// in a snapshot. query is added to the URL (to pick the tab).
func PixelPage(t *testing.T, vp dom.Viewport, query string) *cdpconn.Page {
	t.Helper()
	base, other := cdptest.Serve(t, Testdata("pages"))
	p := cdptest.Page(t, base+"/privacy-pixels.html?other="+other+query)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if !vp.IsZero() {
		if err := live.Emulate(ctx, p, vp); err != nil {
			t.Fatal(err)
		}
	}
	for i := 0; ; i++ {
		snap, err := capture.Take(ctx, p, build.Options{})
		if err != nil {
			t.Fatal(err)
		}
		b := FieldBoxes(snap)
		if b["x-ta"].W > 0 && b["f-ta"].W > 0 {
			return p
		}
		if i == 100 {
			t.Fatalf("the frames of privacy-pixels.html never loaded: %v", b)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// PixelFill puts secrets in every field of the page, and a public name in
// the plain ones. Then it types one more into the page's password.
func PixelFill(t *testing.T, p dom.Session) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var r struct {
		Result struct {
			Value bool `json:"value"`
		} `json:"result"`
	}
	if err := p.Call(ctx, "Runtime.evaluate", map[string]any{"expression": "fill('987654')", "awaitPromise": true, "returnByValue": true}, &r); err != nil || !r.Result.Value {
		t.Fatalf("filling the fields: %v %v", err, r.Result.Value)
	}
	EvalJS(t, p, "document.getElementById('m-pw').focus(), document.getElementById('m-pw').select()")
	if err := p.Call(ctx, "Input.insertText", map[string]any{"text": "typed-secret-42"}, nil); err != nil {
		t.Fatal(err)
	}
	if got := EvalString(t, p, "document.getElementById('m-pw').value"); got != "typed-secret-42" {
		t.Fatalf("typing into m-pw: it holds %q", got)
	}
}

// FieldBoxes maps the id attribute of every element of snap to its box.
func FieldBoxes(snap *dom.Snapshot) map[string]dom.Rect {
	out := map[string]dom.Rect{}
	dom.Walk(snap.Root, func(n *dom.VirtualNode) {
		if id := n.Attrs["id"]; id != "" && n.NodeType == dom.ElementNode {
			out[id] = n.Bounds
		}
	})
	return out
}

// ComparePixels compares a picture of the page without secrets and one
// with them. Each secret field's box must be the same, byte for byte; each
// control's box must not. ids are the secrets, found on the picture by
// place. It returns a line per failure.
func ComparePixels(without, with *image.RGBA, place func(dom.Rect) image.Rectangle, boxes map[string]dom.Rect, secrets, controls []string) []string {
	var bad []string
	area := without.Bounds().Intersect(with.Bounds())
	same := func(r image.Rectangle) (int, int) {
		diff, n := 0, 0
		for y := r.Min.Y; y < r.Max.Y; y++ {
			for x := r.Min.X; x < r.Max.X; x++ {
				n++
				i, j := without.PixOffset(x, y), with.PixOffset(x, y)
				if string(without.Pix[i:i+4]) != string(with.Pix[j:j+4]) {
					diff++
				}
			}
		}
		return diff, n
	}
	for _, id := range secrets {
		b, ok := boxes[id]
		r := place(b).Intersect(area)
		if !ok || r.Empty() {
			bad = append(bad, fmt.Sprintf("%s: not on the picture (box %v)", id, b))
			continue
		}
		if d, n := same(r); d > 0 {
			bad = append(bad, fmt.Sprintf("%s: %d of %d pixels of its box %v differ once it holds a secret", id, d, n, r))
		}
	}
	for _, id := range controls {
		r := place(boxes[id]).Intersect(area)
		if d, _ := same(r); r.Empty() || d == 0 {
			bad = append(bad, fmt.Sprintf("%s: the plain field's box %v did not change when filled: the comparison sees nothing", id, r))
		}
	}
	return bad
}

// Report fails t with the lines, if any.
func Report(t *testing.T, where string, bad []string) {
	t.Helper()
	if len(bad) > 0 {
		t.Errorf("%s:\n  %s", where, strings.Join(bad, "\n  "))
	}
}
