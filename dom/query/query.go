// Package query finds the nodes of a snapshot a script line names. It
// goes by ID, role and name, text, test id or CSS. Then it picks the one
// to act on.
package query

import (
	"context"
	"fmt"
	"strings"

	"domscope/dom"
	"domscope/dom/internal/textutil"
)

// Query picks a node of a snapshot the way a script line names its
// target. It goes by ID, or by role and accessible name, visible text,
// test id or CSS. Every given field must match. The first visible match
// in document order wins. Nth (0-based) picks another visible match.
type Query struct {
	ID           string `json:"id,omitempty"`
	Role         string `json:"role,omitempty"`
	Name         string `json:"name,omitempty"`         // exact accessible name (whitespace collapsed)
	NameContains string `json:"nameContains,omitempty"` // case-insensitive part of the name
	Text         string `json:"text,omitempty"`         // case-insensitive part of an element's own text
	TestID       string `json:"testid,omitempty"`       // data-testid, data-test, data-cy or data-test-id
	CSS          string `json:"css,omitempty"`          // a selector run on the top-level document
	// Ref names a line of the snapshot text a script came with
	// (`run --refs`). That is "e12" in a Playwright aria snapshot, "12" in
	// domscope's text format. dom/script turns it into role and name before
	// resolving; FindNodes ignores it.
	Ref string `json:"ref,omitempty"`
	Nth *int   `json:"nth,omitempty"`
	// Unique makes several visible matches an error, naming them. Without
	// it the first is taken.
	Unique bool `json:"unique,omitempty"`
}

// Empty reports whether the query names nothing.
func (q Query) Empty() bool {
	return q.ID == "" && q.Role == "" && q.Name == "" && q.NameContains == "" && q.Text == "" && q.TestID == "" && q.CSS == "" && q.Ref == ""
}

func (q Query) String() string {
	var parts []string
	add := func(k, v string) {
		if v != "" {
			parts = append(parts, fmt.Sprintf("%s=%q", k, v))
		}
	}
	add("id", q.ID)
	add("role", q.Role)
	add("name", q.Name)
	add("nameContains", q.NameContains)
	add("text", q.Text)
	add("testid", q.TestID)
	add("css", q.CSS)
	add("ref", q.Ref)
	if q.Nth != nil {
		parts = append(parts, fmt.Sprintf("nth=%d", *q.Nth))
	}
	if q.Unique {
		parts = append(parts, "unique")
	}
	return "{" + strings.Join(parts, " ") + "}"
}

// CSSQuerier is implemented by actors that can run a CSS selector on the
// page (the Service). Queries with "css" need it.
type CSSQuerier interface {
	QueryCSS(ctx context.Context, selector string) ([]*dom.VirtualNode, error)
}

// FindNodes returns the nodes of snap that match q (without css), in
// document order. Hidden ones are included.
func FindNodes(snap *dom.Snapshot, q Query) []*dom.VirtualNode {
	if snap == nil || snap.Root == nil {
		return nil
	}
	var out []*dom.VirtualNode
	dom.Walk(snap.Root, func(n *dom.VirtualNode) {
		if matches(n, q) {
			out = append(out, n)
		}
	})
	return out
}

func matches(n *dom.VirtualNode, q Query) bool {
	if n.NodeType != dom.ElementNode {
		return false
	}
	if q.ID != "" && n.ID != dom.NormalizeID(q.ID) {
		return false
	}
	if q.Role != "" && !strings.EqualFold(n.Role, q.Role) {
		return false
	}
	if q.Name != "" && textutil.Collapse(n.Name) != textutil.Collapse(q.Name) {
		return false
	}
	if q.NameContains != "" && !strings.Contains(strings.ToLower(textutil.Collapse(n.Name)), strings.ToLower(textutil.Collapse(q.NameContains))) {
		return false
	}
	if q.TestID != "" {
		ok := false
		for _, a := range []string{"data-testid", "data-test", "data-cy", "data-test-id"} {
			if v, has := n.Attrs[a]; has && v == q.TestID {
				ok = true
			}
		}
		if !ok {
			return false
		}
	}
	if q.Text != "" && !strings.Contains(strings.ToLower(ownText(n)), strings.ToLower(textutil.Collapse(q.Text))) {
		return false
	}
	return true
}

