package screenshot

// Placing what the scan found. Each same-process document goes in its
// target's top document; each out-of-process frame goes in the page. The
// layout boxes of their frame owners and the owners' borders say where.

import (
	"context"
	"encoding/json"
	"sync"

	"domscope/dom"
	"domscope/dom/capture"
	"domscope/dom/cdpjson"
)

// scanSecrets finds where every sensitive field of the page is drawn now,
// in every frame and shadow root. known adds nodes an earlier capture
// found sensitive, such as a password field a page has since turned into
// text. It fails only when the page itself cannot be read. A frame that
// cannot be read or placed is covered whole instead.
func scanSecrets(ctx context.Context, p dom.Page, known *SensitiveNodes) (secretBoxes, error) {
	frames, err := p.Frames(ctx)
	if err != nil {
		return nil, capture.Err(err, "listing frames for a screenshot")
	}
	targets := []*scanTarget{{id: p.TargetID(), sess: p}}
	for _, f := range frames {
		parent := f.ParentID
		if parent == "" {
			parent = p.TargetID()
		}
		targets = append(targets, &scanTarget{id: f.TargetID, parent: parent, sess: f.Session})
	}
	var wg sync.WaitGroup
	errs := make([]error, len(targets))
	for i, t := range targets {
		wg.Go(func() {
			var raw json.RawMessage
			if errs[i] = t.sess.Call(ctx, "DOMSnapshot.captureSnapshot", map[string]any{"computedStyles": []string{}}, &raw); errs[i] != nil {
				return
			}
			t.snap, errs[i] = cdpjson.DecodeNodeLayout(raw)
		})
	}
	wg.Wait()
	if errs[0] != nil {
		return nil, capture.Err(errs[0], "finding the sensitive fields for a screenshot")
	}
	for i, t := range targets {
		if errs[i] != nil {
			t.snap = nil // a frame that cannot be read is covered by its owner
			continue
		}
		t.find(known)
	}
	main := targets[0]
	main.placed = true
	byID := map[string]*scanTarget{}
	for _, t := range targets {
		byID[t.id] = t
	}
	owners := map[fieldKey]bool{} // frame owners whose target is placed
	// Parents before children; nesting is shallow, passes are bounded.
	for pass := 0; pass < 8; pass++ {
		moved := false
		for _, t := range targets[1:] {
			par := byID[t.parent]
			if t.tried || t.snap == nil || par == nil || !par.placed {
				continue
			}
			// tried once: a frame not placed is covered by its owner
			t.tried, moved = true, true
			owner, ok := ownerOf(ctx, par.sess, t.id)
			if !ok {
				continue
			}
			d, box, ok := par.layoutOf(owner)
			if !ok {
				// an owner without a box is not drawn: nor is the frame
				owners[fieldKey{par.id, owner}] = true
				t.snap = nil
				continue
			}
			sh, ok := par.docShift(ctx, d)
			if !ok {
				continue
			}
			in, ok := insets(ctx, par.sess, owner, box)
			if !ok {
				continue
			}
			t.placed = true
			t.origin = [2]float64{
				par.origin[0] + sh[0] + box.X + in[0] - t.snap.Docs[0].ScrollX,
				par.origin[1] + sh[1] + box.Y + in[1] - t.snap.Docs[0].ScrollY,
			}
			owners[fieldKey{par.id, owner}] = true
		}
		if !moved {
			break
		}
	}
	out := secretBoxes{}
	for _, t := range targets {
		if t.snap == nil || !t.placed {
			continue
		}
		for d, fs := range t.fields {
			if len(fs) == 0 {
				continue
			}
			sh, ok := t.docShift(ctx, d)
			if !ok {
				t.coverDoc(ctx, d, out)
				continue
			}
			for k, r := range fs {
				out.add(k, t.toPage(sh, r))
			}
		}
		for _, h := range t.holes {
			if owners[h.key] {
				continue
			}
			if sh, ok := t.docShift(ctx, h.doc); ok {
				out.add(h.key, t.toPage(sh, h.box))
			} else {
				t.coverDoc(ctx, h.doc, out)
			}
		}
	}
	return out, nil
}

