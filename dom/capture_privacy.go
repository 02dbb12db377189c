package dom

import (
	"bytes"
	"encoding/json"
	"slices"
	"strconv"
	"strings"

	"github.com/go-json-experiment/json/jsontext"
)

// minSubstringSecret is the shortest secret also removed from inside longer
// strings; shorter ones are removed only where a whole string equals them,
// so a one-letter password does not erase that letter everywhere.
const minSubstringSecret = 4

// sensitive reports whether a captured DOM node is a sensitive field
// (SensitiveField decides).
func sensitive(n *cdpNode) bool {
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
	return sensitiveValues(n.NodeName, typ, ac)
}

// scrubCapture removes the values of sensitive fields (SensitiveField)
// from every part of the capture, in every target, frame and shadow root,
// so nothing secret reaches a build, a format or a saved file. It works by
// node first: every DOM node in a sensitive field's subtree (the field, its
// user-agent shadow tree with the text being edited, a textarea's or
// editable element's text) loses its text and value in the DOM, the AX
// trees (names, values and inline text boxes, which split a value into
// pieces no string search would find) and DOMSnapshot (input and text
// values, node values, layout text). A field that held something keeps
// Mask as its value, so the tree can show that it is filled. Then the
// whole values found are removed from every other string of the capture
// (a title, a script, an attribute that copied them). The capture's URLs
// lose their user info and credentials first (scrubCaptureURLs).
func scrubCapture(raw *RawCapture) { scrubCaptureSecrets(raw) }

// scrubCaptureSecrets is scrubCapture; it returns the values it removed.
func scrubCaptureSecrets(raw *RawCapture) []string {
	scrubCaptureURLs(raw)
	_, secrets := scrubTargets(raw.Targets, nil)
	for _, s := range secrets {
		raw.Title = scrubString(raw.Title, s)
	}
	return secrets
}

// scrubTargets redacts the sensitive fields of every target, then removes
// their values and the known secrets (values found elsewhere) from every
// string of every target. It returns the targets' own values and all the
// secrets removed.
func scrubTargets(targets []RawTarget, known []string) (own, all []string) {
	for i := range targets {
		own = append(own, redactTarget(&targets[i])...)
	}
	all = cleanSecrets(append(slices.Clone(own), known...))
	if len(all) == 0 {
		return own, nil
	}
	for i := range targets {
		scrubTargetJSON(&targets[i], all)
	}
	return own, all
}

// scrubTargetJSON removes secrets from every string of one target's CDP
// JSON.
func scrubTargetJSON(t *RawTarget, secrets []string) {
	t.Document = scrubJSON(t.Document, secrets)
	for j := range t.DocumentParts {
		t.DocumentParts[j] = scrubJSON(t.DocumentParts[j], secrets)
	}
	for j := range t.AXTrees {
		t.AXTrees[j] = scrubJSON(t.AXTrees[j], secrets)
	}
	t.Layout = scrubJSON(t.Layout, secrets, "strings")
}

