package dom

import "iter"

// Decisions holds the flatten decision of each VirtualNode that got one.
// A map by ID took 11 MB at 105,000 nodes, and the UI holds two views
// around an action. So decisions sit in a slice in preorder, 8 bytes
// each, and an ID finds its place through an IDIndex. The zero value
// holds none.
type Decisions struct {
	nodes []*VirtualNode // the tree in preorder: recs[i] is nodes[i]'s
	recs  []decisionRec
	rules []string // the rule names recs point at
	n     int      // decisions set
	ids   IDIndex  // a node's place by its ID
}

type decisionRec struct {
	into int32  // place of the node Into names, -1 for none
	rule uint16 // index in rules
	kind uint8  // DecisionKind+1; 0 when the node got no decision
}

// NewDecisions makes room for a decision per node of a tree in preorder.
// Flatten fills it (Set). It keeps nodes: replace them, not their order.
func NewDecisions(nodes []*VirtualNode) Decisions {
	return Decisions{nodes: nodes, recs: make([]decisionRec, len(nodes)),
		ids: NewIDIndex(len(nodes), func(i int) string { return nodes[i].ID })}
}

// Index is the place of the node with this ID in the tree's preorder,
// or -1.
func (d Decisions) Index(id string) int { return d.ids.Find(id) }

// Set records node i's decision. into is the place of the node Into
// names, or -1.
func (d *Decisions) Set(i int, kind DecisionKind, rule string, into int) {
	if i < 0 || i >= len(d.recs) {
		return
	}
	r := &d.recs[i]
	if r.kind == 0 {
		d.n++
	}
	*r = decisionRec{into: int32(into), rule: d.ruleIndex(rule), kind: uint8(kind) + 1}
}

// Change gives node i another kind and rule. Where it went stays.
func (d *Decisions) Change(i int, kind DecisionKind, rule string) {
	if i >= 0 && i < len(d.recs) {
		d.Set(i, kind, rule, int(d.recs[i].into))
	}
}

// ruleIndex is rule's place in rules, added if new. A flatten names
// about twenty rules, one after another for long runs of nodes.
func (d *Decisions) ruleIndex(rule string) uint16 {
	for k := len(d.rules) - 1; k >= 0; k-- {
		if d.rules[k] == rule {
			return uint16(k)
		}
	}
	d.rules = append(d.rules, rule)
	return uint16(len(d.rules) - 1)
}

// At is the decision of node i, and whether it got one.
func (d Decisions) At(i int) (Decision, bool) {
	if i < 0 || i >= len(d.recs) || d.recs[i].kind == 0 {
		return Decision{}, false
	}
	r := d.recs[i]
	dec := Decision{Kind: DecisionKind(r.kind - 1), Rule: d.rules[r.rule]}
	if r.into >= 0 {
		dec.Into = d.nodes[r.into].ID
	}
	return dec, true
}

// Lookup is the decision for the node with this ID, and whether it got
// one.
func (d Decisions) Lookup(id string) (Decision, bool) { return d.At(d.Index(id)) }

// Get is the decision for the node with this ID, or the zero Decision.
func (d Decisions) Get(id string) Decision {
	dec, _ := d.Lookup(id)
	return dec
}

// Size is the number of nodes of the tree d was made for.
func (d Decisions) Size() int { return len(d.nodes) }

// Len is the number of nodes that got a decision.
func (d Decisions) Len() int { return d.n }

// All yields each node's ID and decision, in preorder.
func (d Decisions) All() iter.Seq2[string, Decision] {
	return func(yield func(string, Decision) bool) {
		for i := range d.recs {
			if dec, ok := d.At(i); ok && !yield(d.nodes[i].ID, dec) {
				return
			}
		}
	}
}

// WithNodes is d for another tree of the same shape and IDs, node for
// node: a snapshot that repeats the one d was made for. d's own tree is
// not kept. It reports false when the IDs differ in number or order:
// a decision found by position would then belong to another node.
func (d Decisions) WithNodes(nodes []*VirtualNode) (Decisions, bool) {
	if len(nodes) != len(d.nodes) {
		return Decisions{}, false
	}
	for i, n := range nodes {
		if n.ID != d.nodes[i].ID {
			return Decisions{}, false
		}
	}
	d.nodes = nodes
	return d, true
}
