package mcp

import (
	"context"
	"fmt"
	"strings"

	"domscope/dom"
	"domscope/dom/flatten"
	"domscope/dom/query"
	"domscope/dom/render"
)

// viewOpts are dom_snapshot's serialization options.
type viewOpts struct {
	query.Shape
	json      bool
	compact   bool // seed 003's payload (flatten.FormatCompact)
	recent    *dom.Later
	maxTokens int
}

// render writes snap as the agent's view with o, headed by the page line.
// It is the one renderer (dom/render) in the tools' own words.
func (s *Server) render(ctx context.Context, svc Service, snap *dom.Snapshot, o viewOpts) (string, error) {
	v := render.View{Format: "text", Shape: o.Shape, MaxTokens: o.maxTokens, PageLine: pageLine,
		Note: cutNote(o),
		Outside: func(n int) string {
			return fmt.Sprintf("… %d more nodes outside the viewport not shown: dom_scroll, or dom_snapshot with offscreen:true", n)
		}}
	if o.json {
		v.Format = "json"
	}
	if o.compact {
		v.Format, v.Recent = "compact", o.recent
	}
	opts, err := v.Options(snap, func(sel string) ([]*dom.VirtualNode, error) {
		return svc.QueryCSSIn(ctx, snap, sel)
	})
	if err != nil {
		return "", err
	}
	if l, ok := svc.(looker); ok {
		// without it the view has no scroll or covered marks; it still
		// stands
		opts.Look, _ = l.LookIn(ctx, snap, opts.Covered)
	}
	text, _, err := v.Print(snap, opts)
	if err != nil {
		return "", err
	}
	s.shown(snap)
	return text, nil
}

// looker reads the scroll positions and hit tests a view shows
// (live.Service).
type looker interface {
	LookIn(ctx context.Context, snap *dom.Snapshot, covered bool) (*dom.Look, error)
}

// cutNote words what maxTokens left out. It advises only what the call
// did not already do.
func cutNote(o viewOpts) flatten.Note {
	adv := []string{"a larger maxTokens"}
	if o.Selector == "" {
		adv = append(adv, "a selector")
	}
	if o.Offscreen {
		adv = append(adv, "offscreen:false")
	}
	return func(omitted int) []string {
		return []string{
			fmt.Sprintf("%d more nodes left out to fit maxTokens %d: call dom_snapshot with %s", omitted, o.maxTokens, orList(adv)),
			fmt.Sprintf("%d more nodes left out (maxTokens %d)", omitted, o.maxTokens),
			fmt.Sprintf("%d more", omitted),
		}
	}
}

// orList is "a", "a or b", "a, b or c".
func orList(xs []string) string {
	if len(xs) < 2 {
		return strings.Join(xs, "")
	}
	return strings.Join(xs[:len(xs)-1], ", ") + " or " + xs[len(xs)-1]
}

// shown records that the agent saw snap. The nodes gone since the view it
// saw before are remembered, so acting on one names what it was.
func (s *Server) shown(snap *dom.Snapshot) {
	s.mu.Lock()
	defer s.mu.Unlock()
	prev := s.seen
	if prev == snap || snap == nil {
		return
	}
	s.seen = snap
	if prev == nil {
		return
	}
	if len(s.gone) > maxGone {
		s.gone = map[string]nodeSig{}
	}
	for id, n := range prev.ByID {
		if snap.ByID[id] == nil && n.NodeType == dom.ElementNode {
			s.gone[id] = sigOf(n)
		}
	}
}

// wasShown is what the agent saw of a node no longer in the view.
func (s *Server) wasShown(id string) (nodeSig, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if n := s.seen.Node(id); n != nil {
		return sigOf(n), true
	}
	g, ok := s.gone[dom.NormalizeID(id)]
	return g, ok
}
