package capture

import (
	"bytes"
	"encoding/json"
	"slices"
	"strconv"
	"strings"

	"github.com/go-json-experiment/json/jsontext"

	"domscope/dom"
	"domscope/dom/cdpjson"
)

// Scrub removes the values of sensitive fields (SensitiveField) from
// every part of the capture. That means every target, frame and shadow
// root. So nothing secret reaches a build, a format or a saved file.
//
// It works by node first. Every DOM node in a sensitive field's subtree
// loses its text and value. The subtree is the field and its user-agent
// shadow tree with the text being edited. It is also a textarea's or
// editable element's text. The node loses them in:
//   - the DOM.
//   - the AX trees: names, values and inline text boxes. Those split a
//     value into pieces no string search would find.
//   - DOMSnapshot: input and text values, node values, layout text.
//
// A field that held something keeps Mask as its value. So the tree can
// show that it is filled. Then the whole values found are removed from
// every other string of the capture. A title, a script or an attribute
// may have copied them. The capture's URLs lose their user info and
// credentials first (ScrubURLs).
func Scrub(raw *dom.RawCapture) { ScrubSecrets(raw) }

// ScrubSecrets is Scrub. It returns the values it removed.
func ScrubSecrets(raw *dom.RawCapture) []string {
	ScrubURLs(raw)
	_, secrets := ScrubTargets(raw.Targets, nil)
	for _, s := range secrets {
		raw.Title = dom.ScrubString(raw.Title, s)
	}
	return secrets
}