// redactTarget blanks what the sensitive fields of one target hold, node
// by node, and returns the whole values it removed.
func redactTarget(t *RawTarget) []string {
	if !mayHoldSecrets(t.Document) && !anyMayHoldSecrets(t.DocumentParts) {
		return nil
	}
	root, err := parseDocument(t.Document)
	if err == nil {
		err = graftParts(root, t.DocumentParts)
	}
	if err != nil || root == nil {
		// A document that cannot be read cannot be checked: keep none of
		// this target rather than risk a leak.
		dropTargetData(t, "the capture could not be checked for sensitive values")
		return nil
	}
	fields := map[int64]bool{} // the sensitive fields
	inside := map[int64]bool{} // every node of their subtrees, the fields included
	root.each(func(n *cdpNode) {
		if !sensitive(n) || fields[n.BackendNodeID] {
			return
		}
		fields[n.BackendNodeID] = true
		n.each(func(x *cdpNode) { inside[x.BackendNodeID] = true })
	})
	if len(fields) == 0 {
		return nil
	}
	var secrets, s []string
	var bad error
	if t.Document, s, err = redactDOM(t.Document, inside, fields); err != nil {
		bad = err
	}
	secrets = append(secrets, s...)
	for j := range t.DocumentParts {
		if t.DocumentParts[j], s, err = redactDOM(t.DocumentParts[j], inside, fields); err != nil {
			bad = err
		}
		secrets = append(secrets, s...)
	}
	for j := range t.AXTrees {
		if t.AXTrees[j], s, err = redactAX(t.AXTrees[j], inside, fields); err != nil {
			t.AXTrees[j] = nil // the builder does without a frame's AX tree
		}
		secrets = append(secrets, s...)
	}
	if t.Layout, s, err = redactLayout(t.Layout, inside, fields); err != nil {
		t.Layout = nil // the builder does without layout
	}
	secrets = append(secrets, s...)
	if bad != nil {
		dropTargetData(t, "the capture could not be checked for sensitive values")
		return nil
	}
	return secrets
}

// dropTargetData empties a target that could not be cleaned, marking why.
func dropTargetData(t *RawTarget, why string) {
	t.Document, t.DocumentParts, t.AXTrees, t.Layout, t.Listeners = nil, nil, nil, nil, nil
	t.Error = why
}

// redactDOM blanks, in a DOM.getDocument result (or a DOM.setChildNodes
// part), the nodeValue of every node inside a sensitive field and the value
// attribute of the fields and their descendants. A node's backendNodeId may
// come after its other keys, so each node's candidate spans wait for the
// end of its object.
func redactDOM(blob []byte, inside, fields map[int64]bool) ([]byte, []string, error) {
	if len(blob) == 0 {
		return blob, nil, nil
	}
	type span struct {
		start, end int64
		text       string
		value      bool // a value attribute (else a nodeValue)
	}
	type node struct {
		id       int64
		lastName string
		spans    []span
	}
	var stack []*node // one per open container; nil for arrays
	var edits []jsonEdit
	var secrets []string
	err := walkJSON(blob, jsonVisitor{
		open: func(_ []jsonStep, k jsontext.Kind) bool {
			if k == '{' {
				stack = append(stack, &node{})
			} else {
				stack = append(stack, nil)
			}
			return true
		},
		close: func([]jsonStep, int64) {
			n := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if n == nil || !inside[n.id] {
				return
			}
			for _, s := range n.spans {
				repl := ""
				if s.value && fields[n.id] {
					repl = Mask
				}
				edits = append(edits, jsonEdit{s.start, s.end, quoteJSON(repl)})
				secrets = append(secrets, s.text)
			}
		},
		scalar: func(path []jsonStep, v jsontext.Value, start, end int64) {
			l := len(path)
			if l == 0 {
				return
			}
			if step := path[l-1]; step.obj {
				n := stack[l-1]
				switch step.key {
				case "backendNodeId":
					if id, err := strconv.ParseInt(string(v), 10, 64); err == nil {
						n.id = id
					}
				case "nodeValue":
					if s := jsonString(v); s != "" {
						n.spans = append(n.spans, span{start, end, s, false})
					}
				}
				return
			}
			// an element of an "attributes" array: name, value, name, ...
			if l < 2 || !path[l-2].obj || path[l-2].key != "attributes" || stack[l-2] == nil {
				return
			}
			n := stack[l-2]
			s := jsonString(v)
			if path[l-1].idx%2 == 0 {
				n.lastName = s
			} else if s != "" && strings.EqualFold(n.lastName, "value") {
				n.spans = append(n.spans, span{start, end, s, true})
			}
		},
	})
	if err != nil {
		return blob, nil, err
	}
	return spliceJSON(blob, edits), secrets, nil
}

// axNodeID reads an AX node id (a string; a number is taken as written).
func axNodeID(v jsontext.Value) string {
	if v.Kind() == '"' {
		return jsonString(v)
	}
	return string(v)
}

