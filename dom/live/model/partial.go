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

	"domscope/dom"
	"domscope/dom/cdpjson"
)

// A refresh used to read the whole page's layout (DOMSnapshot), which is
// most of its time on a large page. When the page guard (guard.go) says
// nothing page-wide moved, a refresh reads the changed parts only. Each
// node the DOM events name is read with the subtree of its nearest block
// ancestor, its "container". The changed node can move its siblings.
// If a container's box or styles changed, boxes outside it may have
// moved. The read then grows to the container's own container, up to
// maxPartialNodes; beyond that a full layout is read. A float whose box
// changed can move text anywhere: a full layout.

// maxPartialNodes bounds the nodes a partial layout read visits.
const maxPartialNodes = 4000

// maxPartialRounds bounds how often the read grows to outer containers.
const maxPartialRounds = 4

// partialJS reads every element's and text's layout under each root, in
// tree order (an element, then its children). An element gives [1, name,
// drawn, x, y, w, h, float, styles...]; a text gives [3, drawn, x, y, w,
// h]. Bounds are in document coordinates. Comments and the like are
// skipped. It returns no text and no value. It does not enter shadow
// roots or frames; checkPartial asks their hosts to stay put. A subtree
// past max nodes stops it.
//
//go:embed partial.js
var partialJS string

// partialRead is what partialJS read of one root: its entries in order.
type partialEntry struct {
	element bool
	name    string
	drawn   bool
	bounds  dom.Rect
	float   bool
	styles  []string
}

// decodePartial reads partialJS's reply: the entries of each root, or
// why the read cannot stand.
func decodePartial(raw json.RawMessage) ([][]partialEntry, string) {
	var why string
	if json.Unmarshal(raw, &why) == nil {
		return nil, "the partial layout read stopped: " + why
	}
	var rows [][][]json.RawMessage
	if err := json.Unmarshal(raw, &rows); err != nil {
		return nil, "an unreadable partial layout"
	}
	out := make([][]partialEntry, len(rows))
	for i, list := range rows {
		for _, e := range list {
			var kind int
			if len(e) < 2 || json.Unmarshal(e[0], &kind) != nil {
				return nil, "a node went while its layout was read"
			}
			var p partialEntry
			num := func(k int) float64 {
				var f float64
				if k < len(e) {
					_ = json.Unmarshal(e[k], &f)
				}
				return f
			}
			switch kind {
			case 3:
				p.drawn = num(1) == 1
				if p.drawn {
					p.bounds = dom.Rect{X: num(2), Y: num(3), W: num(4), H: num(5)}
				}
			case 1:
				p.element = true
				if len(e) < 8 || json.Unmarshal(e[1], &p.name) != nil {
					return nil, "an unreadable partial layout"
				}
				p.drawn = num(2) == 1
				p.bounds = dom.Rect{X: num(3), Y: num(4), W: num(5), H: num(6)}
				p.float = num(7) == 1
				for k := 8; k < len(e); k++ {
					var s string
					_ = json.Unmarshal(e[k], &s)
					p.styles = append(p.styles, s)
				}
			default:
				return nil, "an unreadable partial layout"
			}
			out[i] = append(out[i], p)
		}
	}
	return out, ""
}

// layoutOrder lists the model nodes under root in partialJS's order:
// elements and texts, children in order. It skips shadow roots, template
// contents and frame documents. m.mu is held.
func layoutOrder(root *cdpjson.Node, max int) ([]planNode, bool) {
	var out []planNode
	type item struct {
		n      *cdpjson.Node
		parent int
	}
	stack := []item{{root, -1}}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		x := it.n
		if x.NodeType != dom.ElementNode && x.NodeType != dom.TextNode {
			continue
		}
		pn := planNode{id: x.BackendNodeID, element: x.NodeType == dom.ElementNode, parent: it.parent}
		if pn.element {
			pn.name = strings.ToLower(x.LocalName)
			if pn.name == "" {
				pn.name = strings.ToLower(x.NodeName)
			}
			pn.host = x.ContentDocument != nil || x.FrameID != ""
			for _, s := range x.ShadowRoots {
				pn.host = pn.host || s.ShadowRootType != "user-agent"
			}
		}
		out = append(out, pn)
		if len(out) > max {
			return nil, false
		}
		if strings.EqualFold(x.NodeName, "TEMPLATE") {
			continue
		}
		for i := len(x.Children) - 1; i >= 0; i-- {
			stack = append(stack, item{x.Children[i], len(out) - 1})
		}
	}
	return out, true
}