// ownText is the text of a node's direct #text children, collapsed. For
// inputs that show their value as text (buttons) it is the value.
func ownText(n *dom.VirtualNode) string {
	var b strings.Builder
	for _, c := range n.Children {
		if c.NodeType == dom.TextNode {
			b.WriteString(c.Text)
			b.WriteByte(' ')
		}
	}
	t := textutil.Collapse(b.String())
	if t == "" && n.Tag == "input" {
		switch n.Attr("type") {
		case "button", "submit", "reset":
			t = textutil.Collapse(n.Attr("value"))
		}
	}
	return t
}

// nearMisses names visible nodes that match part of the query, to help fix it.
func nearMisses(snap *dom.Snapshot, q Query) string {
	var loose Query
	switch {
	case q.Role != "" && (q.Name != "" || q.NameContains != "" || q.Text != "" || q.TestID != ""):
		loose = Query{Role: q.Role}
	case q.Name != "":
		loose = Query{NameContains: q.Name}
	case q.Text != "" && len(q.Text) > 3:
		loose = Query{Text: q.Text[:len(q.Text)/2]}
	default:
		return ""
	}
	var vis []*dom.VirtualNode
	for _, n := range FindNodes(snap, loose) {
		if n.Visible {
			vis = append(vis, n)
		}
	}
	if len(vis) == 0 {
		return ""
	}
	return "; candidates: " + nameNodes(vis, 8)
}

func nameNodes(ns []*dom.VirtualNode, max int) string {
	var parts []string
	for i, n := range ns {
		if i == max {
			parts = append(parts, fmt.Sprintf("… %d more", len(ns)-max))
			break
		}
		parts = append(parts, dom.NodeLabel(n, 40))
	}
	return strings.Join(parts, ", ")
}

// Pick chooses the node a query names among found, the nodes of snap that
// match it. It takes the first visible one, or the Nth. Else it takes one
// drawn though hidden from an agent's view. Nothing to pick is an error
// that names the candidates. So are several visible matches for a Unique
// query.
func Pick(snap *dom.Snapshot, q Query, found []*dom.VirtualNode) (*dom.VirtualNode, error) {
	var visible, rendered []*dom.VirtualNode
	for _, n := range found {
		switch {
		case n.Visible:
			visible = append(visible, n)
		case n.Hidden == dom.HiddenOpacity || n.Hidden == dom.HiddenAriaHidden:
			// Drawn and clickable though hidden from an agent's view. The
			// transparent checkbox over a styled label is one.
			rendered = append(rendered, n)
		}
	}
	if len(visible) == 0 {
		visible = rendered
	}
	if q.Unique && q.Nth == nil && len(visible) > 1 {
		return nil, dom.Errorf(dom.ValidationError, nil, "%s is ambiguous: %d visible matches: %s; narrow it or add \"nth\"", q, len(visible), nameNodes(visible, 8))
	}
	i := 0
	if q.Nth != nil {
		i = *q.Nth
	}
	if i >= 0 && i < len(visible) {
		return visible[i], nil
	}
	if len(visible) > 0 {
		return nil, dom.Errorf(dom.NodeNotFound, nil, "%s: nth=%d but only %d visible matches: %s", q, i, len(visible), nameNodes(visible, 8))
	}
	if len(found) > 0 {
		return nil, dom.Errorf(dom.NodeNotFound, nil, "%s matches only hidden nodes: %s", q, nameNodes(found, 8))
	}
	return nil, dom.Errorf(dom.NodeNotFound, nil, "nothing matches %s%s", q, nearMisses(snap, q))
}
