package query

import (
	"sort"
	"strings"

	"domscope/dom"
	"domscope/dom/build"
	"domscope/dom/internal/textutil"
)

// SearchHit is a node a search found and how it matched.
type SearchHit struct {
	Node *dom.VirtualNode
	// Kind says what matched, for people: "name", "name prefix", "in
	// name", "role", "tag" or "id". A #text node's text says "text". An
	// attribute's name or value says "attr NAME".
	Kind string
	rank int
	pos  int // document order
}

// The groups a hit falls in, best first.
const (
	rankNodeID     = iota // the node's own id ("node_12", "[12]", "12")
	rankName              // the accessible name (a #text node's text), whole
	rankNamePrefix        // the name starts with the query
	rankNameIn            // the name holds the query
	rankExact             // role, tag or id attribute, whole
	rankPart              // role, tag or id attribute, in part
	rankAttr              // another attribute's name or value
)

// Search finds the nodes of snap whose name, role, tag, id or attributes
// hold q (any case, white space collapsed). Best matches come first:
//  1. the whole accessible name;
//  2. a name that starts with q;
//  3. a name that holds q;
//  4. role, tag and id;
//  5. other attributes.
//
// Within a group, visible and interactive nodes come first, then document
// order. "#x" looks for the id attribute x. The UI's / search is this
// function.
func Search(snap *dom.Snapshot, q string) []SearchHit {
	q = strings.ToLower(textutil.Collapse(q))
	if snap == nil || snap.Root == nil || q == "" {
		return nil
	}
	nodeID := dom.NormalizeID(q) // "12", "[12]" and "node_12" name node_12
	if !strings.HasPrefix(nodeID, "node_") {
		nodeID = ""
	}
	idQuery := strings.TrimPrefix(q, "#")
	var hits []SearchHit
	dom.Walk(snap.Root, func(n *dom.VirtualNode) {
		if h, ok := searchHit(n, q, idQuery, nodeID); ok {
			h.pos = len(hits)
			hits = append(hits, h)
		}
	})
	sort.SliceStable(hits, func(i, j int) bool {
		a, b := hits[i], hits[j]
		if a.rank != b.rank {
			return a.rank < b.rank
		}
		if pa, pb := prominence(a.Node), prominence(b.Node); pa != pb {
			return pa < pb
		}
		return a.pos < b.pos
	})
	return hits
}

// prominence orders nodes within a group. Visible and interactive come
// first, then visible, then interactive though hidden, then the rest.
func prominence(n *dom.VirtualNode) int {
	p := 0
	if !n.Visible {
		p += 2
	}
	if !build.IsInteractive(n) {
		p++
	}
	return p
}

// searchHit is how n matches q, at its best.
func searchHit(n *dom.VirtualNode, q, idQuery, nodeID string) (SearchHit, bool) {
	hit := func(rank int, kind string) (SearchHit, bool) { return SearchHit{Node: n, Kind: kind, rank: rank}, true }
	if nodeID != "" && n.ID == nodeID {
		return hit(rankNodeID, "id")
	}
	name, nameKind := n.Name, "name" // collapsed when built
	if n.NodeType == dom.TextNode {
		nameKind = "text"
		if name == "" || strings.HasSuffix(name, "…") { // cut at MaxNameLen
			name = textutil.Collapse(n.Text)
		}
	}
	if name != "" {
		name = strings.ToLower(name)
		switch {
		case name == q:
			return hit(rankName, nameKind)
		case strings.HasPrefix(name, q):
			return hit(rankNamePrefix, nameKind+" prefix")
		case strings.Contains(name, q):
			return hit(rankNameIn, "in "+nameKind)
		}
	}
	if n.NodeType == dom.TextNode {
		return SearchHit{}, false
	}
	role, tag, id := strings.ToLower(n.Role), strings.ToLower(n.Tag), strings.ToLower(n.Attrs["id"])
	if strings.HasPrefix(tag, "#") {
		tag = "" // #document, #shadow-root: not tags a user searches for
	}
	switch {
	case role == q:
		return hit(rankExact, "role")
	case tag == q:
		return hit(rankExact, "tag")
	case id != "" && id == idQuery:
		return hit(rankExact, "id")
	case strings.Contains(role, q):
		return hit(rankPart, "role")
	case tag != "" && strings.Contains(tag, q):
		return hit(rankPart, "tag")
	case id != "" && strings.Contains(id, idQuery):
		return hit(rankPart, "id")
	}
	best := ""
	for k, v := range n.Attrs {
		if k == "id" {
			continue
		}
		if strings.Contains(strings.ToLower(k), q) || strings.Contains(strings.ToLower(v), q) {
			if best == "" || k < best { // the same attribute named every time
				best = k
			}
		}
	}
	if best != "" {
		return hit(rankAttr, "attr "+best)
	}
	return SearchHit{}, false
}
