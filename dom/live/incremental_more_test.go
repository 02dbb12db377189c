package live_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"domscope/cdpconn/cdptest"
	. "domscope/dom"
	"domscope/dom/demo"
	"domscope/dom/flatten"
	"domscope/dom/internal/domtest"
	. "domscope/dom/live"
)

// TestIncrementalDemo acts on the demo pages and compares each snapshot
// with a full capture. components.html embeds a cross-origin frame: its
// reads are full captures by design, and still compared.
func TestIncrementalDemo(t *testing.T) {
	base, stop, err := demo.Serve()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stop)
	byTag := func(s *Snapshot, tag, attr, val string) *VirtualNode {
		return findNode(s, func(n *VirtualNode) bool { return n.Tag == tag && (attr == "" || n.Attrs[attr] == val) })
	}
	steps := map[string]func(t *testing.T, tw *twin){
		"index.html": func(t *testing.T, tw *twin) {
			tw.do(t, Action{Kind: "hover", ID: byTag(snap(t, tw.svc), "a", "class", "card").ID}, "hover a card")
		},
		"signin.html": func(t *testing.T, tw *twin) {
			tw.do(t, Action{Kind: "type", ID: byAttrID(t, snap(t, tw.svc), "email").ID, Text: "ann@example.com"}, "type email")
			tw.do(t, Action{Kind: "type", ID: byAttrID(t, snap(t, tw.svc), "password").ID, Text: "hunter2-Secret"}, "type password")
			tw.do(t, Action{Kind: "click", ID: byTag(snap(t, tw.svc), "input", "type", "checkbox").ID}, "untick remember")
		},
		"products.html": func(t *testing.T, tw *twin) {
			tw.do(t, Action{Kind: "type", ID: byAttrID(t, snap(t, tw.svc), "q").ID, Text: "la"}, "search")
		},
		"todo.html": func(t *testing.T, tw *twin) {
			for _, s := range []string{"Milk\n", "Bread\n"} {
				tw.do(t, Action{Kind: "type", ID: byAttrID(t, snap(t, tw.svc), "new").ID, Text: s}, "add "+s)
			}
			if box := byTag(snap(t, tw.svc), "input", "type", "checkbox"); box != nil {
				tw.do(t, Action{Kind: "click", ID: box.ID}, "tick")
			}
			tw.do(t, Action{Kind: "click", ID: byAttrID(t, snap(t, tw.svc), "clear").ID}, "clear")
		},
		"components.html": func(t *testing.T, tw *twin) {
			if b := byTag(snap(t, tw.svc), "button", "", ""); b != nil {
				tw.do(t, Action{Kind: "click", ID: b.ID}, "click a button")
			}
		},
	}
	for _, page := range demo.Pages {
		t.Run(page, func(t *testing.T) {
			svc, p := openService(t, base+"/"+page, Config{})
			tw := newTwin(t, svc, p)
			tw.check(t, "first")
			steps[page](t, tw)
			t.Logf("%s: %d incremental, %d full", page, tw.incremental, tw.full)
			if tw.incremental == 0 {
				t.Errorf("no snapshot was incremental")
			}
		})
	}
}

// TestIncrementalSynthetic clicks and types on synthetic-10000.
func TestIncrementalSynthetic(t *testing.T) {
	base, _ := cdptest.Serve(t, filepath.Join(cdptest.Shared(t), "corpus", "synthetic"))
	svc, p := openService(t, base+"/synthetic-10000.html", Config{})
	tw := newTwin(t, svc, p)
	tw.check(t, "first")
	s := snap(t, svc)
	var buttons, boxes []*VirtualNode
	walk(s.Root, func(n *VirtualNode) bool {
		switch {
		case n.Tag == "button" && len(buttons) < 2:
			buttons = append(buttons, n)
		case n.Tag == "input" && (n.Attrs["type"] == "" || n.Attrs["type"] == "text") && len(boxes) < 2:
			boxes = append(boxes, n)
		}
		return true
	})
	if len(buttons) == 0 || len(boxes) == 0 {
		t.Fatalf("synthetic-10000: %d buttons, %d text fields", len(buttons), len(boxes))
	}
	for i, b := range buttons {
		tw.do(t, Action{Kind: "click", ID: b.ID}, "click button "+strconv.Itoa(i))
	}
	for i, b := range boxes {
		tw.do(t, Action{Kind: "type", ID: b.ID, Text: "typed text"}, "type "+strconv.Itoa(i))
	}
	t.Logf("%d incremental, %d full", tw.incremental, tw.full)
	if tw.incremental == 0 {
		t.Errorf("no snapshot was incremental")
	}
}

