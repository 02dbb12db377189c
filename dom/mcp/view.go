package mcp

import (
	"context"
	"fmt"
	"strings"

	"domscope/dom"
	"domscope/dom/flatten"
	"domscope/dom/query"
)

// viewOpts are dom_snapshot's serialization options.
type viewOpts struct {
	query.Shape
	json      bool
	compact   bool // seed 003's payload (flatten.FormatCompact)
	maxTokens int
}

// render writes snap as the agent's view with o, headed by the page line.
func (s *Server) render(ctx context.Context, svc Service, snap *dom.Snapshot, o viewOpts) (string, error) {
	opts := dom.DefaultOptions()
	err := o.Shape.Apply(snap, &opts, func(sel string) ([]*dom.VirtualNode, error) {
		return svc.QueryCSSIn(ctx, snap, sel)
	})
	if err != nil {
		return "", err
	}
	if o.compact {
		opts.IncludeBoundingBoxes = true
	}
	sd, _ := flatten.Flatten(snap, opts)
	s.shown(snap)
	if o.compact {
		b, err := flatten.FormatCompact(snap, sd)
		return string(b) + "\n", err
	}
	if o.Query != "" {
		text, _ := flatten.QueryText(sd, o.Query, o.maxTokens)
		return strings.TrimSuffix(pageLine(snap), "\n") + flatten.PageScrollText(snap) + "\n" + text, nil
	}
	more := func(omitted int) string {
		return fmt.Sprintf("%d more nodes left out to fit maxTokens %d: call dom_snapshot with a larger maxTokens, a selector, or offscreen:false", omitted, o.maxTokens)
	}
	if o.json {
		b, _, err := flatten.CutJSON(sd, o.maxTokens, more)
		if err != nil {
			return "", err
		}
		return string(b) + "\n", nil
	}
	lines, omitted := flatten.CutTextLines(flatten.FormatTextLines(sd), o.maxTokens)
	var b strings.Builder
	b.WriteString(strings.TrimSuffix(pageLine(snap), "\n") + flatten.PageScrollText(snap) + "\n")
	for _, l := range lines {
		if strings.HasPrefix(strings.TrimLeft(l.Text, " "), "… ") && sd.Outside > 0 && l.ID == "" && strings.Contains(l.Text, "outside the viewport") {
			// the offscreen marker, worded for the agent
			fmt.Fprintf(&b, "… %d more nodes outside the viewport not shown: dom_scroll, or dom_snapshot with offscreen:true\n", sd.Outside)
			continue
		}
		b.WriteString(l.Text)
		b.WriteByte('\n')
	}
	if omitted > 0 {
		b.WriteString("… " + more(omitted) + "\n")
	}
	return b.String(), nil
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
