package flatten

import (
	"reflect"

	"domscope/dom"
)

// changedStates are the states whose changes are listed. An action on a
// control flips them, and the DOM often does not show them (a checkbox's
// checked is a property, not an attribute).
var changedStates = []string{"checked", "expanded", "selected", "pressed", "value", "focused", "disabled"}

// maxChangeText bounds a name or value in a change.
const maxChangeText = 80

// nodeChanges adds to out what changed on a node that prev (p) and next
// (n) share. A node hidden or shown because an ancestor was is left out
// (its ancestor says it), as are text nodes (their element does). Diff
// sorts the list by node afterwards.
func nodeChanges(out []dom.Change, id string, p, n *dom.VirtualNode) []dom.Change {
	if n.NodeType != dom.ElementNode {
		return out
	}
	for _, k := range changedStates {
		if len(p.States) == 0 && len(n.States) == 0 || sameMap(p.States, n.States) {
			break // most nodes have no state, or share it: skip the lookups
		}
		a, b := p.States[k], n.States[k]
		if a == b {
			continue
		}
		if k == "value" && (p.Sensitive() || n.Sensitive()) {
			// a field's value may be a secret: say only that it changed
			a, b = dom.MaskIf(a != "", a), dom.MaskIf(b != "", b)
			if a == b {
				continue
			}
		}
		out = append(out, dom.Change{ID: id, Kind: "state", What: k, From: dom.Clip(a, maxChangeText), To: dom.Clip(b, maxChangeText)})
	}
	switch {
	case p.Hidden == "" && n.Hidden != "" && n.Hidden != dom.HiddenInherited:
		out = append(out, dom.Change{ID: id, Kind: "hidden", What: n.Hidden})
	case p.Hidden != "" && n.Hidden == "" && p.Hidden != dom.HiddenInherited:
		out = append(out, dom.Change{ID: id, Kind: "shown", What: p.Hidden})
	}
	if p.Name != n.Name {
		out = append(out, dom.Change{ID: id, Kind: "name", From: dom.Clip(p.Name, maxChangeText), To: dom.Clip(n.Name, maxChangeText)})
	}
	if p.Parent != nil && n.Parent != nil && p.Parent.ID != n.Parent.ID {
		out = append(out, dom.Change{ID: id, Kind: "moved", From: p.Parent.ID, To: n.Parent.ID})
	}
	return out
}

// sameMap reports whether a and b are one map. A rebuild shares the
// states of a node whose states did not change (build.Options.Prev).
func sameMap(a, b map[string]string) bool {
	return len(a) == len(b) && reflect.ValueOf(a).UnsafePointer() == reflect.ValueOf(b).UnsafePointer()
}

// idLess orders "node_N" by N, others after, by text.
func idLess(a, b string) bool {
	x, xok := dom.IDNumber(a)
	y, yok := dom.IDNumber(b)
	if xok && yok {
		return x < y
	}
	if xok != yok {
		return xok
	}
	return a < b
}

// FlatText is the flattened text view of s with opts ("" for nil).
func FlatText(s *dom.Snapshot, opts dom.Options) string {
	if s == nil {
		return ""
	}
	sd, _ := Flatten(s, opts)
	return FormatText(sd)
}

// ListChanges fills c's lists from a diff and the flattened views before
// and after, each cut at MaxListedChanges.
func ListChanges(c *dom.Changes, d SnapshotDiff, flatBefore, flatAfter string) {
	c.Nodes, c.NodesMore = firstOf(d.Changed)
	c.Flat, c.FlatMore = firstOf(LineDiff(flatBefore, flatAfter))
	if len(c.Nodes) > 0 || len(c.Flat) > 0 {
		c.DomChanged = true
	}
}

func firstOf[T any](xs []T) ([]T, int) {
	if len(xs) > dom.MaxListedChanges {
		return xs[:dom.MaxListedChanges:dom.MaxListedChanges], len(xs) - dom.MaxListedChanges
	}
	return xs, 0
}
