package capture

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"

	"github.com/go-json-experiment/json/jsontext"

	"domscope/dom/cdpjson"
)

// walkRow is one node of the page walker's answer (see pagewalk.js).
type walkRow struct {
	Type    int
	Tag     string
	Kids    int
	AX      bool // the row has role and name
	Role    string
	Name    *string
	Value   string
	Ignored bool
	Props   map[string]string
}

// decodeRows reads the walker's answer. It streams tokens: the answer
// of a large page holds tens of thousands of rows.
func decodeRows(data []byte) ([]walkRow, error) {
	dec := jsontext.NewDecoder(bytes.NewReader(data))
	if err := want(dec, '['); err != nil {
		return nil, err
	}
	var rows []walkRow
	for dec.PeekKind() == '[' {
		if _, err := dec.ReadToken(); err != nil {
			return nil, err
		}
		var r walkRow
		var err error
		r.Type, err = readInt(dec)
		if err == nil {
			r.Tag, err = readString(dec)
		}
		if err == nil {
			r.Kids, err = readInt(dec)
		}
		if err == nil && dec.PeekKind() != ']' {
			err = r.readAX(dec)
		}
		if err == nil {
			err = want(dec, ']')
		}
		if err != nil {
			return nil, fmt.Errorf("row %d: %w", len(rows), err)
		}
		rows = append(rows, r)
	}
	return rows, want(dec, ']')
}

func (r *walkRow) readAX(dec *jsontext.Decoder) error {
	r.AX = true
	var err error
	if r.Role, err = readString(dec); err != nil {
		return err
	}
	if dec.PeekKind() == 'n' {
		_, err = dec.ReadToken()
	} else {
		var name string
		name, err = readString(dec)
		r.Name = &name
	}
	if err != nil {
		return err
	}
	if r.Value, err = readString(dec); err != nil {
		return err
	}
	t, err := dec.ReadToken()
	if err != nil {
		return err
	}
	r.Ignored = t.Kind() == 't'
	if err := want(dec, '{'); err != nil {
		return err
	}
	for dec.PeekKind() != '}' {
		k, err := readString(dec)
		if err != nil {
			return err
		}
		v, err := readString(dec)
		if err != nil {
			return err
		}
		if r.Props == nil {
			r.Props = map[string]string{}
		}
		r.Props[k] = v
	}
	return want(dec, '}')
}

func want(dec *jsontext.Decoder, kind jsontext.Kind) error {
	t, err := dec.ReadToken()
	if err != nil {
		return err
	}
	if t.Kind() != kind {
		return fmt.Errorf("want %v, got %v", kind, t.Kind())
	}
	return nil
}

func readInt(dec *jsontext.Decoder) (int, error) {
	t, err := dec.ReadToken()
	if err != nil {
		return 0, err
	}
	if t.Kind() != '0' {
		return 0, fmt.Errorf("want a number, got %v", t.Kind())
	}
	return int(t.Int()), nil
}

func readString(dec *jsontext.Decoder) (string, error) {
	t, err := dec.ReadToken()
	if err != nil {
		return "", err
	}
	if t.Kind() != '"' {
		return "", fmt.Errorf("want a string, got %v", t.Kind())
	}
	return t.String(), nil
}

// axOut is one node of a getFullAXTree reply, as DecodeAXTree reads it.
type axOut struct {
	NodeID     string   `json:"nodeId"`
	Ignored    bool     `json:"ignored"`
	Role       *axValue `json:"role,omitempty"`
	Name       *axValue `json:"name,omitempty"`
	Value      *axValue `json:"value,omitempty"`
	Properties []axProp `json:"properties,omitempty"`
	BackendID  int64    `json:"backendDOMNodeId"`
}

type axValue struct {
	Type  string `json:"type"`
	Value string `json:"value"`
}

type axProp struct {
	Name  string  `json:"name"`
	Value axValue `json:"value"`
}

// lineUp walks the DOM reply and the walker's rows side by side, and
// writes the rows' roles as a getFullAXTree reply keyed by backend ids. A
// node whose row does not match (the page changed in between, or the
// walker could not see it) gets no AX node: Build then treats it as it
// treats a node Chrome left out. It returns how many nodes that was.
func lineUp(doc *cdpjson.Node, rows []walkRow) (json.RawMessage, int, error) {
	size := rowSizes(rows)
	if size == nil {
		return nil, 0, fmt.Errorf("page walker answer is not one tree (%d rows)", len(rows))
	}
	var nodes []axOut
	unmatched := 0
	type pair struct {
		n   *cdpjson.Node
		row int
	}
	stack := []pair{{doc, 0}}
	for len(stack) > 0 {
		p := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		r := &rows[p.row]
		if r.Type != p.n.NodeType || (r.Type == 1 && r.Tag != p.n.LocalName) {
			unmatched += countNodes(p.n)
			continue
		}
		if r.AX {
			nodes = append(nodes, r.ax(len(nodes)+1, p.n.BackendNodeID))
		}
		kids := walkKids(p.n)
		if len(kids) != r.Kids {
			for _, k := range kids {
				unmatched += countNodes(k)
			}
			continue
		}
		at := p.row + 1
		for _, k := range kids {
			stack = append(stack, pair{k, at})
			at += size[at]
		}
	}
	data, err := json.Marshal(struct {
		Nodes []axOut `json:"nodes"`
	}{nodes})
	return data, unmatched, err
}

func (r *walkRow) ax(id int, backend int64) axOut {
	o := axOut{NodeID: fmt.Sprint(id), Ignored: r.Ignored, BackendID: backend, Role: &axValue{"role", r.Role}}
	if r.Name != nil {
		o.Name = &axValue{"computedString", *r.Name}
	}
	if r.Value != "" {
		o.Value = &axValue{"string", r.Value}
	}
	keys := make([]string, 0, len(r.Props))
	for k := range r.Props {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		o.Properties = append(o.Properties, axProp{k, axValue{"string", r.Props[k]}})
	}
	return o
}

// rowSizes gives each row's subtree size, itself included. It is nil when
// the rows are not exactly one preorder tree.
func rowSizes(rows []walkRow) []int {
	if len(rows) == 0 {
		return nil
	}
	size := make([]int, len(rows))
	// end[i] is the row after i's subtree, found with an explicit stack.
	type open struct{ row, left int }
	var stack []open
	for i := range rows {
		if rows[i].Kids < 0 {
			return nil
		}
		stack = append(stack, open{i, rows[i].Kids})
		for len(stack) > 0 && stack[len(stack)-1].left == 0 {
			top := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			size[top.row] = i + 1 - top.row
			if len(stack) > 0 {
				stack[len(stack)-1].left--
			}
		}
		if len(stack) == 0 && i != len(rows)-1 {
			return nil
		}
	}
	if len(stack) != 0 {
		return nil
	}
	return size
}

func countNodes(n *cdpjson.Node) int {
	c := 0
	stack := []*cdpjson.Node{n}
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		c++
		stack = append(stack, walkKids(x)...)
	}
	return c
}
