package model

import (
	"context"
	_ "embed" // page scripts
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"

	"domscope/dom"
	"domscope/dom/capture"
	"domscope/dom/cdpjson"
)

// A page that changes all the time replaces nodes while a refresh reads
// it. A clock that sets textContent every 30 ms does so. The model then
// holds nodes the layout Chrome made does not list (cdpjson/cover.go).
// The refresh reads their layout one by one, as DOMSnapshot would have
// given it, and their AX facts, with the model held at a mark. Nodes
// inserted meanwhile are not in it; one removed meanwhile starts a new
// round. Some pages make the read a full capture. One removes faster
// than that; another has a form control whose live state only
// DOMSnapshot gives.

// maxUnlaidRounds is how many rounds a refresh reads inserted nodes. A
// round takes a few milliseconds; on a page with three timers (30, 70
// and 110 ms) most refreshes need one or two.
const maxUnlaidRounds = 12

// maxUnlaid is the most inserted nodes one round reads.
const maxUnlaid = 64

// unlaid is a node of the model that the layout does not list.
type unlaid struct {
	id      int64 // backend id
	parent  int64 // its parent's backend id
	element bool
	tag     string // lowercase, for elements
}

// unlaidIn lists the nodes of the model's own document that layout ti
// does not list. Such a node came after the layout. When the model is
// held at a mark, every event from before the layout is in it. So only
// the subtrees inserted since the refresh took its change sets are
// looked at. m.mu is held.
func (m *Model) unlaidIn(ti *cdpjson.Target) []unlaid {
	if ti.Listed == nil || len(m.inserted) == 0 {
		return nil
	}
	var out []unlaid
	seen := map[int64]bool{}
	type item struct{ n, p *cdpjson.Node }
	for id := range m.inserted {
		root := m.byNode[id]
		if root == nil || m.neverListed(root) {
			continue
		}
		stack := []item{{root, m.parent[root.NodeID]}}
		for len(stack) > 0 {
			x := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if x.n == nil || seen[x.n.NodeID] || x.n.ShadowRootType == "user-agent" {
				continue
			}
			seen[x.n.NodeID] = true
			if ti.Boxes[x.n.BackendNodeID] == nil && ti.Unlaid(x.n, false) {
				u := unlaid{id: x.n.BackendNodeID, element: x.n.NodeType == dom.ElementNode}
				if x.p != nil {
					u.parent = x.p.BackendNodeID
				}
				if u.element {
					u.tag = strings.ToLower(x.n.NodeName)
				}
				out = append(out, u)
			}
			for _, c := range x.n.Children {
				stack = append(stack, item{c, x.n})
			}
			for _, c := range x.n.ShadowRoots {
				stack = append(stack, item{c, x.n})
			}
			// a template's content is never laid out, nor listed
			stack = append(stack, item{x.n.ContentDocument, x.n})
		}
	}
	return out
}

// neverListed reports whether n is in a part of the tree DOMSnapshot
// does not list: a user-agent shadow root, a template's content.
func (m *Model) neverListed(n *cdpjson.Node) bool {
	for x := n; x != nil; x = m.parent[x.NodeID] {
		if x.ShadowRootType == "user-agent" {
			return true
		}
		if p := m.parent[x.NodeID]; p != nil && p.TemplateContent == x {
			return true
		}
	}
	return false
}

// markQuiet is how long before a read the page's last event must have
// come for the read to need no mark. The events of one task come well
// within it.
const markQuiet = 20 * time.Millisecond