// axHeader is what redactAX reads of every AX node to find the ones to clean.
type axHeader struct {
	NodeID, ParentID string
	ChildIDs         []string
	BackendID        int64
}

// redactAX cleans an Accessibility.getFullAXTree result: every AX node of
// a DOM node inside a sensitive field, and every AX node below those
// (inline text boxes have no DOM node of their own), loses its name, value
// and description strings; the field's own node keeps its name (the label)
// and gets Mask as its value when it had one (a password's value is a
// bullet per character, which would tell its length).
func redactAX(blob []byte, inside, fields map[int64]bool) ([]byte, []string, error) {
	if len(blob) == 0 {
		return blob, nil, nil
	}
	type entry struct {
		h          axHeader
		start, end int64
	}
	var nodes []entry
	cur := -1 // index in nodes of the node being read
	inNode := func(path []jsonStep) bool {
		return len(path) >= 3 && pathIs(path[:2], "nodes", "#") && path[2].obj
	}
	err := walkJSON(blob, jsonVisitor{
		// inside a node only childIds is read; the rest is skipped unparsed
		open: func(path []jsonStep, _ jsontext.Kind) bool {
			return len(path) < 3 || (len(path) == 3 && inNode(path) && path[2].key == "childIds")
		},
		enter: func(path []jsonStep, start int64) {
			if len(path) == 3 && inNode(path) {
				nodes = append(nodes, entry{start: start})
				cur = len(nodes) - 1
			}
		},
		exit: func(path []jsonStep, end int64) {
			if len(path) == 3 && inNode(path) && cur >= 0 {
				nodes[cur].end = end
				cur = -1
			}
		},
		scalar: func(path []jsonStep, v jsontext.Value, _, _ int64) {
			if cur < 0 || !inNode(path) {
				return
			}
			h := &nodes[cur].h
			if len(path) == 4 {
				h.ChildIDs = append(h.ChildIDs, axNodeID(v))
				return
			}
			switch path[2].key {
			case "nodeId":
				h.NodeID = axNodeID(v)
			case "parentId":
				h.ParentID = axNodeID(v)
			case "backendDOMNodeId":
				h.BackendID, _ = strconv.ParseInt(string(v), 10, 64)
			}
		},
	})
	if err != nil {
		return blob, nil, err
	}
	// The nodes to clean: those of DOM nodes inside a field, then
	// everything below them by childIds or parentId.
	byID := make(map[string]int, len(nodes))
	kids := map[string][]string{}
	for i, e := range nodes {
		byID[e.h.NodeID] = i
		if e.h.ParentID != "" {
			kids[e.h.ParentID] = append(kids[e.h.ParentID], e.h.NodeID)
		}
	}
	mark := make([]bool, len(nodes))
	var queue []int
	for i, e := range nodes {
		if e.h.BackendID != 0 && inside[e.h.BackendID] {
			mark[i] = true
			queue = append(queue, i)
		}
	}
	for len(queue) > 0 {
		i := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		h := nodes[i].h
		for _, c := range append(append([]string(nil), h.ChildIDs...), kids[h.NodeID]...) {
			if j, ok := byID[c]; ok && !mark[j] {
				mark[j] = true
				queue = append(queue, j)
			}
		}
	}
	var edits []jsonEdit
	var secrets []string
	for i, e := range nodes {
		if !mark[i] {
			continue
		}
		field := e.h.BackendID != 0 && fields[e.h.BackendID]
		clean, s, err := redactAXNode(blob[e.start:e.end], field)
		if err != nil {
			return blob, nil, err
		}
		edits = append(edits, jsonEdit{e.start, e.end, clean})
		secrets = append(secrets, s...)
	}
	return spliceJSON(blob, edits), secrets, nil
}

