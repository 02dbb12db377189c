package cdpjson

import (
	"encoding/json"
	"fmt"
	"strings"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"domscope/dom"
)

// Unmarshal decodes CDP results with json v2. It is several times faster
// than encoding/json on large AX trees and layouts. It tolerates what
// pages put in strings (invalid UTF-8, lone surrogates) and duplicate
// keys.
func Unmarshal(data []byte, v any) error {
	return jsonv2.Unmarshal(data, v, jsontext.AllowInvalidUTF8(true), jsontext.AllowDuplicateNames(true))
}

// Node is the part of a CDP DOM.Node that Capture and Build read. dom
// must not import cdproto, so these are our own minimal structs.
type Node struct {
	NodeID          int64    `json:"nodeId"`
	BackendNodeID   int64    `json:"backendNodeId"`
	NodeType        int      `json:"nodeType"`
	NodeName        string   `json:"nodeName"`
	LocalName       string   `json:"localName"`
	NodeValue       string   `json:"nodeValue"`
	ChildNodeCount  int      `json:"childNodeCount"` // read by Capture to find cut-off subtrees
	Children        []*Node  `json:"children"`
	Attributes      []string `json:"attributes"`
	FrameID         string   `json:"frameId"`
	ContentDocument *Node    `json:"contentDocument"`
	ShadowRoots     []*Node  `json:"shadowRoots"`
	ShadowRootType  string   `json:"shadowRootType"`
	TemplateContent *Node    `json:"templateContent"`
	DocumentURL     string   `json:"documentURL"`
}

// Cut reports whether the node's children were left out by a depth limit.
func (n *Node) Cut() bool { return n.ChildNodeCount > 0 && n.Children == nil }

// Each calls f for n and every node below it: children, shadow roots,
// frame documents, template contents. It loops, not recurses: trees nest
// deep.
func (n *Node) Each(f func(*Node)) {
	stack := []*Node{n}
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

// Sensitive reports whether a captured DOM node is a sensitive field
// (SensitiveAttrs decides).
func (n *Node) Sensitive() bool {
	if n.NodeType != dom.ElementNode {
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
	return dom.SensitiveAttrs(n.NodeName, typ, ac)
}

// GraftParts attaches the DOM.setChildNodes parts of a document fetched in
// chunks (RawTarget.DocumentParts) under the nodes they belong to.
func GraftParts(root *Node, parts []json.RawMessage) error {
	if root == nil || len(parts) == 0 {
		return nil
	}
	byID := map[int64]*Node{}
	index := func(n *Node) {
		stack := []*Node{n}
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
			ParentID int64   `json:"parentId"`
			Nodes    []*Node `json:"nodes"`
		}
		if err := Unmarshal(raw, &part); err != nil {
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

// AttrMap turns a node's attribute list (name, value, ...) into a map,
// names lower-cased.
func AttrMap(a []string) map[string]string {
	if len(a) < 2 {
		return nil
	}
	m := make(map[string]string, len(a)/2)
	for i := 0; i+1 < len(a); i += 2 {
		m[strings.ToLower(a[i])] = a[i+1]
	}
	return m
}
