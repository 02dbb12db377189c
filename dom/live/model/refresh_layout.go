package model

import (
	"context"
	"encoding/json"

	"domscope/dom"
	"domscope/dom/capture"
	"domscope/dom/cdpjson"
)

// fetchLayout reads the changed parts' layout when the plan allows
// (partial.go), else the whole layout with DOMSnapshot. The layout is
// decoded as soon as it comes, while the AX replies queued behind it
// come in. A layout that cannot do leaves layoutWhy.
func (r *refreshRun) fetchLayout(ctx context.Context) error {
	if r.partialWhy == "" {
		f, secrets, why, err := r.m.partialLayout(ctx, r.p, r.changed, r.guard.controls, r.group, func() (map[int64]bool, map[int64]bool) {
			<-r.setsReady
			return r.inside, r.fields
		})
		if err != nil {
			return err
		}
		if f != nil {
			r.fresh, r.layoutSecrets = f, secrets
			return nil
		}
		r.partialWhy = why
	}
	var layout json.RawMessage
	if err := r.p.Call(ctx, "DOMSnapshot.captureSnapshot", map[string]any{"computedStyles": dom.LayoutStyles}, &layout); err != nil {
		return err
	}
	<-r.setsReady
	// Only nodes inside a sensitive field are redacted: with none on
	// the page (most pages) the layout need not be read twice.
	if len(r.inside) > 0 {
		var err error
		if layout, r.layoutSecrets, err = capture.RedactLayout(layout, r.inside, r.fields); err != nil {
			r.layoutWhy = "the layout could not be checked for sensitive values"
			return nil
		}
	}
	snap, err := cdpjson.DecodeDOMSnapshot(layout)
	if err != nil {
		r.layoutWhy = "an unreadable layout"
		return nil
	}
	r.fresh = &cdpjson.Target{Raw: r.m.ti.Raw, Boxes: map[int64]*cdpjson.Box{}}
	r.fresh.IndexLayout(snap)
	return nil
}

// layoutDiff lists what differs between two layouts, in two lists.
// The first holds the nodes whose box appeared or went or whose computed
// styles changed. The second holds those whose value, checked or
// selected state changed, and not their box. Bounds alone change no AX
// fact.
func layoutDiff(old, fresh *cdpjson.Target) (boxes, states []int64) {
	seen := map[int64]bool{}
	out := &boxes
	add := func(id int64) {
		if !seen[id] {
			seen[id] = true
			*out = append(*out, id)
		}
	}
	sameStyles := func(ob, b *cdpjson.Box) bool {
		for k := range dom.LayoutStyles {
			if old.StyleAt(ob, k) != fresh.StyleAt(b, k) {
				return false
			}
		}
		return true
	}
	// Two layouts of a page list its boxes in the same order up to the
	// first box added or removed. So compare them in step that far, then
	// by id. A lookup each, at random places in memory, is most of the
	// cost.
	i := 0
	for ; i < len(old.Layout) && i < len(fresh.Layout); i++ {
		ob, b := &old.Layout[i], &fresh.Layout[i]
		if ob.ID != b.ID {
			break
		}
		if !sameStyles(ob, b) {
			add(b.ID)
		}
	}
	for k := i; k < len(fresh.Layout); k++ {
		b := &fresh.Layout[k]
		if ob := old.Boxes[b.ID]; ob == nil || !sameStyles(ob, b) {
			add(b.ID)
		}
	}
	for k := i; k < len(old.Layout); k++ {
		if id := old.Layout[k].ID; fresh.Boxes[id] == nil {
			add(id)
		}
	}
	out = &states
	for id, v := range fresh.Values {
		if ov, ok := old.Values[id]; !ok || ov != v {
			add(id)
		}
	}
	for id := range old.Values {
		if _, ok := fresh.Values[id]; !ok {
			add(id)
		}
	}
	for _, pair := range [][2]map[int64]bool{{old.Selected, fresh.Selected}, {old.Checked, fresh.Checked}} {
		for id := range pair[0] {
			if !pair[1][id] {
				add(id)
			}
		}
		for id := range pair[1] {
			if !pair[0][id] {
				add(id)
			}
		}
	}
	return boxes, states
}