// settle makes the model fit for the build once the refresh has its
// layout (fresh). While the page's events come, it holds the model at a
// mark (holdAtMark). It reads the layout of each node the layout does
// not list (inserted since), round after round until there is none.
// The model stays at the round's mark while they are read, so what the
// page inserts meanwhile waits for the next refresh; a node gone before
// its read needs a new mark. It returns with m.mu held and the AX
// facts of the elements it read (more). Else it returns why the read
// must be a full capture, or an error. release lets the model go in
// every case.
func (m *Model) settle(ctx context.Context, p dom.Session, fresh *cdpjson.Target, scroll dom.Rect, group string, marker *string, start time.Time) (more axBatch, why string, err error) {
	more = axBatch{ax: map[int64]*cdpjson.AXNode{}, included: map[int64]bool{}}
	// held: the model stayed at the last mark while its nodes were read.
	held := false
	for round := 1; ; round++ {
		if !held {
			m.mu.Lock()
			busy := m.events > 0 || m.applied.After(start.Add(-markQuiet))
			m.mu.Unlock()
			if busy {
				if err := m.holdAtMark(ctx, p, group, marker); err != nil {
					return more, "", capture.Err(err, "marking the page's events")
				}
			}
		}
		m.mu.Lock()
		todo := m.unlaidIn(fresh)
		if len(todo) == 0 {
			return more, "", nil
		}
		switch {
		case round > maxUnlaidRounds || len(todo) > maxUnlaid:
			why = fmt.Sprintf("the page kept inserting nodes while it was read (%d not laid out)", len(todo))
		case slices.ContainsFunc(todo, func(u unlaid) bool { return liveStateTags[u.tag] }):
			why = "a form control was inserted while the page was read"
		}
		if why != "" {
			m.broken = why
			m.mu.Unlock()
			return more, why, nil
		}
		inside, fields := m.sensitiveSets()
		var els []int64
		for _, u := range todo {
			if u.element {
				els = append(els, u.id)
			}
		}
		// The model stays at the mark while its nodes are read: the nodes
		// the page inserts meanwhile are not in it. Only a node it removed
		// meanwhile has no layout to read; then the next round marks anew.
		// A page inserting every 30 ms on a loaded machine needs this: a
		// round never ends before its next insertion.
		held = m.holding
		m.mu.Unlock()
		// The AX facts come first: a node still there when its layout is
		// read was there when they were.
		b := m.fetchAX(ctx, p, els, inside, fields)
		if b.err != nil {
			return more, "", b.err
		}
		reads, err := readUnlaid(ctx, p, todo, scroll, group)
		if err != nil {
			return more, "", capture.Err(err, "reading the layout of inserted nodes")
		}
		if held && slices.ContainsFunc(reads, func(r nodeLayout) bool { return r.gone }) {
			m.release()
			held = false
		}
		cover(fresh, todo, reads)
		maps.Copy(more.ax, b.ax)
		maps.Copy(more.included, b.included)
		more.ids = append(more.ids, els...)
		more.secrets = append(more.secrets, b.secrets...)
	}
}

// liveStateTags are the controls whose live state (text, selection) only
// DOMSnapshot gives: one inserted during a refresh needs a full capture.
var liveStateTags = map[string]bool{"textarea": true, "select": true, "option": true}

// nodeLayout is what reading one node's layout found.
type nodeLayout struct {
	gone   bool // no longer in the page (its removal event is on its way)
	drawn  bool // it has a layout box
	bounds dom.Rect
	styles []string // LayoutStyles, for an element
}

// unlaidJS tells whether a node is still in the page and laid out. That
// lays the page out if a change is waiting; DOM.getContentQuads alone
// would not. It also gives the box in the viewport and an element's
// LayoutStyles. It returns no text and no value: nothing a sensitive
// field holds.
//
//go:embed unlaid.js
var unlaidJS string

// readUnlaid reads the layout of each node, eight at a time (see
// readNodeLayout).
func readUnlaid(ctx context.Context, p dom.Session, nodes []unlaid, scroll dom.Rect, group string) ([]nodeLayout, error) {
	out := make([]nodeLayout, len(nodes))
	var g errgroup.Group
	g.SetLimit(8)
	for i := range nodes {
		g.Go(func() error {
			r, err := readNodeLayout(ctx, p, nodes[i].id, scroll, group)
			if err == nil {
				out[i] = r
			}
			return err
		})
	}
	err := g.Wait()
	return out, err
}