// ScrubTargets redacts the sensitive fields of every target. Then it
// removes their values from every string of every target. It removes the
// known secrets (values found elsewhere) too. It returns the targets' own
// values and all the secrets removed.
func ScrubTargets(targets []dom.RawTarget, known []string) (own, all []string) {
	for i := range targets {
		own = append(own, redactTarget(&targets[i])...)
	}
	all = dom.CleanSecrets(append(slices.Clone(own), known...))
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
func scrubTargetJSON(t *dom.RawTarget, secrets []string) {
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
// by node. It returns the whole values it removed.
func redactTarget(t *dom.RawTarget) []string {
	if !mayHoldSecrets(t.Document) && !anyMayHoldSecrets(t.DocumentParts) {
		return nil
	}
	root, err := cdpjson.ParseDocument(t.Document)
	if err == nil {
		err = cdpjson.GraftParts(root, t.DocumentParts)
	}
	if err != nil || root == nil {
		// A document that cannot be read cannot be checked. Keep none of
		// this target rather than risk a leak.
		dropTargetData(t, "the capture could not be checked for sensitive values")
		return nil
	}
	fields := map[int64]bool{} // the sensitive fields
	inside := map[int64]bool{} // every node of their subtrees, the fields included
	root.Each(func(n *cdpjson.Node) {
		if !n.Sensitive() || fields[n.BackendNodeID] {
			return
		}
		fields[n.BackendNodeID] = true
		n.Each(func(x *cdpjson.Node) { inside[x.BackendNodeID] = true })
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
		if t.AXTrees[j], s, err = RedactAX(t.AXTrees[j], inside, fields); err != nil {
			t.AXTrees[j] = nil // the builder does without a frame's AX tree
		}
		secrets = append(secrets, s...)
	}
	if t.Layout, s, err = RedactLayout(t.Layout, inside, fields); err != nil {
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
func dropTargetData(t *dom.RawTarget, why string) {
	t.Document, t.DocumentParts, t.AXTrees, t.Layout, t.Listeners = nil, nil, nil, nil, nil
	t.Error = why
}

// redactDOM cleans a DOM.getDocument result or a DOM.setChildNodes part.
// It blanks the nodeValue of every node inside a sensitive field. It
// blanks the value attribute of the fields and their descendants. A
// node's backendNodeId may come after its other keys. So each node's
// candidate spans wait for the end of its object.
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
	var edits []cdpjson.Edit
	var secrets []string
	err := cdpjson.Walk(blob, cdpjson.Visitor{
		Open: func(_ []cdpjson.Step, k jsontext.Kind) bool {
			if k == '{' {
				stack = append(stack, &node{})
			} else {
				stack = append(stack, nil)
			}
			return true
		},
		Close: func([]cdpjson.Step, int64) {
			n := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if n == nil || !inside[n.id] {
				return
			}
			for _, s := range n.spans {
				repl := ""
				if s.value && fields[n.id] {
					repl = dom.Mask
				}
				edits = append(edits, cdpjson.Edit{Start: s.start, End: s.end, Repl: cdpjson.Quote(repl)})
				secrets = append(secrets, s.text)
			}
		},
		Scalar: func(path []cdpjson.Step, v jsontext.Value, start, end int64) {
			l := len(path)
			if l == 0 {
				return
			}
			if step := path[l-1]; step.Object {
				n := stack[l-1]
				switch step.Key {
				case "backendNodeId":
					if id, err := strconv.ParseInt(string(v), 10, 64); err == nil {
						n.id = id
					}
				case "nodeValue":
					if s := cdpjson.Text(v); s != "" {
						n.spans = append(n.spans, span{start, end, s, false})
					}
				}
				return
			}
			// an element of an "attributes" array: name, value, name, ...
			if l < 2 || !path[l-2].Object || path[l-2].Key != "attributes" || stack[l-2] == nil {
				return
			}
			n := stack[l-2]
			s := cdpjson.Text(v)
			if path[l-1].Index%2 == 0 {
				n.lastName = s
			} else if s != "" && strings.EqualFold(n.lastName, "value") {
				n.spans = append(n.spans, span{start, end, s, true})
			}
		},
	})
	if err != nil {
		return blob, nil, err
	}
	return cdpjson.Splice(blob, edits), secrets, nil
}

// axNodeID reads an AX node id. It is a string; a number is taken as
// written.
func axNodeID(v jsontext.Value) string {
	if v.Kind() == '"' {
		return cdpjson.Text(v)
	}
	return string(v)
}

// axHeader is what RedactAX reads of every AX node to find the ones to clean.
type axHeader struct {
	NodeID, ParentID string
	ChildIDs         []string
	BackendID        int64
}

// RedactAX cleans an Accessibility.getFullAXTree result. It cleans every
// AX node of a DOM node inside a sensitive field. It cleans every AX node
// below those too: inline text boxes have no DOM node of their own. Such
// a node loses its name, value and description strings. The field's own
// node keeps its name, which is the label. It gets Mask as its value when
// it had one. A password's value is a bullet per character, which would
// tell its length.
func RedactAX(blob []byte, inside, fields map[int64]bool) ([]byte, []string, error) {
	if len(blob) == 0 {
		return blob, nil, nil
	}
	type entry struct {
		h          axHeader
		start, end int64
	}
	var nodes []entry
	cur := -1 // index in nodes of the node being read
	inNode := func(path []cdpjson.Step) bool {
		return len(path) >= 3 && cdpjson.PathIs(path[:2], "nodes", "#") && path[2].Object
	}
	err := cdpjson.Walk(blob, cdpjson.Visitor{
		// inside a node only childIds is read; the rest is skipped unparsed
		Open: func(path []cdpjson.Step, _ jsontext.Kind) bool {
			return len(path) < 3 || (len(path) == 3 && inNode(path) && path[2].Key == "childIds")
		},
		Enter: func(path []cdpjson.Step, start int64) {
			if len(path) == 3 && inNode(path) {
				nodes = append(nodes, entry{start: start})
				cur = len(nodes) - 1
			}
		},
		Exit: func(path []cdpjson.Step, end int64) {
			if len(path) == 3 && inNode(path) && cur >= 0 {
				nodes[cur].end = end
				cur = -1
			}
		},
		Scalar: func(path []cdpjson.Step, v jsontext.Value, _, _ int64) {
			if cur < 0 || !inNode(path) {
				return
			}
			h := &nodes[cur].h
			if len(path) == 4 {
				h.ChildIDs = append(h.ChildIDs, axNodeID(v))
				return
			}
			switch path[2].Key {
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
	var edits []cdpjson.Edit
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
		edits = append(edits, cdpjson.Edit{Start: e.start, End: e.end, Repl: clean})
		secrets = append(secrets, s...)
	}
	return cdpjson.Splice(blob, edits), secrets, nil
}

// redactAXNode cleans one AX node (see RedactAX). It returns the whole
// value of a field's node as a secret. Other copies of it are removed
// later.
func redactAXNode(node []byte, field bool) ([]byte, []string, error) {
	var edits []cdpjson.Edit
	var secrets []string
	err := cdpjson.Walk(node, cdpjson.Visitor{Scalar: func(path []cdpjson.Step, v jsontext.Value, start, end int64) {
		if v.Kind() != '"' || len(path) < 2 {
			return
		}
		top, last := path[0].Key, path[len(path)-1]
		blank := false
		switch top {
		case "name", "description":
			// the field's own name is its label; its descendants' names are its text
			blank = !field && !(last.Object && (last.Key == "type" || last.Key == "attribute"))
		case "value":
			blank = !(last.Object && (last.Key == "type" || last.Key == "attribute"))
		case "properties":
			blank = !field && last.Object && last.Key == "value"
		}
		if !blank {
			return
		}
		s := cdpjson.Text(v)
		if s == "" {
			return
		}
		repl := ""
		if field && top == "value" && len(path) == 2 && last.Key == "value" {
			repl = dom.Mask // the field's value itself
			secrets = append(secrets, s)
		}
		edits = append(edits, cdpjson.Edit{Start: start, End: end, Repl: cdpjson.Quote(repl)})
	}})
	if err != nil {
		return node, nil, err
	}
	return cdpjson.Splice(node, edits), secrets, nil
}

// RedactLayout cleans a DOMSnapshot.captureSnapshot result. It takes
// every node inside a sensitive field. Then these point to a new empty
// string: its nodeValue, value attribute, input and text values, and the
// text of its layout boxes. A field's own non-empty value points to Mask. The
// shared string table is left as it is: another node may use the same
// string. The whole values are returned, and Scrub removes them from it.
func RedactLayout(blob []byte, inside, fields map[int64]bool) ([]byte, []string, error) {
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
	if err := cdpjson.Unmarshal(blob, &snap); err != nil {
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
	var edits []cdpjson.Edit
	err := cdpjson.Walk(blob, cdpjson.Visitor{
		Open: func(path []cdpjson.Step, _ jsontext.Kind) bool {
			// only the few columns that can point at a value are entered
			switch len(path) {
			case 0, 1:
				return true
			case 2:
				return path[1].Object && (path[1].Key == "nodes" || path[1].Key == "layout")
			case 3:
				k := path[2].Key
				return k == "nodeValue" || k == "attributes" || k == "inputValue" || k == "textValue" || k == "text"
			case 4:
				return path[2].Key == "attributes" || path[3].Object && path[3].Key == "value"
			}
			return false
		},
		Close: func(path []cdpjson.Step, off int64) {
			if cdpjson.PathIs(path, "strings", "#") {
				add := `"",` + string(cdpjson.Quote(dom.Mask))
				if path[1].Index > 0 {
					add = "," + add
				}
				edits = append(edits, cdpjson.Edit{Start: off, End: off, Repl: []byte(add)})
			}
		},
		Scalar: func(path []cdpjson.Step, v jsontext.Value, start, end int64) {
			if len(path) < 5 || v.Kind() != '0' || !path[0].Object || path[0].Key != "documents" {
				return
			}
			d := path[1].Index
			var k at
			switch {
			case cdpjson.PathIs(path, "documents", "#", "nodes", "nodeValue", "#"):
				k = at{d, "nodeValue", path[4].Index, 0}
			case cdpjson.PathIs(path, "documents", "#", "nodes", "attributes", "#", "#"):
				k = at{d, "attributes", path[4].Index, path[5].Index}
			case cdpjson.PathIs(path, "documents", "#", "nodes", "inputValue", "value", "#"):
				k = at{d, "inputValue", path[5].Index, 0}
			case cdpjson.PathIs(path, "documents", "#", "nodes", "textValue", "value", "#"):
				k = at{d, "textValue", path[5].Index, 0}
			case cdpjson.PathIs(path, "documents", "#", "layout", "text", "#"):
				k = at{d, "text", path[4].Index, 0}
			default:
				return
			}
			if n, ok := repl[k]; ok {
				edits = append(edits, cdpjson.Edit{Start: start, End: end, Repl: strconv.AppendInt(nil, int64(n), 10)})
			}
		},
	})
	if err != nil {
		return blob, nil, err
	}
	return cdpjson.Splice(blob, edits), secrets, nil
}

// mayHoldSecrets is a quick test that saves parsing most documents. A
// sensitive field's document holds one of these, in some ASCII case:
// "password" (type=password, current-password, new-password), "cc-" or
// "one-time-code". SensitiveField's Unicode case rules let two more
// through:
//   - "İ" lower-cases to "i", so "one-tİme-code" counts. "me-code" is
//     looked for instead.
//   - "ſ" folds to "s", so type="paſſword" counts. The rare letter itself
//     is looked for, raw or escaped.
func mayHoldSecrets(doc []byte) bool {
	return containsFold(doc, "password", 'w', 4) || containsFold(doc, "cc-", '-', 2) ||
		containsFold(doc, "me-code", '-', 2) ||
		bytes.Contains(doc, []byte("ſ")) || containsFold(doc, `\u017f`, 'u', 1)
}

// containsFold reports whether b holds pat in any ASCII case. It jumps
// between occurrences of the anchor byte (pat[at], in both cases) with
// bytes.IndexByte. That is much faster than lowering the whole document.
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

// capRareString is DOMSnapshot's RareStringData: node indexes and
// string-table indexes.
type capRareString struct {
	Index []int `json:"index"`
	Value []int `json:"value"`
}

// scrubJSON rewrites every string value of blob that is or contains a
// secret. Object names are left alone, and so is every other byte of the
// blob. Only the strings that change are re-encoded. only, when set,
// limits the search to one key of the top-level object. DOMSnapshot keeps
// all its strings in "strings". A string is decoded only when its raw
// form holds a secret's longest run of characters no JSON writer escapes.
func scrubJSON(blob []byte, secrets []string, only ...string) []byte {
	return RewriteJSON(blob, secrets, func(s string) string {
		for _, sec := range secrets {
			s = dom.ScrubString(s, sec)
		}
		return s
	}, only...)
}

// RewriteJSON replaces every string value of blob that holds one of keys
// (see scrubJSON) with fix of it. It leaves a string alone when fix does
// not change it.
func RewriteJSON(blob []byte, secrets []string, fix func(string) string, only ...string) []byte {
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
	var edits []cdpjson.Edit
	err := cdpjson.Walk(blob, cdpjson.Visitor{
		Open: func(path []cdpjson.Step, _ jsontext.Kind) bool {
			return len(only) == 0 || len(path) != 1 || path[0].Key == only[0]
		},
		Scalar: func(_ []cdpjson.Step, v jsontext.Value, start, end int64) {
			if v.Kind() != '"' || !found(v) {
				return
			}
			s := cdpjson.Text(v)
			if clean := fix(s); clean != s {
				edits = append(edits, cdpjson.Edit{Start: start, End: end, Repl: cdpjson.Quote(clean)})
			}
		},
	})
	if err != nil {
		// Unreadable JSON cannot be checked: drop it rather than risk a leak.
		return []byte("null")
	}
	return cdpjson.Splice(blob, edits)
}

// plainRun is the longest run of s made of characters that JSON writers
// (Chrome's, Go's) never escape. A raw JSON string that holds s holds it.
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