// layoutOf finds a node's document and its first box there.
func (t *scanTarget) layoutOf(id int64) (int, dom.Rect, bool) {
	if t.where == nil {
		t.where = map[int64][2]int{}
		for d := range t.snap.Docs {
			doc := &t.snap.Docs[d]
			for li, ni := range doc.LayoutNode {
				k := int64(at(doc.Backend, ni))
				if _, seen := t.where[k]; !seen && li < len(doc.Bounds) {
					t.where[k] = [2]int{d, li}
				}
			}
		}
	}
	w, ok := t.where[id]
	if !ok {
		return 0, dom.Rect{}, false
	}
	r := cdpjson.RectOf(t.snap.Docs[w[0]].Bounds[w[1]])
	return w[0], r, r.W > 0 && r.H > 0
}

// docShift moves document d of t into t's top document. It goes to the
// content box of its frame owner, less its own scroll.
func (t *scanTarget) docShift(ctx context.Context, d int) ([2]float64, bool) {
	if d == 0 {
		return [2]float64{}, true
	}
	if t.shift == nil {
		t.shift = map[int]*[2]float64{}
	}
	if s, ok := t.shift[d]; ok {
		if s == nil {
			return [2]float64{}, false
		}
		return *s, true
	}
	t.shift[d] = nil // a cycle of owners ends here
	h, ok := t.host[d]
	if !ok || h[0] == d {
		return [2]float64{}, false
	}
	ps, ok := t.docShift(ctx, h[0])
	if !ok {
		return ps, false
	}
	pd := &t.snap.Docs[h[0]]
	id := int64(at(pd.Backend, h[1]))
	_, box, ok := t.layoutOf(id)
	if !ok {
		return ps, false
	}
	in, ok := insets(ctx, t.sess, id, box)
	if !ok {
		return ps, false
	}
	doc := &t.snap.Docs[d]
	s := [2]float64{ps[0] + box.X + in[0] - doc.ScrollX, ps[1] + box.Y + in[1] - doc.ScrollY}
	t.shift[d] = &s
	return s, true
}

// coverDoc covers a document that cannot be placed with its frame
// owner's whole box. If that owner is unplaced too, it climbs owners up to
// a placed one.
func (t *scanTarget) coverDoc(ctx context.Context, d int, out secretBoxes) {
	for range len(t.snap.Docs) {
		h, ok := t.host[d]
		if !ok {
			break
		}
		pd := &t.snap.Docs[h[0]]
		id := int64(at(pd.Backend, h[1]))
		if sh, ok := t.docShift(ctx, h[0]); ok {
			if _, box, ok := t.layoutOf(id); ok {
				out.add(fieldKey{t.id, id}, t.toPage(sh, box))
			}
			return
		}
		d = h[0]
	}
	// No owner to cover: the whole target. Only a broken reply gets here.
	for _, doc := range t.snap.Docs[:1] {
		for li := range doc.LayoutNode {
			if li < len(doc.Bounds) {
				out.add(fieldKey{t.id, -1}, t.toPage([2]float64{}, cdpjson.RectOf(doc.Bounds[li])))
			}
		}
	}
}

// toPage moves r from a document of t (shifted by sh) into the page.
func (t *scanTarget) toPage(sh [2]float64, r dom.Rect) dom.Rect {
	r.X += sh[0] + t.origin[0]
	r.Y += sh[1] + t.origin[1]
	return r
}

// ownerOf is the backend node id of the element that holds frameID. It is
// as the target s sees it.
func ownerOf(ctx context.Context, s dom.Session, frameID string) (int64, bool) {
	var owner struct {
		BackendNodeID int64 `json:"backendNodeId"`
	}
	err := s.Call(ctx, "DOM.getFrameOwner", map[string]any{"frameId": frameID}, &owner)
	return owner.BackendNodeID, err == nil && owner.BackendNodeID != 0
}

// insets is how far a frame owner's content box sits inside its border
// box: borders and padding. It is in its document's CSS pixels. The box
// model's quads are in the viewport's, scaled by any zoom. box (the
// border box from the layout) undoes that.
func insets(ctx context.Context, s dom.Session, id int64, box dom.Rect) ([2]float64, bool) {
	var bm struct {
		Model struct {
			Content []float64 `json:"content"`
			Border  []float64 `json:"border"`
		} `json:"model"`
	}
	if err := s.Call(ctx, "DOM.getBoxModel", map[string]any{"backendNodeId": id}, &bm); err != nil ||
		len(bm.Model.Content) < 8 || len(bm.Model.Border) < 8 {
		return [2]float64{}, false
	}
	c, b := capture.QuadRect(bm.Model.Content), capture.QuadRect(bm.Model.Border)
	k := 1.0
	if b.W > 0 && box.W > 0 {
		k = box.W / b.W
	}
	return [2]float64{max(0, (c.X-b.X)*k), max(0, (c.Y-b.Y)*k)}, true
}