// readNodeLayout reads one node's layout: what unlaidJS says, then its
// content quads. The quads are the box DOMSnapshot gives. They are moved
// by the scroll position from the viewport into the document. When
// Chrome gives no quads, the script's own box is used. A node no longer
// in the page is gone.
func readNodeLayout(ctx context.Context, p dom.Session, id int64, scroll dom.Rect, group string) (nodeLayout, error) {
	gone := nodeLayout{gone: true}
	// The quads need only the id: asked at once, they save a round trip
	// while the page inserts on.
	var q struct {
		Quads [][]float64 `json:"quads"`
	}
	var quadsErr error
	var asked sync.WaitGroup
	asked.Go(func() { quadsErr = p.Call(ctx, "DOM.getContentQuads", map[string]any{"backendNodeId": id}, &q) })
	defer asked.Wait()
	var res struct {
		Object struct {
			ObjectID string `json:"objectId"`
		} `json:"object"`
	}
	if err := p.Call(ctx, "DOM.resolveNode", map[string]any{"backendNodeId": id, "objectGroup": group}, &res); err != nil {
		return gone, nodeErr(err)
	}
	var ev struct {
		Result struct {
			Value json.RawMessage `json:"value"`
		} `json:"result"`
		ExceptionDetails json.RawMessage `json:"exceptionDetails"`
	}
	err := p.Call(ctx, "Runtime.callFunctionOn", map[string]any{
		"objectId": res.Object.ObjectID, "functionDeclaration": unlaidJS,
		"arguments": []any{map[string]any{"value": dom.LayoutStyles}}, "returnByValue": true,
	}, &ev)
	if err != nil {
		return gone, nodeErr(err)
	}
	var got *struct {
		Drawn  bool      `json:"drawn"`
		Box    []float64 `json:"box"`
		Styles []string  `json:"styles"`
	}
	if len(ev.ExceptionDetails) > 0 || json.Unmarshal(ev.Result.Value, &got) != nil || got == nil {
		return gone, nil
	}
	r := nodeLayout{drawn: got.Drawn, styles: got.Styles}
	if !r.drawn {
		return r, nil
	}
	if b := cdpjson.RectOf(got.Box); true {
		r.bounds = dom.Rect{X: b.X + scroll.X, Y: b.Y + scroll.Y, W: b.W, H: b.H}
	}
	asked.Wait()
	switch err := quadsErr; {
	case err == nil && len(q.Quads) > 0:
		r.bounds = quadsBounds(q.Quads, scroll)
	case err != nil && dom.CodeOf(err) != dom.CDPError:
		return r, err
	}
	return r, nil
}

// nodeErr is nil for an error about the node (it went away), the error
// itself when the connection failed.
func nodeErr(err error) error {
	if dom.CodeOf(err) == dom.CDPError {
		return nil
	}
	return err
}

// quadsBounds is the box around quads (x1,y1 … x4,y4 each), moved by the
// scroll position from the viewport into the document.
func quadsBounds(quads [][]float64, scroll dom.Rect) dom.Rect {
	minX, minY, maxX, maxY := 0.0, 0.0, 0.0, 0.0
	first := true
	for _, q := range quads {
		for k := 0; k+1 < len(q); k += 2 {
			x, y := q[k], q[k+1]
			if first {
				minX, minY, maxX, maxY, first = x, y, x, y, false
				continue
			}
			minX, minY, maxX, maxY = min(minX, x), min(minY, y), max(maxX, x), max(maxY, y)
		}
	}
	return dom.Rect{X: minX + scroll.X, Y: minY + scroll.Y, W: maxX - minX, H: maxY - minY}
}

// cover adds what was read of nodes to the layout. Each one still in the
// page is listed, and a drawn one gets a box. A text's styles are its
// parent's, as in DOMSnapshot. The new boxes are kept beside the layout's
// slab (Boxes points to them; Layout holds copies, in read order).
func cover(ti *cdpjson.Target, nodes []unlaid, reads []nodeLayout) {
	str := map[string]int32{}
	index := func(s string) int32 {
		if i, ok := str[s]; ok {
			return i
		}
		i := int32(len(ti.Strings))
		ti.Strings = append(ti.Strings, s)
		str[s] = i
		return i
	}
	added := make([]cdpjson.Box, 0, len(nodes))
	byID := map[int64]int{}
	// elements first: a text inserted with its parent takes its styles
	for _, texts := range []bool{false, true} {
		for i, u := range nodes {
			r := reads[i]
			if u.element == texts || r.gone {
				continue
			}
			ti.Listed.Add(u.id)
			if !r.drawn {
				continue
			}
			b := cdpjson.Box{ID: u.id, Bounds: r.bounds}
			if u.element {
				b.NStyles = uint8(min(len(r.styles), cdpjson.MaxLayoutStyles))
				for k := range int(b.NStyles) {
					b.Styles[k] = -1
					if r.styles[k] != "" {
						b.Styles[k] = index(r.styles[k])
					}
				}
			} else if pb := ti.Boxes[u.parent]; pb != nil {
				b.Styles, b.NStyles = pb.Styles, pb.NStyles
			} else if k, ok := byID[u.parent]; ok {
				b.Styles, b.NStyles = added[k].Styles, added[k].NStyles
			}
			byID[u.id] = len(added)
			added = append(added, b)
		}
	}
	slab := make([]cdpjson.Box, len(added))
	copy(slab, added)
	for i := range slab {
		ti.Boxes[slab[i].ID] = &slab[i]
	}
	ti.Layout = append(ti.Layout, added...)
}