// selfChanging re-renders its list on a timer. A test unticks its
// checkbox from script: a property change, with no DOM event at all.
const selfChanging = `<!doctype html><title>ticker</title>
<label><input type=checkbox id=box checked> follow</label>
<ul id=list></ul><button id=stop onclick="clearInterval(window.timer)">stop</button>
<script>
let n = 0;
function render() {
  n++;
  const ul = document.getElementById('list');
  ul.replaceChildren(...[0, 1, 2].map(i => { const li = document.createElement('li'); li.textContent = 'tick ' + (n + i); return li; }));
}
render();
window.timer = setInterval(render, 150);
</script>`

// TestIncrementalSelfChanging: a page that changes by itself, with no
// action of ours; each read between changes is compared with a full one.
func TestIncrementalSelfChanging(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "ticker.html"), []byte(selfChanging), 0o644); err != nil {
		t.Fatal(err)
	}
	base, _ := cdptest.Serve(t, dir)
	svc, p := openService(t, base+"/ticker.html", Config{})
	tw := newTwin(t, svc, p)
	first := nodeText(snap(t, svc).Root)
	// Stop the timer from the other session, then read. The list has
	// changed since the first snapshot without any action of the service.
	time.Sleep(400 * time.Millisecond)
	domtest.EvalJS(t, tw.page, "clearInterval(window.timer), true")
	time.Sleep(100 * time.Millisecond)
	s, err := svc.Snapshot(ctx(t), true)
	if err != nil {
		t.Fatal(err)
	}
	if !s.Incremental {
		t.Errorf("the read after the timer was a full capture: %s", svc.Fallback())
	}
	if nodeText(s.Root) == first {
		t.Errorf("the snapshot did not see the list change")
	}
	tw.check(t, "after the timer")
	domtest.EvalJS(t, tw.page, "document.getElementById('box').checked = false, true")
	s, err = svc.Snapshot(ctx(t), true)
	if err != nil {
		t.Fatal(err)
	}
	box := byAttrID(t, s, "box")
	if box.States["checked"] != "false" {
		t.Errorf("after el.checked=false the box reads %v", box.States)
	}
	tw.check(t, "after el.checked=false")
}

// everyOutput is each format of s, with the default options and with
// every option on, and its raw capture written out. Those are where a
// secret could leak.
func everyOutput(t *testing.T, s *Snapshot) map[string]string {
	t.Helper()
	outs := outputs(t, s)
	all := Options{IncludeValues: true, IncludeHidden: true, IncludeOffscreen: true, IncludeBoundingBoxes: true, IncludeBackendIDs: true}
	sd, _ := flatten.Flatten(s, all)
	js, _ := flatten.FormatJSON(sd)
	outs["json, every option"] = string(js)
	outs["text, every option"] = flatten.FormatText(sd)
	capt, err := s.Capture()
	if err != nil {
		t.Fatalf("the raw capture: %v", err)
	}
	raw, err := json.Marshal(capt)
	if err != nil {
		t.Fatalf("the raw capture: %v", err)
	}
	outs["raw capture"] = string(raw)
	return outs
}

// TestIncrementalPrivacy types a secret into a password field with the
// live model on: no output of any incremental snapshot holds it.
func TestIncrementalPrivacy(t *testing.T) {
	base, stop, err := demo.Serve()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stop)
	const secret = "Pa55-w0rd-Zebra"
	svc, p := openService(t, base+"/signin.html", Config{})
	tw := newTwin(t, svc, p)
	tw.do(t, Action{Kind: "type", ID: byAttrID(t, snap(t, svc), "password").ID, Text: secret}, "type the secret")
	tw.do(t, Action{Kind: "click", ID: byAttrID(t, snap(t, svc), "email").ID}, "click email")
	// The page copies the value into its own text: a name, an attribute.
	domtest.EvalJS(t, tw.page, "document.title = document.getElementById('password').value.slice(0, 4) + 'x', true")
	s, err := svc.Snapshot(ctx(t), true)
	if err != nil {
		t.Fatal(err)
	}
	if !s.Incremental {
		t.Errorf("not incremental: %s", svc.Fallback())
	}
	if got := byAttrID(t, s, "password").States["value"]; got != Mask {
		t.Errorf("the password field's value reads %q, want the mask", got)
	}
	outs := everyOutput(t, s)
	for k, v := range outs {
		if strings.Contains(v, secret) {
			t.Errorf("the %s output holds the password", k)
		}
	}
}
