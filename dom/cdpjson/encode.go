package cdpjson

import (
	"encoding/json"
	"slices"

	"domscope/dom"
)

// Encode writes the decoded capture back as a capture, for export and
// rebuilds with other rules. Each target's document is written as
// DOM.getDocument returns it. The AX facts Build reads become one AX
// tree. The layout facts become one DOMSnapshot document. Building it
// gives what building c gives.
func (c *Capture) Encode() (*dom.RawCapture, error) {
	out := *c.Raw
	out.Timings = nil
	out.Targets = nil
	for _, ti := range c.Targets {
		t, err := encodeTarget(ti)
		if err != nil {
			return nil, err
		}
		out.Targets = append(out.Targets, t)
	}
	return &out, nil
}

// encodeTarget writes one target's decoded facts back as its capture. A
// frame that could not be read stays as it was: its error, no data.
func encodeTarget(ti *Target) (dom.RawTarget, error) {
	t := *ti.Raw
	if ti.Root == nil {
		return t, nil
	}
	doc, err := json.Marshal(struct {
		Root *Node `json:"root"`
	}{ti.Root})
	if err != nil {
		return t, err
	}
	t.Document = doc
	t.DocumentParts = nil
	t.AXTrees = []json.RawMessage{encodeAX(ti.AX)}
	if t.Layout, err = encodeLayout(ti); err != nil {
		return t, err
	}
	t.Listeners = nil
	for id := range ti.Listeners {
		t.Listeners = append(t.Listeners, dom.RawListener{BackendID: id, Type: "click"})
	}
	return t, nil
}

// encodeAX writes AX facts as an Accessibility.getFullAXTree reply that
// DecodeAXTree reads back to the same facts.
func encodeAX(ax map[int64]*AXNode) json.RawMessage {
	type val struct {
		Value string `json:"value"`
	}
	type prop struct {
		Name  string `json:"name"`
		Value val    `json:"value"`
	}
	type node struct {
		Ignored    bool   `json:"ignored"`
		Backend    int64  `json:"backendDOMNodeId"`
		Role       *val   `json:"role,omitempty"`
		Name       *val   `json:"name,omitempty"`
		Value      *val   `json:"value,omitempty"`
		Properties []prop `json:"properties,omitempty"`
	}
	nodes := make([]node, 0, len(ax))
	for _, a := range ax {
		n := node{Ignored: a.Ignored, Backend: a.BackendID}
		if a.Role != "" {
			n.Role = &val{a.Role}
		}
		if a.HasName {
			n.Name = &val{a.Name}
		}
		if a.Value != "" {
			n.Value = &val{a.Value}
		}
		for _, p := range a.Properties {
			n.Properties = append(n.Properties, prop{p.Name, val{p.Value}})
		}
		nodes = append(nodes, n)
	}
	b, _ := json.Marshal(struct {
		Nodes []node `json:"nodes"`
	}{nodes})
	return b
}

// encodeLayout writes a target's layout facts as one DOMSnapshot
// document. IndexLayout reads it back to the same facts. It holds:
//   - the boxes, already in the target's top document coordinates. So
//     there are no shifts.
//   - their styles.
//   - the live values and the selected and checked marks.
//   - every node the layout listed (cover.go).
//
// The document node comes first, as its box is the viewport.
func encodeLayout(ti *Target) (json.RawMessage, error) {
	var d SnapDocument
	strs := slices.Clone(ti.Strings)
	seen := map[int64]bool{}
	var ids []int64
	add := func(id int64) {
		if id != 0 && !seen[id] {
			seen[id] = true
			ids = append(ids, id)
		}
	}
	var rest []int64
	for id := range ti.Boxes {
		rest = append(rest, id)
	}
	for id := range ti.Values {
		rest = append(rest, id)
	}
	for id := range ti.Selected {
		rest = append(rest, id)
	}
	for id := range ti.Checked {
		rest = append(rest, id)
	}
	ti.Listed.Each(func(id int64) { rest = append(rest, id) })
	slices.Sort(rest)
	if ti.Root != nil {
		add(ti.Root.BackendNodeID)
	}
	for _, id := range rest {
		add(id)
	}
	d.Nodes.BackendNodeID = ids
	if ti.Listed != nil {
		// every node is listed, laid out or not, as in Chrome's reply
		d.Nodes.ParentIndex = parentIndexes(ti.Root, ids)
	}
	for ni, id := range ids {
		if b := ti.Boxes[id]; b != nil {
			d.Layout.NodeIndex = append(d.Layout.NodeIndex, ni)
			d.Layout.Bounds = append(d.Layout.Bounds, []float64{b.Bounds.X, b.Bounds.Y, b.Bounds.W, b.Bounds.H})
			st := make([]int, b.NStyles)
			for k := range st {
				st[k] = int(b.Styles[k])
			}
			d.Layout.Styles = append(d.Layout.Styles, st)
		}
		if v, ok := ti.Values[id]; ok {
			si := -1 // an empty value is string index -1
			if v != "" {
				si = len(strs)
				strs = append(strs, v)
			}
			d.Nodes.InputValue.Index = append(d.Nodes.InputValue.Index, ni)
			d.Nodes.InputValue.Value = append(d.Nodes.InputValue.Value, si)
		}
		if ti.Selected[id] {
			d.Nodes.OptionSelected.Index = append(d.Nodes.OptionSelected.Index, ni)
		}
		if ti.Checked[id] {
			d.Nodes.InputChecked.Index = append(d.Nodes.InputChecked.Index, ni)
		}
	}
	return json.Marshal(DOMSnapshot{Documents: []SnapDocument{d}, Strings: strs})
}

// parentIndexes gives the index in ids of each node's parent in the tree
// under root (-1 for none).
func parentIndexes(root *Node, ids []int64) []int {
	at := make(map[int64]int, len(ids))
	for i, id := range ids {
		at[id] = i
	}
	out := make([]int, len(ids))
	for i := range out {
		out[i] = -1
	}
	type pair struct{ n, p *Node }
	stack := []pair{{root, nil}}
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if x.n == nil {
			continue
		}
		if i, ok := at[x.n.BackendNodeID]; ok && x.p != nil {
			if j, ok := at[x.p.BackendNodeID]; ok {
				out[i] = j
			}
		}
		for _, c := range x.n.Children {
			stack = append(stack, pair{c, x.n})
		}
		for _, c := range x.n.ShadowRoots {
			stack = append(stack, pair{c, x.n})
		}
		stack = append(stack, pair{x.n.ContentDocument, x.n}, pair{x.n.TemplateContent, x.n})
	}
	return out
}