// pageWideTags are elements whose change can move any box of the page.
var pageWideTags = map[string]bool{"STYLE": true, "LINK": true, "HEAD": true, "META": true, "BASE": true, "HTML": true, "BODY": true}

// containerOf is the nearest ancestor of n (not n) that the old layout
// drew as a block-level box. What n's change can move is inside it, as
// long as its own box does not change. nil when there is none up to
// <body>. m.mu is held.
func (m *Model) containerOf(n *cdpjson.Node) *cdpjson.Node {
	for x := m.parent[n.NodeID]; x != nil; x = m.parent[x.NodeID] {
		if x.ShadowRootType == "user-agent" {
			continue // a control's own insides: its host holds them
		}
		if x.NodeType != dom.ElementNode {
			return nil // a shadow root or a document: not followed here
		}
		if up := strings.ToUpper(x.NodeName); up != "BODY" && pageWideTags[up] {
			return nil
		}
		b := m.ti.Boxes[x.BackendNodeID]
		if b == nil {
			continue
		}
		switch d := m.ti.StyleAt(b, displayStyle); {
		case d == "" || d == "contents" || d == "none" || strings.HasPrefix(d, "inline") && d != "inline-block" && d != "inline-flex" && d != "inline-grid" && d != "inline-table":
			continue
		}
		return x
	}
	return nil
}

var displayStyle = func() int {
	for i, s := range dom.LayoutStyles {
		if s == "display" {
			return i
		}
	}
	return -1
}()

// partialPlan is what a partial layout read reads. It lists the
// containers of the changed nodes, outermost only. Under each are the
// model's nodes in the read's order.
type partialPlan struct {
	roots []*cdpjson.Node
	nodes [][]planNode
	total int
}

// planNode is one node a partial read reads. It holds what the checks
// and the new layout need of the model, read without m.mu.
type planNode struct {
	id      int64 // backend id
	element bool
	name    string // lowercase local name, for elements
	host    bool   // a frame or the host of a shadow root
	parent  int    // index of its parent in the list (-1 for the root)
}

// planPartial finds the containers of the changed nodes (by node id).
// It returns why a partial read cannot do ("" and a plan if it can).
// m.mu is held.
func (m *Model) planPartial(changed []int64) (*partialPlan, string) {
	if m.ti.Listed == nil || m.ti.Boxes == nil || len(m.frames) > 0 {
		return nil, "the page has out-of-process frames"
	}
	set := map[*cdpjson.Node]bool{}
	for _, id := range changed {
		n := m.byNode[id]
		if n == nil {
			continue // removed since: its parent is in the list
		}
		for x := n; x != nil; x = m.parent[x.NodeID] {
			switch strings.ToUpper(x.NodeName) {
			case "STYLE", "LINK", "HEAD", "META", "BASE":
				return nil, "a style or head element changed"
			}
		}
		c := m.containerOf(n)
		if c == nil {
			return nil, "a change reaches the whole page"
		}
		set[c] = true
	}
	return m.planOf(set)
}

// planOf keeps the outermost of containers and lists their nodes.
func (m *Model) planOf(set map[*cdpjson.Node]bool) (*partialPlan, string) {
	plan := &partialPlan{}
	for c := range set {
		inner := false
		for x := m.parent[c.NodeID]; x != nil && !inner; x = m.parent[x.NodeID] {
			inner = set[x]
		}
		if inner {
			continue
		}
		nodes, ok := layoutOrder(c, maxPartialNodes-plan.total)
		if !ok {
			return nil, "the changed part of the page is too large or holds a frame or shadow root"
		}
		plan.roots = append(plan.roots, c)
		plan.nodes = append(plan.nodes, nodes)
		plan.total += len(nodes)
	}
	return plan, ""
}

// grow replaces each root of plan whose box moved by its container.
func (m *Model) grow(plan *partialPlan, moved []int) (*partialPlan, string) {
	set := map[*cdpjson.Node]bool{}
	isMoved := map[int]bool{}
	for _, i := range moved {
		isMoved[i] = true
		c := m.containerOf(plan.roots[i])
		if c == nil {
			return nil, "a change moved boxes across the page"
		}
		set[c] = true
	}
	for i, r := range plan.roots {
		if !isMoved[i] {
			set[r] = true
		}
	}
	return m.planOf(set)
}

// fmtRoots names the roots of a plan (for a fallback's reason).
func fmtRoots(plan *partialPlan) string {
	var names []string
	for _, r := range plan.roots {
		names = append(names, strings.ToLower(r.NodeName))
	}
	return fmt.Sprint(names)
}

