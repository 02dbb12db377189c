package live_test

import (
	"strings"
	"testing"
	"time"

	"domscope/cdpconn/cdptest"
	. "domscope/dom"
	"domscope/dom/internal/domtest"
	. "domscope/dom/live"
)

// crossFrameNode waits until a snapshot holds the element with id inside
// the page's out-of-process frame, and returns it.
func crossFrameNode(t *testing.T, svc *Service, pageTarget, id string) *VirtualNode {
	t.Helper()
	deadline := time.Now().Add(hangGuard)
	for {
		s, err := svc.Snapshot(ctx(t), true)
		if err != nil {
			t.Fatal(err)
		}
		var found *VirtualNode
		walk(s.Root, func(n *VirtualNode) bool {
			if n.Attrs["id"] == id && n.TargetID != "" && n.TargetID != pageTarget {
				found = n
			}
			return found == nil
		})
		if found != nil {
			return found
		}
		if time.Now().After(deadline) {
			t.Fatalf("#%s of the cross-origin frame is in no snapshot", id)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// TestIncrementalOutOfProcessFrames: on a page with a cross-origin frame,
// the snapshots after actions in the page and in the frame are
// incremental. The page is followed live, the frame read whole beside
// it. They print what a full capture of the same state prints.
func TestIncrementalOutOfProcessFrames(t *testing.T) {
	base, other := cdptest.Serve(t, actionPages)
	svc, p := openService(t, base+"/frames.html?xo="+other, Config{})
	cross := crossFrameNode(t, svc, p.TargetID(), "framebtn")
	tw := newTwin(t, svc, p)
	tw.check(t, "first")

	res := tw.do(t, Action{Kind: "click", ID: cross.ID}, "click in the cross-origin frame")
	if res.Snapshot.Kind != "incremental" {
		t.Errorf("after a click in the frame: a %s snapshot (%s)", res.Snapshot.Kind, svc.Fallback())
	}
	if n := findAttr(snap(t, svc), "id", "framebtn"); n == nil {
		t.Fatal("the frame's button is gone")
	}
	s := snap(t, svc)
	var sameBtn *VirtualNode
	walk(s.Root, func(n *VirtualNode) bool {
		if n.Attrs["id"] == "framebtn" && n.TargetID == cross.TargetID {
			if !strings.Contains(nodeText(n), "Frame clicked 1") {
				t.Errorf("the cross-origin button reads %q after the click", nodeText(n))
			}
		}
		if n.Attrs["id"] == "framebtn" && n.TargetID != cross.TargetID {
			sameBtn = n
		}
		return true
	})
	if sameBtn == nil {
		t.Fatal("the same-origin frame's button is not in the snapshot")
	}
	res = tw.do(t, Action{Kind: "click", ID: sameBtn.ID}, "click in the same-origin frame")
	if res.Snapshot.Kind != "incremental" {
		t.Errorf("after a click in the page: a %s snapshot (%s)", res.Snapshot.Kind, svc.Fallback())
	}
	input := crossFrameNode(t, svc, p.TargetID(), "frameinput")
	tw.do(t, Action{Kind: "type", ID: input.ID, Text: "über"}, "type in the cross-origin frame")
	if got := crossFrameNode(t, svc, p.TargetID(), "frameinput").States["value"]; got != "über" {
		t.Errorf("the frame's input reads %q, want %q", got, "über")
	}
	// The frame goes away, then comes back.
	evalJS(t, p, "document.getElementById('cross').remove(), true")
	for deadline := time.Now().Add(hangGuard); ; time.Sleep(50 * time.Millisecond) {
		s, err := svc.Snapshot(ctx(t), true)
		if err != nil {
			t.Fatal(err)
		}
		if findAttr(s, "id", "cross") == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the removed frame stays in the snapshots")
		}
	}
	tw.check(t, "the frame removed")
	evalJS(t, p, "(() => { const f = document.createElement('iframe'); f.id = 'cross'; f.src = new URLSearchParams(location.search).get('xo') + '/frame_inner.html?who=again'; document.body.append(f); return true })()")
	crossFrameNode(t, svc, p.TargetID(), "framebtn")
	tw.check(t, "the frame back")
	if tw.incremental < 4 {
		t.Errorf("%d of %d snapshots were incremental", tw.incremental, tw.incremental+tw.full)
	}
}

// TestIncrementalFramePrivacy: secrets typed into sensitive fields of a
// cross-origin frame and of the page reach no output of an incremental
// snapshot, nor its export. Each shows the mask.
func TestIncrementalFramePrivacy(t *testing.T) {
	base, other := cdptest.Serve(t, domtest.Testdata("pages"))
	svc, p := openService(t, base+"/privacy-variants.html?other="+other, Config{})
	_ = p
	x := crossFrameNode(t, svc, p.TargetID(), "xs")
	tw := newTwin(t, svc, p)
	const frameSecret, pageSecret = "SECRET-FRAMELIVE-2201", "SECRET-PAGELIVE-2202"
	res := tw.do(t, Action{Kind: "type", ID: x.ID, Text: frameSecret}, "type into the frame's password")
	if res.Snapshot.Kind != "incremental" {
		t.Errorf("not incremental: %s", svc.Fallback())
	}
	tw.do(t, Action{Kind: "type", ID: byAttrID(t, snap(t, svc), "typed").ID, Text: pageSecret}, "type into the page's password")
	if got := crossFrameNode(t, svc, p.TargetID(), "xs").States["value"]; got != Mask {
		t.Errorf("the frame's password reads %q, want the mask", got)
	}
	s := snap(t, svc)
	if !s.Incremental {
		t.Errorf("not incremental: %s", svc.Fallback())
	}
	outs := everyOutput(t, s)
	for k, v := range outs {
		// what the sensitive fields hold now: the typed secrets and the
		// frame's served values. The frame's script still names the value
		// typing replaced; no field holds that any more.
		for _, sec := range []string{frameSecret, pageSecret, "SECRET-XORIGIN-1114", "4000056655665556"} {
			if strings.Contains(v, sec) {
				i := strings.Index(v, sec)
				t.Errorf("the %s output holds %q: %s", k, sec, v[max(0, i-200):min(len(v), i+100)])
			}
		}
		if !strings.Contains(v, "Cross-origin code") && k != "raw capture" {
			t.Errorf("the %s output lost the frame's label", k)
		}
	}
}
