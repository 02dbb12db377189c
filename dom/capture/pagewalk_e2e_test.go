package capture

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"domscope/cdpconn/cdptest"
	"domscope/dom"
	"domscope/dom/build"
	"domscope/dom/flatten"
)

// walkPagesDir is the folder of HTML fixtures.
var walkPagesDir = filepath.Join("..", "..", "testdata", "pages")

func walkOpen(t *testing.T, path string) dom.Page {
	t.Helper()
	u127, ulocal := cdptest.Serve(t, walkPagesDir)
	return cdptest.Page(t, u127+"/"+strings.ReplaceAll(path, "{other}", ulocal))
}

func walkCtx(t *testing.T) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute) // a hang guard
	t.Cleanup(cancel)
	return ctx
}

// TestPageWalkClosedShadow: the walker reads inside closed shadow roots,
// which CDP hands it, and every node lines up with the DOM reply. The
// closed root's button gets its role from the walker, not a heuristic.
func TestPageWalkClosedShadow(t *testing.T) {
	p := walkOpen(t, "shadow.html")
	cdptest.WaitFor(t, p, `document.readyState === 'complete'`)
	snap, st, err := takePage(walkCtx(t), p, build.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if st.Walked != 1 || st.FellBack != 0 || st.Unmatched != 0 {
		t.Fatalf("walk stats %+v: want one frame walked, none fell back, all lined up", st)
	}
	var btn *dom.VirtualNode
	dom.Walk(snap.Root, func(n *dom.VirtualNode) {
		if n.Attrs["id"] == "closed-btn" {
			btn = n
		}
	})
	if btn == nil {
		t.Fatal("the closed shadow root's button is not in the tree")
	}
	if btn.Why != "ax:button" || btn.Name != "Closed shadow button" {
		t.Errorf("closed shadow button: why %q name %q, want ax:button and its text", btn.Why, btn.Name)
	}
}

// TestPageWalkSameView: on fixture pages the page path prints what the
// CDP path prints, in both views.
func TestPageWalkSameView(t *testing.T) {
	for _, page := range []string{"semantic.html", "nonsemantic.html", "shadow.html", "hidden.html"} {
		t.Run(page, func(t *testing.T) {
			p := walkOpen(t, page)
			cdptest.WaitFor(t, p, `document.readyState === 'complete'`)
			cdp, pg, d, err := ComparePaths(walkCtx(t), p, build.Options{})
			if err != nil {
				t.Fatal(err)
			}
			for _, kind := range []string{"role", "name", "tier", "states"} {
				if d.Counts[kind] != 0 {
					t.Errorf("%s differs on %d nodes:\n%s", kind, d.Counts[kind], d.Text())
				}
			}
			opts := dom.DefaultOptions()
			a, _ := flatten.Flatten(cdp, opts)
			b, _ := flatten.Flatten(pg, opts)
			if ta, tb := flatten.FormatText(a), flatten.FormatText(b); ta != tb {
				t.Errorf("text views differ:\n--- cdp\n%s\n--- page\n%s", ta, tb)
			}
		})
	}
}

// TestPageWalkPrivacy: no sensitive value leaves the page script. The
// walker's own answer, before the capture's scrub, holds none of the
// secrets of privacy-variants.html: served, set by script, typed, in a
// closed shadow root, in a label that embeds the field. The snapshot
// shows each filled field as Mask.
func TestPageWalkPrivacy(t *testing.T) {
	p := walkOpen(t, "privacy-variants.html?other={other}")
	ctx := walkCtx(t)
	cdptest.WaitFor(t, p, `document.readyState === 'complete' && document.getElementById('srcdoc').contentDocument.getElementById('g').value !== ''`)
	if err := p.Call(ctx, "Runtime.evaluate", map[string]any{"expression": "document.getElementById('typed').focus()"}, nil); err != nil {
		t.Fatal(err)
	}
	if err := p.Call(ctx, "Input.insertText", map[string]any{"text": "SECRET-TYPED-1116"}, nil); err != nil {
		t.Fatal(err)
	}
	// A label that embeds a sensitive field names it by its value.
	// A button labelled by that label holds the value in its name.
	add := `(() => { const l = document.createElement('label'); l.id = 'emb'; l.textContent = 'Embedded ';
		const i = document.createElement('input'); i.autocomplete = 'one-time-code'; i.value = 'SECRET-EMBEDDED-1119';
		l.append(i); document.body.append(l); const b = document.createElement('button');
		b.setAttribute('aria-labelledby', 'emb'); b.textContent = 'x'; document.body.append(b);
		// Names collapse spaces: a value with runs of them must still be masked.
		const l2 = document.createElement('label'); l2.id = 'emb2'; l2.textContent = 'Spaced ';
		const i2 = document.createElement('input'); i2.autocomplete = 'new-password'; i2.value = ' SPACED  SECRET  1121 ';
		l2.append(i2); document.body.append(l2); const b2 = document.createElement('button');
		b2.setAttribute('aria-labelledby', 'emb2'); b2.textContent = 'y'; document.body.append(b2);
		// A card number in a number field: its value text is the number.
		const n = document.createElement('input'); n.type = 'number'; n.autocomplete = 'cc-number';
		n.value = '4111111111111111'; document.body.append(n);
		// A select names itself by its option's text, not its value.
		const l3 = document.createElement('label'); l3.id = 'emb3'; l3.textContent = 'Month ';
		const s3 = document.createElement('select'); s3.autocomplete = 'cc-exp-month';
		s3.innerHTML = '<option value="01">January</option><option value="07" selected>SECRET-MONTH-JULY</option>';
		l3.append(s3); document.body.append(l3); const b3 = document.createElement('button');
		b3.setAttribute('aria-labelledby', 'emb3'); b3.textContent = 'z'; document.body.append(b3); })()`
	if err := p.Call(ctx, "Runtime.evaluate", map[string]any{"expression": add}, nil); err != nil {
		t.Fatal(err)
	}
	cdptest.WaitFor(t, p, `document.getElementById('typed').value === 'SECRET-TYPED-1116'`)

	w := newWalkPage(p)
	// The walker lines up with the document: fetch it as the capture does.
	var doc json.RawMessage
	if err := w.Call(ctx, "DOM.getDocument", map[string]any{"depth": -1, "pierce": true}, &doc); err != nil {
		t.Fatal(err)
	}
	answer, unmatched, err := w.walk(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	if unmatched != 0 {
		t.Errorf("%d nodes not lined up", unmatched)
	}
	// The srcdoc frame is walked in its own world.
	var ft struct {
		FrameTree struct {
			ChildFrames []struct {
				Frame struct {
					ID   string `json:"id"`
					Name string `json:"name"`
				} `json:"frame"`
			} `json:"childFrames"`
		} `json:"frameTree"`
	}
	if err := p.Call(ctx, "Page.getFrameTree", nil, &ft); err != nil {
		t.Fatal(err)
	}
	walked := 0
	for _, c := range ft.FrameTree.ChildFrames {
		more, _, err := w.walk(ctx, c.Frame.ID)
		if err != nil {
			continue // the cross-origin frame is another target
		}
		walked++
		if !strings.Contains(string(more), "Frame password") {
			t.Errorf("the srcdoc frame's walk did not name its field:\n%.2000s", more)
		}
		answer = append(answer, more...)
	}
	if walked != 1 {
		t.Errorf("walked %d child frames, want the srcdoc one", walked)
	}
	for _, s := range []string{"SECRET-", "SPACED", "4111111111111111", "6011111111111117", "•••••", `\u2022\u2022\u2022\u2022\u2022`} {
		if i := strings.Index(string(answer), s); i >= 0 {
			t.Errorf("the walker's answer leaks %q: …%s…", s, answer[max(0, i-120):min(len(answer), i+40)])
		}
	}
	if !strings.Contains(string(answer), "Shadow password") {
		_ = os.WriteFile("/tmp/walker-answer.json", answer, 0o600)
		t.Errorf("the walker did not name the closed shadow root's field")
	}

	snap, err := TakePage(ctx, p, build.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"typed", "upper-type", "s", "cur-pw"} {
		var n *dom.VirtualNode
		dom.Walk(snap.Root, func(x *dom.VirtualNode) {
			if x.Attrs["id"] == id && x.NodeType == dom.ElementNode {
				n = x
			}
		})
		if n == nil || n.States["value"] != dom.Mask {
			t.Errorf("field #%s: %+v, want value %q", id, n, dom.Mask)
		}
	}
	sd, _ := flatten.Flatten(snap, dom.DefaultOptions())
	if text := flatten.FormatText(sd); strings.Contains(text, "SECRET-") {
		t.Errorf("page path text view leaks a secret:\n%s", text)
	}
}
