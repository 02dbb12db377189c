package live_test

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"domscope/cdpconn/cdptest"
	. "domscope/dom"
	. "domscope/dom/live"
)

func TestClickKinds(t *testing.T) {
	base, _ := cdptest.Serve(t, actionPages)
	svc, p := openService(t, base+"/basic.html", Config{})
	mustOK(t, do(t, svc, "accept", Action{Kind: "click"})) // the cookie banner
	res := do(t, svc, "inc", Action{Kind: "click"})
	mustOK(t, res)
	if v := evalJS(t, p, "window.clicks"); v != float64(1) {
		t.Fatalf("clicks = %v", v)
	}
	if !res.Changes.DomChanged {
		t.Errorf("changing the button's text did not count as a DOM change: %+v", res.Changes)
	}
	if svc.Current() == nil || svc.Current().Seq <= 1 {
		t.Errorf("no re-snapshot after a successful click")
	}
	mustOK(t, do(t, svc, "dbl", Action{Kind: "click", ClickCount: 2}))
	if v := evalJS(t, p, "window.dblCount"); v != float64(1) {
		t.Fatalf("dblclick count = %v", v)
	}
	mustOK(t, do(t, svc, "ctx", Action{Kind: "click", Button: "right"}))
	if v := evalJS(t, p, "window.ctxmenu"); v != true {
		t.Fatalf("right click did not open the context menu handler")
	}
	mustOK(t, do(t, svc, "mod", Action{Kind: "click", Modifiers: []string{"Ctrl", "shift"}}))
	if v := evalString(t, p, "window.mods"); v != "true,true,false,false" {
		t.Fatalf("modifiers seen by the page: %s", v)
	}
	// A label click checks its checkbox; a checkbox click too.
	mustOK(t, do(t, svc, "agree", Action{Kind: "click"}))
	if v := evalJS(t, p, "document.getElementById('agree').checked"); v != true {
		t.Fatalf("checkbox not checked")
	}
	// Far down the page: scrolled into view first.
	mustOK(t, do(t, svc, "farbtn", Action{Kind: "click"}))
	if v := evalJS(t, p, "window.far"); v != true {
		t.Fatalf("far button not clicked")
	}
	// Hidden: not interactable.
	mustCode(t, do(t, svc, "hidden", Action{Kind: "click"}), NotInteractable)
	mustCode(t, do(t, svc, "inc", Action{Kind: "click", Button: "sideways"}), ValidationError)
}

func TestClickAddsNodes(t *testing.T) {
	base, _ := cdptest.Serve(t, actionPages)
	svc, _ := openService(t, base+"/basic.html", Config{})
	mustOK(t, do(t, svc, "accept", Action{Kind: "click"}))
	res := do(t, svc, "spawn", Action{Kind: "click"})
	mustOK(t, res)
	if res.Changes.Added < 1 || !res.Changes.DomChanged {
		t.Fatalf("spawning a button: changes %+v", res.Changes)
	}
	if findAttr(snap(t, svc), "id", "spawned") == nil {
		t.Fatalf("the new button is not in the re-snapshot")
	}
}

func TestHover(t *testing.T) {
	base, _ := cdptest.Serve(t, actionPages)
	svc, p := openService(t, base+"/basic.html", Config{})
	mustOK(t, do(t, svc, "hoverme", Action{Kind: "hover"}))
	if v := evalJS(t, p, "window.hovered"); v != true {
		t.Fatalf("mouseover not seen")
	}
}

func TestClickInClosedShadowRoot(t *testing.T) {
	base, _ := cdptest.Serve(t, actionPages)
	svc, p := openService(t, base+"/shadow.html", Config{})
	mustOK(t, do(t, svc, "openbtn", Action{Kind: "click"}))
	mustOK(t, do(t, svc, "closedbtn", Action{Kind: "click"}))
	mustOK(t, do(t, svc, "closedbtn", Action{Kind: "click"}))
	if v := evalString(t, p, "JSON.stringify([window.openClicks, window.closedClicks])"); v != "[1,2]" {
		t.Fatalf("clicks (open, closed) = %s", v)
	}
	// The closed root's own document state changed: the new text is in
	// the re-snapshot. The page itself cannot reach into the closed root.
	if n := findAttr(snap(t, svc), "id", "closedbtn"); n == nil || !strings.Contains(nodeText(n), "Closed clicked 2") {
		t.Fatalf("re-snapshot does not show the closed button's new text")
	}
	mustOK(t, do(t, svc, "closedinput", Action{Kind: "type", Text: "inside"}))
	if v := evalJS(t, p, "window.closedValue"); v != "inside" {
		t.Fatalf("closed shadow input value seen by the page: %v", v)
	}
}

func nodeText(n *VirtualNode) string {
	var b strings.Builder
	walk(n, func(c *VirtualNode) bool {
		if c.NodeType == TextNode {
			b.WriteString(c.Text)
		}
		return true
	})
	return b.String()
}

