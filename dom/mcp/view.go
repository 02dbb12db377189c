package mcp

import (
	"context"
	"fmt"

	"domscope/dom"
	"domscope/dom/query"
	"domscope/dom/render"
)

// viewOpts are dom_snapshot's serialization options.
type viewOpts struct {
	query.Shape
	json      bool
	maxTokens int
}

// render writes snap as the agent's view with o, headed by the page line.
// It is the one renderer (dom/render) in the tools' own words.
func (s *Server) render(ctx context.Context, svc Service, snap *dom.Snapshot, o viewOpts) (string, error) {
	v := render.View{Format: "text", Shape: o.Shape, MaxTokens: o.maxTokens, PageLine: pageLine,
		More: func(omitted int) string {
			return fmt.Sprintf("%d more nodes left out to fit maxTokens %d: call dom_snapshot with a larger maxTokens, a selector, or offscreen:false", omitted, o.maxTokens)
		},
		Outside: func(n int) string {
			return fmt.Sprintf("… %d more nodes outside the viewport not shown: dom_scroll, or dom_snapshot with offscreen:true", n)
		}}
	if o.json {
		v.Format = "json"
	}
	opts, err := v.Options(snap, func(sel string) ([]*dom.VirtualNode, error) {
		return svc.QueryCSSIn(ctx, snap, sel)
	})
	if err != nil {
		return "", err
	}
	text, _, err := v.Print(snap, opts)
	if err != nil {
		return "", err
	}
	s.shown(snap)
	return text, nil
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
