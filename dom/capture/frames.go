package capture

import (
	"context"
	"sync"

	"domscope/dom"
)

// PlaceFrames finds where each frame sits. Same-process child frames sit
// in their target's main document, out-of-process targets in the page.
// It asks the target that holds each <iframe> for the element
// (DOM.getFrameOwner). Then it asks for its content box
// (DOM.getBoxModel), in that target's viewport. A frame that is hidden or
// gone keeps a zero offset.
func PlaceFrames(ctx context.Context, p dom.Page, frames []dom.FrameTarget, raw *dom.RawCapture) {
	placeFramesOf(ctx, p, frames, raw, true, nil)
}

// placeFramesOf is PlaceFrames. With local false, the same-process frames
// are placed already: captureTarget asks for their boxes early. early, if
// not nil, holds the boxes of the out-of-process frames, asked early.
func placeFramesOf(ctx context.Context, p dom.Page, frames []dom.FrameTarget, raw *dom.RawCapture, local bool, early *oopBoxes) {
	sessions := map[string]dom.Session{p.TargetID(): p}
	for _, f := range frames {
		sessions[f.TargetID] = f.Session
	}
	byTarget := map[string]*dom.RawTarget{}
	for i := range raw.Targets {
		byTarget[raw.Targets[i].TargetID] = &raw.Targets[i]
	}
	// Sent together, out-of-process frames too. Each is a cheap command,
	// so the round trips dominate.
	var wg sync.WaitGroup
	for i := range raw.Targets {
		t := &raw.Targets[i]
		s := sessions[t.TargetID]
		for j := 1; local && j < len(t.Frames); j++ {
			f := &t.Frames[j]
			wg.Go(func() {
				if box, owner, ok := ownerBox(ctx, s, f.FrameID); ok {
					f.OwnerBackendID = owner
					f.Offset = dom.Rect{X: box.X + t.Viewport.X, Y: box.Y + t.Viewport.Y, W: box.W, H: box.H}
				}
			})
		}
	}
	boxes := make([]ownerAnswer, len(raw.Targets))
	for i := 1; i < len(raw.Targets); i++ {
		t := &raw.Targets[i]
		s := sessions[t.ParentTargetID]
		if byTarget[t.ParentTargetID] == nil || s == nil || t.FrameID == "" {
			continue
		}
		if b, ok := early.get(t.TargetID, t.FrameID); ok {
			boxes[i] = b
			continue
		}
		wg.Go(func() {
			b := &boxes[i]
			b.box, b.owner, b.ok = ownerBox(ctx, s, t.FrameID)
		})
	}
	wg.Wait()
	// Out-of-process frames, parents before children. Nesting is shallow.
	// A bounded number of passes also guards against a bad parent chain.
	placed := map[string]bool{p.TargetID(): true}
	for pass := 0; pass < 8 && len(placed) < len(raw.Targets); pass++ {
		for i := 1; i < len(raw.Targets); i++ {
			t := &raw.Targets[i]
			if placed[t.TargetID] || !placed[t.ParentTargetID] {
				continue
			}
			placed[t.TargetID] = true
			parent := byTarget[t.ParentTargetID]
			b := boxes[i]
			if parent == nil || !b.ok {
				continue
			}
			t.OwnerBackendID = b.owner
			// The box is in the parent's viewport. The page's viewport
			// origin is its scroll position, an iframe's is its Offset.
			origin := parent.Offset
			if parent == &raw.Targets[0] {
				origin = dom.Rect{X: parent.Viewport.X, Y: parent.Viewport.Y}
			}
			t.Offset = dom.Rect{X: origin.X + b.box.X, Y: origin.Y + b.box.Y, W: b.box.W, H: b.box.H}
		}
	}
}

// ownerBox returns the content box of the <iframe> that holds frameID,
// in the viewport of the target s. It also returns the element's
// backendNodeId.
func ownerBox(ctx context.Context, s dom.Session, frameID string) (dom.Rect, int64, bool) {
	var owner struct {
		BackendNodeID int64 `json:"backendNodeId"`
	}
	if err := s.Call(ctx, "DOM.getFrameOwner", map[string]any{"frameId": frameID}, &owner); err != nil || owner.BackendNodeID == 0 {
		return dom.Rect{}, 0, false
	}
	var bm struct {
		Model struct {
			Content []float64 `json:"content"`
		} `json:"model"`
	}
	if err := s.Call(ctx, "DOM.getBoxModel", map[string]any{"backendNodeId": owner.BackendNodeID}, &bm); err != nil {
		return dom.Rect{}, owner.BackendNodeID, false
	}
	return QuadRect(bm.Model.Content), owner.BackendNodeID, true
}

