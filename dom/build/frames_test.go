package build_test

import (
	"testing"

	"domscope/dom"
	"domscope/dom/build"
	"domscope/dom/internal/recordings"
)

// TestFramesStitched records frames.html (a same-origin and a
// cross-origin iframe). Each frame's document hangs under its <iframe>.
// Its nodes carry the frame (and, out of process, the target). Their
// boxes sit inside the <iframe>'s box in page coordinates.
func TestFramesStitched(t *testing.T) {
	s, err := build.Build(recordings.Load(t, "frames"), build.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var hosts []*dom.VirtualNode
	stack := []*dom.VirtualNode{s.Root}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if n.Tag == "iframe" {
			hosts = append(hosts, n)
		}
		stack = append(stack, n.Children...)
	}
	if len(hosts) < 2 {
		t.Fatalf("%d iframes", len(hosts))
	}
	oop := 0
	for _, h := range hosts {
		var doc *dom.VirtualNode
		for _, c := range h.Children {
			if c.Tag == "#document" {
				doc = c
			}
		}
		if doc == nil {
			t.Errorf("%s: no document under the iframe", h.ID)
			continue
		}
		if doc.FrameID == "" || doc.FrameID == h.FrameID {
			t.Errorf("%s: frame document has frame %q (host %q)", h.ID, doc.FrameID, h.FrameID)
		}
		if doc.TargetID != h.TargetID {
			oop++
		}
		buttons := 0
		stack := []*dom.VirtualNode{doc}
		for len(stack) > 0 {
			n := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			stack = append(stack, n.Children...)
			if n.Tag != "button" || !n.Visible {
				continue
			}
			buttons++
			if n.FrameID != doc.FrameID || n.TargetID != doc.TargetID {
				t.Errorf("%s: frame %s target %s, want %s %s", n.ID, n.FrameID, n.TargetID, doc.FrameID, doc.TargetID)
			}
			b, hb := n.Bounds, h.Bounds
			if b.X < hb.X || b.Y < hb.Y || b.X+b.W > hb.X+hb.W+0.5 || b.Y+b.H > hb.Y+hb.H+0.5 {
				t.Errorf("%s %+v is outside its iframe %+v", n.ID, b, hb)
			}
		}
		if buttons == 0 {
			t.Errorf("%s: no visible button in the frame", h.ID)
		}
	}
	if oop == 0 {
		t.Error("no out-of-process frame stitched")
	}
	found := 0
	for _, f := range s.Frames {
		if f.Host != "" && s.Node(f.Host) != nil && s.Node(f.Host).Tag == "iframe" {
			found++
		}
	}
	if found < 2 {
		t.Errorf("frames: %+v", s.Frames)
	}
}