// redactAXNode cleans one AX node (see redactAX). It returns the whole
// value of a field's node as a secret: other copies of it are removed later.
func redactAXNode(node []byte, field bool) ([]byte, []string, error) {
	var edits []jsonEdit
	var secrets []string
	err := walkJSON(node, jsonVisitor{scalar: func(path []jsonStep, v jsontext.Value, start, end int64) {
		if v.Kind() != '"' || len(path) < 2 {
			return
		}
		top, last := path[0].key, path[len(path)-1]
		blank := false
		switch top {
		case "name", "description":
			// the field's own name is its label; its descendants' names are its text
			blank = !field && !(last.obj && (last.key == "type" || last.key == "attribute"))
		case "value":
			blank = !(last.obj && (last.key == "type" || last.key == "attribute"))
		case "properties":
			blank = !field && last.obj && last.key == "value"
		}
		if !blank {
			return
		}
		s := jsonString(v)
		if s == "" {
			return
		}
		repl := ""
		if field && top == "value" && len(path) == 2 && last.key == "value" {
			repl = Mask // the field's value itself
			secrets = append(secrets, s)
		}
		edits = append(edits, jsonEdit{start, end, quoteJSON(repl)})
	}})
	if err != nil {
		return node, nil, err
	}
	return spliceJSON(node, edits), secrets, nil
}

// redactLayout cleans a DOMSnapshot.captureSnapshot result: for every
// node inside a sensitive field, its nodeValue, value attribute, input and
// text values and the text of its layout boxes point to a new empty string
// (Mask for a field's own non-empty value). The shared string table is
// left as it is (another node may use the same string); the whole values
// are returned and removed from it by scrubCapture.
func redactLayout(blob []byte, inside, fields map[int64]bool) ([]byte, []string, error) {
	if len(blob) == 0 {
		return blob, nil, nil
	}
	var snap struct {
		Documents []struct {
			Nodes struct {
				BackendNodeID []int64       `json:"backendNodeId"`
				NodeValue     []int         `json:"nodeValue"`
				Attributes    [][]int       `json:"attributes"`
				InputValue    capRareString `json:"inputValue"`
				TextValue     capRareString `json:"textValue"`
			} `json:"nodes"`
			Layout struct {
				NodeIndex []int `json:"nodeIndex"`
				Text      []int `json:"text"`
			} `json:"layout"`
		} `json:"documents"`
		Strings []string `json:"strings"`
	}
	if err := decodeJSON(blob, &snap); err != nil {
		return blob, nil, err
	}
	str := func(i int) string {
		if i < 0 || i >= len(snap.Strings) {
			return ""
		}
		return snap.Strings[i]
	}
	blank, mask := len(snap.Strings), len(snap.Strings)+1
	// what to rewrite: the path of an int in the snapshot -> new string index
	type at struct {
		doc   int
		field string
		i, j  int
	}
	repl := map[at]int{}
	var secrets []string
	set := func(k at, old int, field bool) {
		if s := str(old); s != "" {
			secrets = append(secrets, s)
			if field {
				repl[k] = mask
			} else {
				repl[k] = blank
			}
		}
	}
	for d, doc := range snap.Documents {
		nd := doc.Nodes
		in := map[int]bool{}
		for k, id := range nd.BackendNodeID {
			if !inside[id] {
				continue
			}
			in[k] = true
			field := fields[id]
			if k < len(nd.NodeValue) {
				set(at{d, "nodeValue", k, 0}, nd.NodeValue[k], false)
			}
			if k < len(nd.Attributes) {
				a := nd.Attributes[k]
				for j := 0; j+1 < len(a); j += 2 {
					if strings.EqualFold(str(a[j]), "value") {
						set(at{d, "attributes", k, j + 1}, a[j+1], field)
					}
				}
			}
		}
		if len(in) == 0 {
			continue
		}
		for name, rs := range map[string]capRareString{"inputValue": nd.InputValue, "textValue": nd.TextValue} {
			for j, k := range rs.Index {
				if in[k] && j < len(rs.Value) {
					set(at{d, name, j, 0}, rs.Value[j], fields[nd.BackendNodeID[k]])
				}
			}
		}
		for j, k := range doc.Layout.NodeIndex {
			if in[k] && j < len(doc.Layout.Text) {
				set(at{d, "text", j, 0}, doc.Layout.Text[j], false)
			}
		}
	}
	if len(repl) == 0 {
		return blob, nil, nil
	}
	var edits []jsonEdit
	err := walkJSON(blob, jsonVisitor{
		open: func(path []jsonStep, _ jsontext.Kind) bool {
			// only the few columns that can point at a value are entered
			switch len(path) {
			case 0, 1:
				return true
			case 2:
				return path[1].obj && (path[1].key == "nodes" || path[1].key == "layout")
			case 3:
				k := path[2].key
				return k == "nodeValue" || k == "attributes" || k == "inputValue" || k == "textValue" || k == "text"
			case 4:
				return path[2].key == "attributes" || path[3].obj && path[3].key == "value"
			}
			return false
		},
		close: func(path []jsonStep, off int64) {
			if pathIs(path, "strings", "#") {
				add := `"",` + string(quoteJSON(Mask))
				if path[1].idx > 0 {
					add = "," + add
				}
				edits = append(edits, jsonEdit{off, off, []byte(add)})
			}
		},
		scalar: func(path []jsonStep, v jsontext.Value, start, end int64) {
			if len(path) < 5 || v.Kind() != '0' || !path[0].obj || path[0].key != "documents" {
				return
			}
			d := path[1].idx
			var k at
			switch {
			case pathIs(path, "documents", "#", "nodes", "nodeValue", "#"):
				k = at{d, "nodeValue", path[4].idx, 0}
			case pathIs(path, "documents", "#", "nodes", "attributes", "#", "#"):
				k = at{d, "attributes", path[4].idx, path[5].idx}
			case pathIs(path, "documents", "#", "nodes", "inputValue", "value", "#"):
				k = at{d, "inputValue", path[5].idx, 0}
			case pathIs(path, "documents", "#", "nodes", "textValue", "value", "#"):
				k = at{d, "textValue", path[5].idx, 0}
			case pathIs(path, "documents", "#", "layout", "text", "#"):
				k = at{d, "text", path[4].idx, 0}
			default:
				return
			}
			if n, ok := repl[k]; ok {
				edits = append(edits, jsonEdit{start, end, strconv.AppendInt(nil, int64(n), 10)})
			}
		},
	})
	if err != nil {
		return blob, nil, err
	}
	return spliceJSON(blob, edits), secrets, nil
}