// QuadRect is the bounding rectangle of a CDP quad (x1,y1,...,x4,y4).
func QuadRect(q []float64) dom.Rect {
	if len(q) < 8 {
		return dom.Rect{}
	}
	minX, minY, maxX, maxY := q[0], q[1], q[0], q[1]
	for i := 2; i+1 < len(q); i += 2 {
		minX, maxX = min(minX, q[i]), max(maxX, q[i])
		minY, maxY = min(minY, q[i+1]), max(maxY, q[i+1])
	}
	return dom.Rect{X: minX, Y: minY, W: maxX - minX, H: maxY - minY}
}

// frameBoxes asks, side by side, for the <iframe> box of each of a
// target's same-process frames but the first. Once the target's viewport
// is known, place sets their owners and offsets.
type frameBoxes struct {
	wg    sync.WaitGroup
	boxes []dom.Rect
	owner []int64
	ok    []bool
}

func askFrameBoxes(ctx context.Context, s dom.Session, frames []dom.RawFrame) *frameBoxes {
	fb := &frameBoxes{boxes: make([]dom.Rect, len(frames)), owner: make([]int64, len(frames)), ok: make([]bool, len(frames))}
	for j := 1; j < len(frames); j++ {
		fb.wg.Go(func() {
			fb.boxes[j], fb.owner[j], fb.ok[j] = ownerBox(ctx, s, frames[j].FrameID)
		})
	}
	return fb
}

// place waits for the boxes and places the frames, as PlaceFrames does.
func (fb *frameBoxes) place(frames []dom.RawFrame, viewport dom.Rect) {
	fb.wg.Wait()
	for j := 1; j < len(frames); j++ {
		if fb.ok[j] {
			box := fb.boxes[j]
			frames[j].OwnerBackendID = fb.owner[j]
			frames[j].Offset = dom.Rect{X: box.X + viewport.X, Y: box.Y + viewport.Y, W: box.W, H: box.H}
		}
	}
}

// oopBoxes asks, side by side, for the <iframe> box of each out-of-process
// frame as soon as the frames are listed. Chrome gives such a frame's
// target the frame's id. So the ask need not wait for the frame's own
// capture. The replies come with the parents' big reads, not after them.
type oopBoxes struct {
	wg      sync.WaitGroup
	frameID []string // the frame id each box was asked for
	box     []ownerAnswer
}

type ownerAnswer struct {
	box   dom.Rect
	owner int64
	ok    bool
}

func askOOPBoxes(ctx context.Context, p dom.Page, frames []dom.FrameTarget) *oopBoxes {
	sessions := map[string]dom.Session{p.TargetID(): p}
	for _, f := range frames {
		sessions[f.TargetID] = f.Session
	}
	ob := &oopBoxes{frameID: make([]string, len(frames)), box: make([]ownerAnswer, len(frames))}
	for i, f := range frames {
		parent := f.ParentID
		if parent == "" {
			parent = p.TargetID()
		}
		s := sessions[parent]
		if s == nil {
			continue
		}
		ob.frameID[i] = f.TargetID
		ob.wg.Go(func() {
			a := &ob.box[i]
			a.box, a.owner, a.ok = ownerBox(ctx, s, f.TargetID)
		})
	}
	return ob
}

// get waits for the early answers and gives the one for target, if it
// was asked for frameID. A frame whose id is not its target's is asked
// again, late.
func (ob *oopBoxes) get(target, frameID string) (ownerAnswer, bool) {
	if ob == nil {
		return ownerAnswer{}, false
	}
	ob.wg.Wait()
	for i, id := range ob.frameID {
		if id != "" && id == target && id == frameID {
			return ob.box[i], true
		}
	}
	return ownerAnswer{}, false
}

// wait lets the early asks finish.
func (ob *oopBoxes) wait() {
	if ob != nil {
		ob.wg.Wait()
	}
}