func TestClickInFrames(t *testing.T) {
	base, other := cdptest.Serve(t, actionPages)
	svc, p := openService(t, base+"/frames.html?xo="+other, Config{})
	// Wait for both frames to be in a snapshot.
	var same, cross *VirtualNode
	deadline := time.Now().Add(hangGuard)
	for time.Now().Before(deadline) {
		s, err := svc.Snapshot(ctx(t), true)
		if err != nil {
			t.Fatal(err)
		}
		same, cross = nil, nil
		walk(s.Root, func(n *VirtualNode) bool {
			if n.Attrs["id"] == "framebtn" {
				if n.TargetID != "" && n.TargetID != p.TargetID() {
					cross = n
				} else {
					same = n
				}
			}
			return true
		})
		if same != nil && cross != nil {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if same == nil || cross == nil {
		t.Fatalf("frames not captured: same %v cross %v", same != nil, cross != nil)
	}
	mustOK(t, svc.Do(ctx(t), Action{Kind: "click", ID: cross.ID}))
	mustOK(t, svc.Do(ctx(t), Action{Kind: "click", ID: same.ID}))
	// Each frame's own document changed; the parent heard from both.
	frames, err := p.Frames(ctx(t))
	if err != nil || len(frames) == 0 {
		t.Fatalf("no out-of-process frame: %v", err)
	}
	if v := evalString(t, frames[0].Session, "document.getElementById('framebtn').textContent"); v != "Frame clicked 1" {
		t.Fatalf("cross-origin frame's button says %q", v)
	}
	if v := evalString(t, p, "document.getElementById('same').contentDocument.getElementById('framebtn').textContent"); v != "Frame clicked 1" {
		t.Fatalf("same-origin frame's button says %q", v)
	}
	if v := evalString(t, p, "JSON.stringify(window.messages.sort())"); v != `["cross:1","same:1"]` {
		t.Fatalf("parent got %s", v)
	}
	// Typing into the cross-origin frame.
	s := snap(t, svc)
	var input *VirtualNode
	walk(s.Root, func(n *VirtualNode) bool {
		if n.Attrs["id"] == "frameinput" && n.TargetID != "" && n.TargetID != p.TargetID() {
			input = n
		}
		return true
	})
	if input == nil {
		t.Fatalf("cross-origin input not in the snapshot")
	}
	mustOK(t, svc.Do(ctx(t), Action{Kind: "type", ID: input.ID, Text: "über"}))
	if v := evalString(t, frames[0].Session, "window.frameValue"); v != "über" {
		t.Fatalf("cross-origin input holds %q", v)
	}
}

// TestHashNavigationIsReported: a same-document navigation (a TodoMVC
// filter link) is a navigation with its new URL.
func TestHashNavigationIsReported(t *testing.T) {
	dir := filepath.Join(cdptest.Shared(t), "corpus", "todomvc")
	base, _ := cdptest.Serve(t, dir)
	svc, _ := openService(t, base+"/react/index.html", Config{})
	input := findNode(snap(t, svc), func(n *VirtualNode) bool { return hasClass(n, "new-todo") })
	mustOK(t, svc.Do(ctx(t), Action{Kind: "type", ID: input.ID, Text: "one\n"}))
	active := findNode(snap(t, svc), func(n *VirtualNode) bool { return n.Tag == "a" && n.Attrs["href"] == "#/active" })
	res := svc.Do(ctx(t), Action{Kind: "click", ID: active.ID})
	mustOK(t, res)
	if !res.Changes.Navigated || !strings.HasSuffix(res.Changes.NewURL, "#/active") {
		t.Fatalf("changes: %+v", res.Changes)
	}
}

func TestClickTextNodeAndOption(t *testing.T) {
	base, _ := cdptest.Serve(t, actionPages)
	svc, p := openService(t, base+"/basic.html", Config{})
	mustOK(t, do(t, svc, "accept", Action{Kind: "click"}))
	// The text inside a button: the button gets the click.
	btn := byAttrID(t, snap(t, svc), "inc")
	var text *VirtualNode
	for _, c := range btn.Children {
		if c.NodeType == TextNode {
			text = c
		}
	}
	if text == nil {
		t.Fatalf("button has no text node in the snapshot")
	}
	mustOK(t, svc.Do(ctx(t), Action{Kind: "click", ID: text.ID}))
	if v := evalJS(t, p, "window.clicks"); v != float64(1) {
		t.Fatalf("clicking the button's text: clicks = %v", v)
	}
	// Clicking an <option> chooses it.
	var banana *VirtualNode
	walk(snap(t, svc).Root, func(n *VirtualNode) bool {
		if n.Tag == "option" && n.Attrs["value"] == "b" {
			banana = n
		}
		return banana == nil
	})
	mustOK(t, svc.Do(ctx(t), Action{Kind: "click", ID: banana.ID}))
	if v := evalJS(t, p, "window.changed"); v != "b" {
		t.Fatalf("clicking an option: change = %v", v)
	}
}

// TestAlertInCrossOriginFrame: a dialog opened by an out-of-process frame
// is reported and handled like the page's own.
func TestAlertInCrossOriginFrame(t *testing.T) {
	base, other := cdptest.Serve(t, actionPages)
	svc, p := openService(t, base+"/frames.html?xo="+other, Config{})
	var btn *VirtualNode
	deadline := time.Now().Add(hangGuard)
	for btn == nil && time.Now().Before(deadline) {
		s, err := svc.Snapshot(ctx(t), true)
		if err != nil {
			t.Fatal(err)
		}
		walk(s.Root, func(n *VirtualNode) bool {
			if n.Attrs["id"] == "framealert" && n.TargetID != "" && n.TargetID != p.TargetID() {
				btn = n
			}
			return btn == nil
		})
	}
	if btn == nil {
		t.Fatalf("cross-origin frame not captured")
	}
	start := time.Now()
	res := svc.Do(ctx(t), Action{Kind: "click", ID: btn.ID})
	mustOK(t, res)
	if res.Dialog == nil || res.Dialog.Message != "from the frame" {
		t.Fatalf("frame alert not reported (after %s): %+v", time.Since(start), res)
	}
	mustOK(t, svc.Do(ctx(t), Action{Kind: "dialog", Accept: true}))
	frames, err := p.Frames(ctx(t))
	if err != nil || len(frames) == 0 {
		t.Fatalf("frames: %v", err)
	}
	if v := evalJS(t, frames[0].Session, "window.afterFrameAlert === true"); v != true {
		t.Fatalf("frame did not continue after its alert was accepted")
	}
}