// partialLayout reads the layout of the changed parts of the page into
// a copy of the model's layout. changed names those nodes by node id.
// It also reads the guard's form controls. It returns nil and why when
// the whole layout must be read. wait gives the sensitive sets once
// known. The model's layout is written by the refresh alone. So it is
// read here without m.mu, which the tree built ahead holds meanwhile.
func (m *Model) partialLayout(ctx context.Context, p dom.Session, changed []int64, controls []control, group string, wait func() (inside, fields map[int64]bool)) (*cdpjson.Target, []string, string, error) {
	m.mu.Lock()
	plan, why := m.planPartial(changed)
	m.mu.Unlock()
	if why != "" {
		return nil, nil, why, nil
	}
	var reads [][]partialEntry
	for round := 0; ; round++ {
		if round == maxPartialRounds {
			return nil, nil, "the change moved boxes " + fmtRoots(plan), nil
		}
		var err error
		if reads, why, err = readPartial(ctx, p, plan, group); err != nil || why != "" {
			return nil, nil, why, err
		}
		moved, why := m.checkPartial(plan, reads)
		if why == "" && len(moved) > 0 {
			m.mu.Lock()
			plan, why = m.grow(plan, moved)
			m.mu.Unlock()
		}
		if why != "" {
			return nil, nil, why, nil
		}
		if len(moved) == 0 {
			break
		}
	}
	var inside, fields map[int64]bool
	if len(controls) > 0 {
		inside, fields = wait()
	}
	fresh, secrets := m.freshLayout(plan, reads, controls, inside, fields)
	if len(fresh.Layout) > 2*m.fullBoxes+1000 {
		return nil, nil, "the layout read part by part grew too much", nil
	}
	return fresh, secrets, "", nil
}

// readPartial runs partialJS over the plan's roots and matches what it
// read with the model's nodes.
func readPartial(ctx context.Context, p dom.Session, plan *partialPlan, group string) ([][]partialEntry, string, error) {
	if len(plan.roots) == 0 {
		return nil, "", nil
	}
	objs := make([]string, len(plan.roots))
	var wg sync.WaitGroup
	var firstErr error
	var mu sync.Mutex
	for i, r := range plan.roots {
		wg.Go(func() {
			var res struct {
				Object struct {
					ObjectID string `json:"objectId"`
				} `json:"object"`
			}
			if err := p.Call(ctx, "DOM.resolveNode", map[string]any{"backendNodeId": r.BackendNodeID, "objectGroup": group}, &res); err != nil {
				if nodeErr(err) != nil {
					mu.Lock()
					firstErr = err
					mu.Unlock()
				}
				return
			}
			objs[i] = res.Object.ObjectID
		})
	}
	wg.Wait()
	if firstErr != nil {
		return nil, "", firstErr
	}
	args := []any{map[string]any{"value": dom.LayoutStyles}, map[string]any{"value": maxPartialNodes}}
	for _, o := range objs {
		if o == "" {
			return nil, "a changed part went while it was read", nil
		}
		args = append(args, map[string]any{"objectId": o})
	}
	var ev struct {
		Result struct {
			Value json.RawMessage `json:"value"`
		} `json:"result"`
		ExceptionDetails json.RawMessage `json:"exceptionDetails"`
	}
	if err := p.Call(ctx, "Runtime.callFunctionOn", map[string]any{"objectId": objs[0], "functionDeclaration": partialJS, "arguments": args, "returnByValue": true}, &ev); err != nil {
		return nil, "", nodeErr(err)
	}
	if len(ev.ExceptionDetails) > 0 {
		return nil, "the partial layout read failed", nil
	}
	reads, why := decodePartial(ev.Result.Value)
	if why != "" {
		return nil, why, nil
	}
	if len(reads) != len(plan.roots) {
		return nil, "an unreadable partial layout", nil
	}
	for i, list := range reads {
		nodes := plan.nodes[i]
		if len(list) != len(nodes) {
			return nil, fmt.Sprintf("the page changed while its layout was read (%d, %d nodes)", len(list), len(nodes)), nil
		}
		for k, e := range list {
			if n := nodes[k]; e.element != n.element || e.element && e.name != n.name {
				return nil, fmt.Sprintf("the page changed while its layout was read (%s, %s)", e.name, n.name), nil
			}
		}
	}
	return reads, "", nil
}

// checkPartial lists the roots whose box or styles changed: what lies
// outside them may have moved. A float, a frame or a shadow host whose
// box changed moves what the read does not see. It reads the model's
// layout, which only the refresh writes, not its tree (no m.mu).
func (m *Model) checkPartial(plan *partialPlan, reads [][]partialEntry) ([]int, string) {
	var moved []int
	for i, list := range reads {
		for k, e := range list {
			n := plan.nodes[i][k]
			same := sameBox(m.ti, n.id, e)
			if k == 0 && !same {
				moved = append(moved, i)
			}
			if same {
				continue
			}
			if e.float {
				return nil, "a float changed"
			}
			if n.host {
				return nil, "a frame or shadow host changed its box"
			}
		}
	}
	return moved, ""
}

