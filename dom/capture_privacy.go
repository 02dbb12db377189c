package dom

import (
	"bytes"
	"encoding/json"
	"io"
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

// scrubCapture removes the values of sensitive fields from every part of
// the capture (DOM attributes and the text inside the fields' own shadow
// trees, DOMSnapshot input values and strings, AX values and names), so
// nothing secret reaches a saved file. It finds the secret strings first
// (from the DOM and from DOMSnapshot's live input values), then rewrites
// each JSON blob that contains one, string by string.
func scrubCapture(raw *RawCapture) {
	var secrets []string
	for i := range raw.Targets {
		secrets = append(secrets, targetSecrets(&raw.Targets[i])...)
	}
	secrets = cleanSecrets(secrets)
	if len(secrets) == 0 {
		return
	}
	for i := range raw.Targets {
		t := &raw.Targets[i]
		t.Document = scrubJSON(t.Document, secrets)
		for j := range t.DocumentParts {
			t.DocumentParts[j] = scrubJSON(t.DocumentParts[j], secrets)
		}
		for j := range t.AXTrees {
			t.AXTrees[j] = scrubJSON(t.AXTrees[j], secrets)
		}
		t.Layout = scrubJSON(t.Layout, secrets)
	}
	for _, s := range secrets {
		raw.Title = scrubString(raw.Title, s)
	}
}

// targetSecrets returns the values of the sensitive fields of one target.
func targetSecrets(t *RawTarget) []string {
	if !mayHoldSecrets(t.Document) && !anyMayHoldSecrets(t.DocumentParts) {
		return nil
	}
	root, err := parseCapturedDocument(t)
	if err != nil {
		return nil
	}
	var secrets []string
	ids := map[int64]bool{}
	root.each(func(n *cdpNode) {
		if !sensitive(n) {
			return
		}
		for i := 0; i+1 < len(n.Attributes); i += 2 {
			if strings.EqualFold(n.Attributes[i], "value") {
				secrets = append(secrets, n.Attributes[i+1])
			}
		}
		// The field's own subtree (its user-agent shadow root holds the
		// text being edited).
		n.each(func(x *cdpNode) {
			ids[x.BackendNodeID] = true
			if x.NodeType == TextNode {
				secrets = append(secrets, x.NodeValue)
			}
		})
	})
	if len(ids) > 0 {
		secrets = append(secrets, snapshotValues(t.Layout, ids)...)
	}
	return secrets
}

// mayHoldSecrets is a quick test that saves parsing most documents: only
// a document that mentions "password" or "cc-" (in any case) can hold a
// sensitive field.
func mayHoldSecrets(doc []byte) bool {
	return containsFold(doc, "password", 'w', 4) || containsFold(doc, "cc-", '-', 2)
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

// snapshotValues returns the live input and textarea values DOMSnapshot
// reports for the given nodes.
func snapshotValues(layout []byte, ids map[int64]bool) []string {
	var snap struct {
		Documents []struct {
			Nodes struct {
				BackendNodeID []int64       `json:"backendNodeId"`
				InputValue    capRareString `json:"inputValue"`
				TextValue     capRareString `json:"textValue"`
			} `json:"nodes"`
		} `json:"documents"`
		Strings []string `json:"strings"`
	}
	if json.Unmarshal(layout, &snap) != nil {
		return nil
	}
	var out []string
	for _, d := range snap.Documents {
		for _, rs := range []capRareString{d.Nodes.InputValue, d.Nodes.TextValue} {
			for k, idx := range rs.Index {
				if idx < 0 || idx >= len(d.Nodes.BackendNodeID) || k >= len(rs.Value) {
					continue
				}
				if v := rs.Value[k]; ids[d.Nodes.BackendNodeID[idx]] && v >= 0 && v < len(snap.Strings) {
					out = append(out, snap.Strings[v])
				}
			}
		}
	}
	return out
}

// capRareString is DOMSnapshot's RareStringData: node indexes and string-table indexes.
type capRareString struct {
	Index []int `json:"index"`
	Value []int `json:"value"`
}

// cleanSecrets drops empty and duplicate secrets.
func cleanSecrets(in []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range in {
		if s == "" || strings.TrimSpace(s) == "" || seen[s] {
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
// secret; object keys are left alone. A blob that holds no secret is
// returned unchanged without being re-encoded.
func scrubJSON(blob []byte, secrets []string) []byte {
	if len(blob) == 0 || !mayContain(blob, secrets) {
		return blob
	}
	dec := jsontext.NewDecoder(bytes.NewReader(blob))
	var out bytes.Buffer
	out.Grow(len(blob))
	enc := jsontext.NewEncoder(&out)
	for {
		kind, n := dec.StackIndex(dec.StackDepth())
		isName := kind == '{' && n%2 == 0
		tok, err := dec.ReadToken()
		if err == io.EOF {
			break
		}
		if err != nil {
			// Unreadable JSON cannot be checked: drop it rather than risk a leak.
			return []byte("null")
		}
		if tok.Kind() == '"' && !isName {
			s := tok.String()
			clean := s
			for _, sec := range secrets {
				clean = scrubString(clean, sec)
			}
			if clean != s {
				tok = jsontext.String(clean)
			}
		}
		if err := enc.WriteToken(tok); err != nil {
			return []byte("null")
		}
	}
	return bytes.TrimRight(out.Bytes(), "\n")
}

// mayContain reports whether blob can hold one of the secrets. A secret
// with characters JSON may escape is looked for the slow way.
func mayContain(blob []byte, secrets []string) bool {
	for _, s := range secrets {
		if !plainASCII(s) || bytes.Contains(blob, []byte(s)) {
			return true
		}
	}
	return false
}

func plainASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			return false
		}
	}
	return true
}