// mayHoldSecrets is a quick test that saves parsing most documents. A
// sensitive field's document holds, in some ASCII case, "password"
// (type=password, current-password, new-password), "cc-" or
// "one-time-code", with two exceptions SensitiveField's Unicode case rules
// let through: "İ" lower-cases to "i" (so "one-tİme-code" counts; "me-code"
// is looked for instead) and "ſ" folds to "s" (so type="paſſword" counts;
// the rare letter itself is looked for, raw or escaped).
func mayHoldSecrets(doc []byte) bool {
	return containsFold(doc, "password", 'w', 4) || containsFold(doc, "cc-", '-', 2) ||
		containsFold(doc, "me-code", '-', 2) ||
		bytes.Contains(doc, []byte("ſ")) || containsFold(doc, `\u017f`, 'u', 1)
}

// containsFold reports whether b holds pat in any ASCII case. It jumps
// between occurrences of the anchor byte (pat[at], in both cases) with
// bytes.IndexByte, which is much faster than lowering the whole document.
func containsFold(b []byte, pat string, anchor byte, at int) bool {
	anchors := []byte{anchor}
	if l := anchor | 0x20; l >= 'a' && l <= 'z' {
		anchors = []byte{l, l &^ 0x20}
	}
	for _, a := range anchors {
		for off := 0; ; {
			i := bytes.IndexByte(b[off:], a)
			if i < 0 {
				break
			}
			i += off
			if s := i - at; s >= 0 && s+len(pat) <= len(b) && bytes.EqualFold(b[s:s+len(pat)], []byte(pat)) {
				return true
			}
			off = i + 1
		}
	}
	return false
}

