package dom

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// decodeJSON decodes CDP results with json v2 (several times faster than
// encoding/json on large AX trees and layouts), tolerating what pages put in
// strings (invalid UTF-8, lone surrogates) and duplicate keys.
func decodeJSON(data []byte, v any) error {
	return jsonv2.Unmarshal(data, v, jsontext.AllowInvalidUTF8(true), jsontext.AllowDuplicateNames(true))
}

// cdpNode is the part of a CDP DOM.Node that Capture and Build read. dom
// must not import cdproto, so these are our own minimal structs.
type cdpNode struct {
	NodeID          int64      `json:"nodeId"`
	BackendNodeID   int64      `json:"backendNodeId"`
	NodeType        int        `json:"nodeType"`
	NodeName        string     `json:"nodeName"`
	LocalName       string     `json:"localName"`
	NodeValue       string     `json:"nodeValue"`
	ChildNodeCount  int        `json:"childNodeCount"` // read by Capture to find cut-off subtrees
	Children        []*cdpNode `json:"children"`
	Attributes      []string   `json:"attributes"`
	FrameID         string     `json:"frameId"`
	ContentDocument *cdpNode   `json:"contentDocument"`
	ShadowRoots     []*cdpNode `json:"shadowRoots"`
	ShadowRootType  string     `json:"shadowRootType"`
	TemplateContent *cdpNode   `json:"templateContent"`
	DocumentURL     string     `json:"documentURL"`
}

// parseDocument reads a DOM.getDocument result ({"root": Node}) or a bare
// Node. encoding/json refuses nesting deeper than 10,000 levels, which a
// deep page reaches quickly (two levels per element), so on failure it
// falls back to an iterative token decoder with no depth limit.
func parseDocument(data []byte) (*cdpNode, error) {
	if len(bytes.TrimSpace(data)) == 0 || bytes.Equal(bytes.TrimSpace(data), []byte("null")) {
		return nil, nil
	}
	if n, err := parseDocumentStream(data); err == nil {
		return n, nil
	}
	return parseDocumentDeep(data)
}

// graftParts attaches the DOM.setChildNodes parts of a document fetched in
// chunks (RawTarget.DocumentParts) under the nodes they belong to.
func graftParts(root *cdpNode, parts []json.RawMessage) error {
	if root == nil || len(parts) == 0 {
		return nil
	}
	byID := map[int64]*cdpNode{}
	index := func(n *cdpNode) {
		stack := []*cdpNode{n}
		for len(stack) > 0 {
			x := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if x == nil {
				continue
			}
			byID[x.NodeID] = x
			stack = append(stack, x.Children...)
			stack = append(stack, x.ShadowRoots...)
			stack = append(stack, x.ContentDocument, x.TemplateContent)
		}
	}
	index(root)
	for i, raw := range parts {
		var part struct {
			ParentID int64      `json:"parentId"`
			Nodes    []*cdpNode `json:"nodes"`
		}
		if err := decodeJSON(raw, &part); err != nil {
			return fmt.Errorf("document part %d: %w", i, err)
		}
		p := byID[part.ParentID]
		if p == nil {
			continue // its parent went away between replies
		}
		p.Children = part.Nodes
		for _, n := range part.Nodes {
			index(n)
		}
	}
	return nil
}

// parseDocumentDeep decodes a Node tree with an explicit stack.
func parseDocumentDeep(data []byte) (*cdpNode, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	tok, err := dec.Token()
	if err != nil {
		return nil, fmt.Errorf("document: %w", err)
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, errors.New("document: not a JSON object")
	}
	// The outer object may be {"root": Node} or a Node: parse it as a Node
	// whose "root" key lands in ContentDocument of a holder.
	holder := &cdpNode{}
	type frame struct {
		node *cdpNode
		list *[]*cdpNode // non-nil: inside an array of nodes
	}
	stack := []frame{{node: holder}}
	sawRoot := false
	for len(stack) > 0 {
		top := stack[len(stack)-1]
		tok, err := dec.Token()
		if err != nil {
			return nil, fmt.Errorf("document: %w", err)
		}
		if top.list != nil {
			switch t := tok.(type) {
			case json.Delim:
				switch t {
				case ']':
					stack = stack[:len(stack)-1]
				case '{':
					n := &cdpNode{}
					*top.list = append(*top.list, n)
					stack = append(stack, frame{node: n})
				default:
					return nil, errors.New("document: unexpected array in node list")
				}
			default:
				// a non-object in a node list: ignore it
			}
			continue
		}
		if d, ok := tok.(json.Delim); ok && d == '}' {
			stack = stack[:len(stack)-1]
			continue
		}
		key, ok := tok.(string)
		if !ok {
			return nil, errors.New("document: expected an object key")
		}
		n := top.node
		switch key {
		case "children", "shadowRoots":
			if err := expectDelim(dec, '['); err != nil {
				return nil, err
			}
			l := &n.Children
			if key == "shadowRoots" {
				l = &n.ShadowRoots
			}
			stack = append(stack, frame{list: l})
		case "root", "contentDocument", "templateContent":
			tok, err := dec.Token()
			if err != nil {
				return nil, fmt.Errorf("document: %w", err)
			}
			if d, ok := tok.(json.Delim); !ok || d != '{' {
				if tok == nil {
					continue
				}
				return nil, fmt.Errorf("document: %s is not an object", key)
			}
			c := &cdpNode{}
			switch {
			case key == "root" && n == holder:
				sawRoot = true
				n.ContentDocument = c
			case key == "templateContent":
				n.TemplateContent = c
			default:
				n.ContentDocument = c
			}
			stack = append(stack, frame{node: c})
		case "attributes":
			if err := expectDelim(dec, '['); err != nil {
				return nil, err
			}
			for dec.More() {
				t, err := dec.Token()
				if err != nil {
					return nil, fmt.Errorf("document: %w", err)
				}
				s, _ := t.(string)
				n.Attributes = append(n.Attributes, s)
			}
			if _, err := dec.Token(); err != nil {
				return nil, fmt.Errorf("document: %w", err)
			}
		default:
			t, err := dec.Token()
			if err != nil {
				return nil, fmt.Errorf("document: %w", err)
			}
			if d, ok := t.(json.Delim); ok && (d == '{' || d == '[') {
				if err := skipValue(dec); err != nil {
					return nil, err
				}
				continue
			}
			setScalar(n, key, t)
		}
	}
	if sawRoot {
		return holder.ContentDocument, nil
	}
	return holder, nil
}

