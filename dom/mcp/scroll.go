package mcp

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"

	"domscope/dom"
	"domscope/dom/flatten"
)

// ScrollTo is where dom_scroll's "to" goes: "down", "up", "top",
// "bottom", or a number: the Nth row of a list whose rows the view
// estimates, else N pixels from the top.
type ScrollTo string

// UnmarshalJSON takes a string or a number.
func (t *ScrollTo) UnmarshalJSON(b []byte) error {
	s, f, isNum, err := stringOrNumber(b, `to is "down", "up", "top", "bottom" or a number`)
	switch {
	case err != nil:
		return err
	case isNum:
		*t = ScrollTo(strconv.FormatFloat(f, 'f', -1, 64))
	default:
		*t = ScrollTo(strings.ToLower(strings.TrimSpace(s)))
	}
	return nil
}

// scrollTarget is the scroll container of id in snap (the page when id
// is ""), where look says it stands, or an error an agent can act on.
func scrollTarget(snap *dom.Snapshot, look *dom.Look, id string) (*dom.VirtualNode, *dom.Scroll, error) {
	if id == "" {
		if look != nil && look.Page != nil {
			return nil, look.Page, nil
		}
		return nil, nil, dom.Errorf(dom.ValidationError, nil, "the page does not scroll")
	}
	n := snap.Node(id)
	if n == nil {
		return nil, nil, dom.Errorf(dom.NodeNotFound, nil, "no node %s in the view", id)
	}
	for x := n; x != nil; x = x.Parent {
		if sc := look.ScrollOf(x); sc != nil && x.Tag != "html" && x.Tag != "body" {
			return x, sc, nil
		}
	}
	return nil, nil, dom.Errorf(dom.ValidationError, nil, "node %s is not in a scroll container: scroll the page (no id)", id)
}

// lookOf reads where snap's page and scroll containers stand.
func lookOf(ctx context.Context, svc Service, snap *dom.Snapshot) (*dom.Look, error) {
	l, ok := svc.(looker)
	if !ok {
		return nil, dom.Errorf(dom.ValidationError, nil, "this tab cannot say where it is scrolled: use dx/dy")
	}
	return l.LookIn(ctx, snap, false)
}

// scrollDelta is the wheel turn that takes st to "to".
func scrollDelta(n *dom.VirtualNode, st *dom.Scroll, to ScrollTo) (float64, error) {
	switch to {
	case "down":
		return math.Max(1, st.ClientHeight*0.9), nil
	case "up":
		return -math.Max(1, st.ClientHeight*0.9), nil
	case "top":
		return -st.Top - 1, nil
	case "bottom":
		return st.Height - st.ClientHeight - st.Top + 1, nil
	}
	v, err := strconv.ParseFloat(string(to), 64)
	if err != nil || v < 0 {
		return 0, dom.Errorf(dom.ValidationError, nil, `to %q: use "down", "up", "top", "bottom" or a number (a row, or pixels from the top)`, to)
	}
	target := v
	if n != nil {
		if rows := flatten.EstimateRows(n, st); rows > 0 {
			// the Nth row starts at (N-1) row heights
			target = (v - 1) * st.Height / float64(rows)
		}
	}
	return target - st.Top, nil
}

// scrollTo runs dom_scroll with "to": a wheel turn over the container
// (the page) that takes it there. The answer says whether the page or
// the list grew: an infinite list loads more as it nears its end.
func (s *Server) scrollTo(ctx context.Context, in ScrollArgs) reply {
	svc, err := s.service()
	if err != nil {
		return failed(err)
	}
	snap, err := svc.Snapshot(ctx, true)
	if err != nil {
		return failed(err)
	}
	look, err := lookOf(ctx, svc, snap)
	if err != nil {
		return failed(err)
	}
	n, st, err := scrollTarget(snap, look, string(in.ID))
	if err != nil {
		return failed(err)
	}
	dy, err := scrollDelta(n, st, in.To)
	if err != nil {
		return failed(err)
	}
	id := ""
	if n != nil {
		id = n.ID
	}
	before := st.Height
	r := s.act(ctx, dom.Action{Kind: dom.KindScroll, ID: id, DY: dy})
	if r.err != nil {
		return r
	}
	if after := svc.Current(); after != nil {
		look2, _ := lookOf(ctx, svc, after)
		if _, st2, err := scrollTarget(after, look2, id); err == nil {
			switch {
			case st2.Height > before+1:
				r.text += fmt.Sprintf("grew: %.0f → %.0f px (more loaded)\n", before, st2.Height)
			case !st2.MoreBelow():
				r.text += "at the end\n"
			}
		}
	}
	return r
}