func anyMayHoldSecrets(parts []json.RawMessage) bool {
	for _, p := range parts {
		if mayHoldSecrets(p) {
			return true
		}
	}
	return false
}

// capRareString is DOMSnapshot's RareStringData: node indexes and string-table indexes.
type capRareString struct {
	Index []int `json:"index"`
	Value []int `json:"value"`
}

// cleanSecrets drops empty and duplicate secrets, and Mask.
func cleanSecrets(in []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range in {
		// Mask is what a scrubbed field already holds: scrubbing again
		// must keep it.
		if s == "" || strings.TrimSpace(s) == "" || s == Mask || seen[s] {
			continue
		}
		seen[s] = true
		out = append(out, s)
	}
	return out
}

func scrubString(s, secret string) string {
	if s == secret {
		return ""
	}
	if len(secret) >= minSubstringSecret && strings.Contains(s, secret) {
		return strings.ReplaceAll(s, secret, "")
	}
	return s
}

// scrubJSON rewrites every string value of blob that is or contains a
// secret; object names are left alone, and so is every other byte of the
// blob (only the strings that change are re-encoded). only, when set,
// limits the search to one key of the top-level object (DOMSnapshot keeps
// all its strings in "strings"). Strings are decoded only when their raw
// form holds a secret's longest run of characters no JSON writer escapes.
func scrubJSON(blob []byte, secrets []string, only ...string) []byte {
	return rewriteJSON(blob, secrets, func(s string) string {
		for _, sec := range secrets {
			s = scrubString(s, sec)
		}
		return s
	}, only...)
}

// rewriteJSON replaces every string value of blob that holds one of keys
// (see scrubJSON) with fix of it, where that changes it.
func rewriteJSON(blob []byte, secrets []string, fix func(string) string, only ...string) []byte {
	if len(blob) == 0 {
		return blob
	}
	keys := make([][]byte, len(secrets))
	anyKey := false
	for i, s := range secrets {
		keys[i] = []byte(plainRun(s))
		if len(keys[i]) == 0 {
			anyKey = true // nothing to look for: every string is decoded
		}
	}
	found := func(b []byte) bool {
		if anyKey {
			return true
		}
		for _, k := range keys {
			if bytes.Contains(b, k) {
				return true
			}
		}
		return false
	}
	if !found(blob) {
		return blob
	}
	var edits []jsonEdit
	err := walkJSON(blob, jsonVisitor{
		open: func(path []jsonStep, _ jsontext.Kind) bool {
			return len(only) == 0 || len(path) != 1 || path[0].key == only[0]
		},
		scalar: func(_ []jsonStep, v jsontext.Value, start, end int64) {
			if v.Kind() != '"' || !found(v) {
				return
			}
			s := jsonString(v)
			if clean := fix(s); clean != s {
				edits = append(edits, jsonEdit{start, end, quoteJSON(clean)})
			}
		},
	})
	if err != nil {
		// Unreadable JSON cannot be checked: drop it rather than risk a leak.
		return []byte("null")
	}
	return spliceJSON(blob, edits)
}

// plainRun is the longest run of s made of characters that JSON writers
// (Chrome's, Go's) never escape: a raw JSON string that holds s holds it.
func plainRun(s string) string {
	best, start := "", -1
	for i := 0; i <= len(s); i++ {
		ok := i < len(s) && s[i] >= 0x20 && s[i] < 0x7f && !strings.ContainsRune("\"\\<>&'/+=", rune(s[i]))
		if ok && start < 0 {
			start = i
		}
		if !ok && start >= 0 {
			if i-start > len(best) {
				best = s[start:i]
			}
			start = -1
		}
	}
	return best
}