func expectDelim(dec *json.Decoder, want json.Delim) error {
	tok, err := dec.Token()
	if err != nil {
		return fmt.Errorf("document: %w", err)
	}
	if d, ok := tok.(json.Delim); !ok || d != want {
		return fmt.Errorf("document: expected %q", want)
	}
	return nil
}

// skipValue skips the rest of an object or array whose opening delimiter
// was just read.
func skipValue(dec *json.Decoder) error {
	depth := 1
	for depth > 0 {
		tok, err := dec.Token()
		if err == io.EOF {
			return errors.New("document: truncated")
		}
		if err != nil {
			return fmt.Errorf("document: %w", err)
		}
		if d, ok := tok.(json.Delim); ok {
			if d == '{' || d == '[' {
				depth++
			} else {
				depth--
			}
		}
	}
	return nil
}

func setScalar(n *cdpNode, key string, t json.Token) {
	s, _ := t.(string)
	num, _ := t.(json.Number)
	switch key {
	case "nodeId":
		n.NodeID, _ = strconv.ParseInt(string(num), 10, 64)
	case "backendNodeId":
		n.BackendNodeID, _ = strconv.ParseInt(string(num), 10, 64)
	case "nodeType":
		v, _ := strconv.Atoi(string(num))
		n.NodeType = v
	case "nodeName":
		n.NodeName = s
	case "localName":
		n.LocalName = s
	case "nodeValue":
		n.NodeValue = s
	case "frameId":
		n.FrameID = s
	case "shadowRootType":
		n.ShadowRootType = s
	case "documentURL":
		n.DocumentURL = s
	}
}

// axProperty is one AX property with its value as text ("true", "2", "mixed").
type axProperty struct {
	Name  string
	Value string
}

// axNode is the part of an Accessibility.AXNode that Build reads; values
// are kept as text (strings unquoted; booleans, numbers and tokens as
// written). HasName tells an empty name from none.
type axNode struct {
	Ignored    bool
	Role       string
	Name       string
	HasName    bool
	Value      string
	Properties []axProperty
	BackendID  int64
}

// rareInts / rareStrings / rareBools are DOMSnapshot's sparse columns.
type rareInts struct {
	Index []int `json:"index"`
	Value []int `json:"value"`
}

type snapDocument struct {
	DocumentURL   int     `json:"documentURL"`
	FrameID       int     `json:"frameId"`
	ScrollOffsetX float64 `json:"scrollOffsetX"`
	ScrollOffsetY float64 `json:"scrollOffsetY"`
	Nodes         struct {
		BackendNodeID []int64 `json:"backendNodeId"`
		// ParentIndex is in every DOMSnapshot reply: its presence says the
		// reply lists every node of the document, laid out or not.
		ParentIndex          []int    `json:"parentIndex,omitempty"`
		ContentDocumentIndex rareInts `json:"contentDocumentIndex"`
		InputValue           rareInts `json:"inputValue"`
		TextValue            rareInts `json:"textValue"`
		OptionSelected       rareInts `json:"optionSelected"`
		InputChecked         rareInts `json:"inputChecked"`
	} `json:"nodes"`
	Layout struct {
		NodeIndex []int       `json:"nodeIndex"`
		Styles    [][]int     `json:"styles"`
		Bounds    [][]float64 `json:"bounds"`
	} `json:"layout"`
}

type snapCapture struct {
	Documents []snapDocument `json:"documents"`
	Strings   []string       `json:"strings"`
}
