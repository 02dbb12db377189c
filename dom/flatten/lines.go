package flatten

import (
	"bytes"
	"encoding/json"
	"strings"

	"domscope/dom"
)

// Line is one line of a flattened format with the ID of the node it
// belongs to ("" for lines of no node). A view can then map lines to nodes
// without reading the text back.
type Line struct {
	ID   string
	Text string
}

// FormatTextLines is FormatText split in lines, each with its node's ID
// (text lines carry the ID of their #text node). Joining the texts with
// "\n" after each gives FormatText's output.
func FormatTextLines(sd *dom.SerializedDom) []Line {
	if sd == nil {
		return nil
	}
	var out []Line
	var b strings.Builder
	eachTextNode(sd, func(n *dom.SerializedNode, depth int) {
		b.Reset()
		writeTextLine(&b, n, depth)
		out = append(out, Line{ID: n.ID, Text: strings.TrimSuffix(b.String(), "\n")})
	})
	return out
}

// FormatJSONLines is FormatJSON indented two spaces per level for reading,
// split in lines. Each line inside a node's object (its braces included)
// carries that node's ID. Lines of nested children carry the innermost
// node's ID. It is
// written in one pass: each node is encoded on its own, knowing its ID.
func FormatJSONLines(sd *dom.SerializedDom) ([]Line, error) {
	work.format.Add(1)
	top := dom.SerializedDom{}
	if sd != nil {
		top = *sd
	}
	top.Nodes = []*dom.SerializedNode{}
	if top.Frames == nil {
		top.Frames = []dom.FrameInfo{}
	}
	head, err := indented(&top, "")
	if err != nil {
		return nil, err
	}
	w := jsonLines{out: make([]Line, 0, len(head)+64)}
	for _, l := range head {
		if l != `  "nodes": [],` && l != `  "nodes": []` || sd == nil || len(sd.Nodes) == 0 {
			w.out = append(w.out, Line{Text: l})
			continue
		}
		w.out = append(w.out, Line{Text: `  "nodes": [`})
		if err := w.nodes(sd.Nodes, "    ", ""); err != nil {
			return nil, err
		}
		w.out = append(w.out, Line{Text: "  ]" + strings.TrimPrefix(l, `  "nodes": []`)})
	}
	return w.out, nil
}

// jsonLines collects the indented JSON lines of nodes.
type jsonLines struct {
	out []Line
}

// nodes writes the elements of a nodes or children array at indent; the
// lines of a null element belong to owner.
func (w *jsonLines) nodes(ns []*dom.SerializedNode, indent, owner string) error {
	for i, n := range ns {
		comma := ""
		if i < len(ns)-1 {
			comma = ","
		}
		if n == nil {
			w.out = append(w.out, Line{ID: owner, Text: indent + "null" + comma})
			continue
		}
		if err := w.node(n, indent, comma); err != nil {
			return err
		}
	}
	return nil
}

// node writes one node object: its own members, encoded without its
// children, then its children array, every line with its ID.
func (w *jsonLines) node(n *dom.SerializedNode, indent, comma string) error {
	id := dom.NormalizeID(n.ID)
	own := *n
	own.Children = nil
	lines, err := indented(&own, indent)
	if err != nil {
		return err
	}
	last := len(lines) - 1 // the closing brace
	if len(n.Children) == 0 {
		for i, l := range lines {
			if i == 0 {
				l = indent + l
			}
			if i == last {
				l += comma
			}
			w.out = append(w.out, Line{ID: id, Text: l})
		}
		return nil
	}
	for i, l := range lines[:last] {
		if i == 0 {
			l = indent + l
		}
		if i == last-1 {
			l += ","
		}
		w.out = append(w.out, Line{ID: id, Text: l})
	}
	w.out = append(w.out, Line{ID: id, Text: indent + `  "children": [`})
	if err := w.nodes(n.Children, indent+"    ", id); err != nil {
		return err
	}
	w.out = append(w.out, Line{ID: id, Text: indent + "  ]"}, Line{ID: id, Text: indent + "}" + comma})
	return nil
}

// indented encodes v as FormatJSON does (no HTML escaping, unsafe
// characters escaped) and indents it two spaces per level after prefix;
// the first line has no prefix.
func indented(v any, prefix string) ([]string, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	var ind bytes.Buffer
	if err := json.Indent(&ind, EscapeJSON(bytes.TrimSuffix(b.Bytes(), []byte("\n"))), prefix, "  "); err != nil {
		return nil, err
	}
	return strings.Split(ind.String(), "\n"), nil
}
