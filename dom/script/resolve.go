package script

import (
	"context"

	"domscope/dom"
	"domscope/dom/query"
)

// Resolve finds the node a query names in the actor's current snapshot,
// taking one if needed. The first visible match wins. No visible match,
// or an empty query, is an error that names the candidates.
func Resolve(ctx context.Context, a dom.Actor, q query.Query) (*dom.VirtualNode, error) {
	if q.Empty() {
		return nil, dom.Errorf(dom.ValidationError, nil, "empty target: give an id or a query with role/name/nameContains/text/testid/css")
	}
	snap, err := a.Snapshot(ctx, false)
	if err != nil {
		return nil, err
	}
	if q.ID != "" && q.Role == "" && q.Name == "" && q.NameContains == "" && q.Text == "" && q.TestID == "" && q.CSS == "" {
		n := snap.Node(q.ID)
		if n == nil {
			return nil, dom.Errorf(dom.NodeNotFound, nil, "%s is not in the current snapshot", dom.NormalizeID(q.ID))
		}
		return n, nil
	}
	found := query.FindNodes(snap, q)
	if q.CSS != "" {
		cq, ok := a.(query.CSSQuerier)
		if !ok {
			return nil, dom.Errorf(dom.ValidationError, nil, "css queries need a live page")
		}
		css, err := cq.QueryCSS(ctx, q.CSS)
		if err != nil {
			return nil, err
		}
		in := map[*dom.VirtualNode]bool{}
		for _, n := range css {
			in[n] = true
		}
		var both []*dom.VirtualNode
		for _, n := range found {
			if in[n] {
				both = append(both, n)
			}
		}
		found = both
	}
	return query.Pick(snap, q, found)
}
