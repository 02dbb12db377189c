package dom

import (
	"encoding/json"
	"fmt"
	"strings"

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

// cut reports whether the node's children were left out by a depth limit.
func (n *cdpNode) cut() bool { return n.ChildNodeCount > 0 && n.Children == nil }

// each calls f for n and every node below it (children, shadow roots,
// frame documents, template contents), iteratively: trees nest deep.
func (n *cdpNode) each(f func(*cdpNode)) {
	stack := []*cdpNode{n}
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if x == nil {
			continue
		}
		f(x)
		stack = append(stack, x.Children...)
		stack = append(stack, x.ShadowRoots...)
		stack = append(stack, x.ContentDocument, x.TemplateContent)
	}
}

// sensitive reports whether a captured DOM node is a sensitive field
// (SensitiveAttrs decides).
func (n *cdpNode) sensitive() bool {
	if n.NodeType != ElementNode {
		return false
	}
	var typ, ac string
	for i := 0; i+1 < len(n.Attributes); i += 2 {
		switch strings.ToLower(n.Attributes[i]) {
		case "type":
			typ = n.Attributes[i+1]
		case "autocomplete":
			ac = n.Attributes[i+1]
		}
	}
	return SensitiveAttrs(n.NodeName, typ, ac)
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
		BackendNodeID        []int64  `json:"backendNodeId"`
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
