package query

import (
	"context"
	_ "embed" // the page script
	"encoding/json"
	"slices"
	"strconv"
	"strings"

	"domscope/dom"
	"domscope/dom/flatten"
)

// lookJS reads, in one call, where the page and the given scroll
// containers stand and what lies on top at each control's sample
// points. Nodes go in and out as paths from the document (lookPath). It
// returns numbers, tag names and paths: no text, no value.
//
//go:embed look.js
var lookJS string

// maxLook bounds the scroll containers and the controls one read asks
// about: a page of thousands keeps the call short, the rest unmarked.
const maxLook = 2000

// ReadLook reads what a view shows besides the capture (dom.Look) for
// snap, on page target targetID, through call: one round trip for the
// page and its scroll containers, and the hit tests of the controls in
// the viewport when covered is set. Never one per node. It runs in an
// isolated world, as QueryCSS does.
func ReadLook(ctx context.Context, call CallFunc, snap *dom.Snapshot, targetID string, covered bool) (*dom.Look, error) {
	if snap == nil || snap.Root == nil {
		return nil, nil
	}
	scrollers, controls := flatten.LookWants(snap, covered)
	var sPaths []string
	var sNodes []*dom.VirtualNode
	for _, n := range scrollers[:min(len(scrollers), maxLook)] {
		if p, ok := lookPath(n, targetID); ok {
			sPaths, sNodes = append(sPaths, p), append(sNodes, n)
		}
	}
	var hit [][4]float64
	var hNodes []*dom.VirtualNode
	for _, n := range controls[:min(len(controls), maxLook)] {
		if n.TargetID == "" || n.TargetID == targetID {
			b := n.Bounds
			hit, hNodes = append(hit, [4]float64{b.X, b.Y, b.W, b.H}), append(hNodes, n)
		}
	}
	var world struct {
		ID int64 `json:"executionContextId"`
	}
	if err := call(ctx, "Page.createIsolatedWorld", map[string]any{"frameId": targetID, "worldName": queryWorld, "grantUniveralAccess": false}, &world); err != nil {
		return nil, err
	}
	arg, _ := json.Marshal(map[string]any{"scroll": nonNil(sPaths), "hit": nonNil(hit)})
	var ev struct {
		Result struct {
			Value json.RawMessage `json:"value"`
		} `json:"result"`
		ExceptionDetails *struct {
			Text string `json:"text"`
		} `json:"exceptionDetails"`
	}
	expr := "(" + lookJS + ")(" + string(arg) + ")"
	if err := call(ctx, "Runtime.evaluate", map[string]any{"expression": expr, "contextId": world.ID, "returnByValue": true}, &ev); err != nil {
		return nil, err
	}
	if ev.ExceptionDetails != nil {
		return nil, dom.Errorf(dom.SnapshotFailed, nil, "reading scroll positions and hit tests failed: %s", ev.ExceptionDetails.Text)
	}
	var out struct {
		Page   []json.RawMessage   `json:"page"`
		Scroll [][]json.RawMessage `json:"scroll"`
		Hits   [][]int             `json:"hits"`
		Paths  [][2]*string        `json:"paths"`
	}
	if err := json.Unmarshal(ev.Result.Value, &out); err != nil {
		return nil, dom.Errorf(dom.SnapshotFailed, err, "an unreadable reply reading scroll positions")
	}
	look := &dom.Look{Scroll: map[*dom.VirtualNode]*dom.Scroll{}, Hits: map[*dom.VirtualNode]*[dom.LookPoints]dom.Hit{}}
	if s, ok := scrollFacts(out.Page); ok {
		look.Page = s
	}
	if len(out.Page) >= 6 {
		var f [6]float64
		for k := range f {
			_ = json.Unmarshal(out.Page[k], &f[k])
		}
		look.Viewport = dom.Rect{X: f[0], Y: f[1], W: f[4], H: f[5]}
	}
	for i, row := range out.Scroll {
		if i >= len(sNodes) || len(row) < 1 {
			continue
		}
		var tag string
		if json.Unmarshal(row[0], &tag) != nil || !strings.EqualFold(tag, sNodes[i].Tag) {
			continue // the page changed since the snapshot
		}
		if s, ok := scrollFacts(row[1:]); ok {
			look.Scroll[sNodes[i]] = s
		}
	}
	nodes := make([]*dom.VirtualNode, len(out.Paths))
	for i, p := range out.Paths {
		if p[0] != nil && p[1] != nil {
			if n := nodeAt(snap.Root, *p[0]); n != nil && strings.EqualFold(n.Tag, *p[1]) {
				nodes[i] = n
			}
		}
	}
	for i, row := range out.Hits {
		if i >= len(hNodes) || len(row) != dom.LookPoints {
			continue
		}
		var h [dom.LookPoints]dom.Hit
		for k, x := range row {
			h[k].In = x != -1
			if x >= 0 && x < len(nodes) {
				h[k].Node = nodes[x]
			}
		}
		look.Hits[hNodes[i]] = &h
	}
	return look, nil
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// scrollFacts reads [left, top, width, height, clientWidth,
// clientHeight, overflowX, overflowY]: where a box stands when its
// content is larger than its box on an axis that scrolls, else false.
func scrollFacts(row []json.RawMessage) (*dom.Scroll, bool) {
	if len(row) < 8 {
		return nil, false
	}
	var f [6]float64
	for k := range f {
		if json.Unmarshal(row[k], &f[k]) != nil {
			return nil, false
		}
	}
	var ox, oy string
	_ = json.Unmarshal(row[6], &ox)
	_ = json.Unmarshal(row[7], &oy)
	s := &dom.Scroll{Left: f[0], Top: f[1], Width: f[2], Height: f[3], ClientWidth: f[4], ClientHeight: f[5]}
	if s.ClientWidth <= 0 && s.ClientHeight <= 0 {
		return nil, false
	}
	// an axis that does not scroll does not count; the page's visible
	// overflow scrolls (the viewport's)
	scrolls := func(o string) bool { return o != "hidden" && o != "clip" }
	if !scrolls(oy) {
		s.Height, s.Top = s.ClientHeight, 0
	}
	if !scrolls(ox) {
		s.Width, s.Left = s.ClientWidth, 0
	}
	if s.Height <= s.ClientHeight+1 && s.Width <= s.ClientWidth+1 {
		return nil, false
	}
	return s, true
}

// lookPath is n's path from its target's document for lookJS: the
// index among its parent's element children, "s" into an open shadow
// root, "f" into a frame's document. False where the page's scripts
// cannot follow it: a closed or user-agent shadow root, template
// content, another target.
func lookPath(n *dom.VirtualNode, targetID string) (string, bool) {
	if n.TargetID != "" && n.TargetID != targetID {
		return "", false
	}
	var steps []string
	for x := n; x.Parent != nil; x = x.Parent {
		switch x.NodeType {
		case dom.ElementNode:
			k := 0
			for _, c := range x.Parent.Children {
				if c == x {
					break
				}
				if c.NodeType == dom.ElementNode {
					k++
				}
			}
			steps = append(steps, strconv.Itoa(k))
		case dom.FragmentNode:
			if x.ShadowType != "open" {
				return "", false
			}
			steps = append(steps, "s")
		case dom.DocumentNode:
			steps = append(steps, "f")
		default:
			return "", false
		}
	}
	slices.Reverse(steps)
	return strings.Join(steps, "/"), true
}

// nodeAt follows a lookJS path down from root, or nil.
func nodeAt(root *dom.VirtualNode, path string) *dom.VirtualNode {
	x := root
	if path == "" {
		return nil
	}
	for st := range strings.SplitSeq(path, "/") {
		var next *dom.VirtualNode
		switch st {
		case "s":
			for _, c := range x.Children {
				if c.NodeType == dom.FragmentNode && c.ShadowType == "open" {
					next = c
					break
				}
			}
		case "f":
			for _, c := range x.Children {
				if c.NodeType == dom.DocumentNode {
					next = c
					break
				}
			}
		default:
			k, err := strconv.Atoi(st)
			if err != nil {
				return nil
			}
			for _, c := range x.Children {
				if c.NodeType != dom.ElementNode {
					continue
				}
				if k == 0 {
					next = c
					break
				}
				k--
			}
		}
		if next == nil {
			return nil
		}
		x = next
	}
	return x
}