// sameBox reports whether what was read of node id is what layout ti
// holds.
func sameBox(ti *cdpjson.Target, id int64, e partialEntry) bool {
	ob := ti.Boxes[id]
	if ob == nil || !e.drawn {
		return ob == nil && !e.drawn
	}
	if ob.Bounds != e.bounds {
		return false
	}
	if !e.element {
		return true
	}
	for k := range e.styles {
		if ti.StyleAt(ob, k) != e.styles[k] {
			return false
		}
	}
	return true
}

// freshLayout is the model's layout with what a partial read found.
// The boxes read replace theirs, in the layout's order, new ones after.
// The controls' states replace theirs, a sensitive field's value masked
// as capture.RedactLayout does. It returns the sensitive values it saw.
// It reads the model's layout, not its tree (no m.mu).
func (m *Model) freshLayout(plan *partialPlan, reads [][]partialEntry, controls []control, inside, fields map[int64]bool) (*cdpjson.Target, []string) {
	old := m.ti
	fresh := &cdpjson.Target{Raw: old.Raw, Listed: &cdpjson.IDSet{}, DocViewport: old.DocViewport,
		Strings: slices.Clone(old.Strings), Values: maps.Clone(old.Values), Selected: maps.Clone(old.Selected), Checked: maps.Clone(old.Checked)}
	old.Listed.Each(fresh.Listed.Add)
	str := map[string]int32{}
	intern := func(s string) int32 {
		if s == "" {
			return -1
		}
		if i, ok := str[s]; ok {
			return i
		}
		i := int32(len(fresh.Strings))
		fresh.Strings = append(fresh.Strings, s)
		str[s] = i
		return i
	}
	type upd struct {
		box   cdpjson.Box
		drawn bool
	}
	read := map[int64]upd{}
	var order []int64
	for i, list := range reads {
		for k, e := range list {
			n := plan.nodes[i][k]
			fresh.Listed.Add(n.id)
			u := upd{box: cdpjson.Box{ID: n.id, Bounds: e.bounds}, drawn: e.drawn}
			if e.element {
				u.box.NStyles = uint8(min(len(e.styles), cdpjson.MaxLayoutStyles))
				for s := range int(u.box.NStyles) {
					u.box.Styles[s] = intern(e.styles[s])
				}
			} else if n.parent >= 0 {
				// a text's styles are its parent's, as in DOMSnapshot
				pu := read[plan.nodes[i][n.parent].id]
				u.box.Styles, u.box.NStyles = pu.box.Styles, pu.box.NStyles
			}
			if _, seen := read[n.id]; !seen {
				order = append(order, n.id)
			}
			read[n.id] = u
		}
	}
	fresh.Layout = make([]cdpjson.Box, 0, len(old.Layout)+len(order))
	for _, b := range old.Layout {
		u, ok := read[b.ID]
		switch {
		case !ok:
			fresh.Layout = append(fresh.Layout, b)
		case u.drawn:
			fresh.Layout = append(fresh.Layout, u.box)
		}
	}
	for _, id := range order {
		if u := read[id]; u.drawn && old.Boxes[id] == nil {
			fresh.Layout = append(fresh.Layout, u.box)
		}
	}
	fresh.Boxes = make(map[int64]*cdpjson.Box, len(fresh.Layout))
	for i := range fresh.Layout {
		fresh.Boxes[fresh.Layout[i].ID] = &fresh.Layout[i]
	}
	var secrets []string
	set := func(mp *map[int64]bool, id int64, on bool) {
		if on {
			if *mp == nil {
				*mp = map[int64]bool{}
			}
			(*mp)[id] = true
		} else {
			delete(*mp, id)
		}
	}
	for _, c := range controls {
		if c.id == 0 {
			continue
		}
		switch c.kind {
		case 0, 1:
			v := c.value
			if inside[c.id] && v != "" {
				secrets = append(secrets, v)
				v = ""
				if fields[c.id] {
					v = dom.Mask
				}
			}
			if fresh.Values == nil {
				fresh.Values = map[int64]string{}
			}
			fresh.Values[c.id] = v
			if c.kind == 0 {
				set(&fresh.Checked, c.id, c.on)
			}
		case 2:
			set(&fresh.Selected, c.id, c.on)
		}
	}
	return fresh, secrets
}
