package mcp

import (
	"context"
	"strings"

	"domscope/dom"
	"domscope/dom/query"
)

// act performs an action on the current tab. It answers with its result
// and, by the server's View, the change to the view. After a navigation
// it answers with the new page's visible part.
func (s *Server) act(ctx context.Context, a dom.Action) reply {
	svc, err := s.service()
	if err != nil {
		return failed(err)
	}
	a.ID = dom.NormalizeID(a.ID)
	rec := a
	if a.ID != "" && s.sensitive(svc, a.ID) {
		for _, v := range []string{a.Text, a.Value, a.Key} {
			s.sec.add(v)
		}
		rec.Text, rec.Value = maskNonEmpty(rec.Text), maskNonEmpty(rec.Value)
		if rec.Key != "" {
			rec.Key = dom.Mask
		}
	}
	s.mu.Lock()
	before := s.seen
	s.mu.Unlock()
	res := svc.Do(ctx, a)
	r := reply{result: &res, action: &rec, target: a.ID}
	if !res.Success && res.Error != nil && res.Error.Code == dom.ExpectationFailed {
		// The action ran: what it did is the answer, under the error.
		r.err = res.Error
		r.text = resultText(&res, s.afterView(ctx, svc, &res, before))
		return r
	}
	if !res.Success {
		r.err = res.Error
		if r.err == nil {
			r.err = dom.Errorf(dom.CDPError, nil, "%s failed", a.Kind)
		}
		s.explain(svc, &r, a.ID)
		r.text = resultText(&res, "")
		return r
	}
	r.text = resultText(&res, s.afterView(ctx, svc, &res, before))
	return r
}

// sameDocument reports whether two snapshots are of one document. Ids
// carry over only within a document, the root's included.
func sameDocument(a, b *dom.Snapshot) bool {
	return a != nil && b != nil && a.Root != nil && b.Root != nil && a.TargetID == b.TargetID &&
		a.Root.ID == b.Root.ID && a.Root.BackendID == b.Root.BackendID
}

// maskNonEmpty is dom.Mask for text that holds something.
func maskNonEmpty(v string) string {
	if v == "" {
		return v
	}
	if v[len(v)-1] == '\n' {
		return dom.Mask + "\n"
	}
	return dom.Mask
}

// sensitive reports whether node id of the view is a sensitive field.
func (s *Server) sensitive(svc Service, id string) bool {
	s.mu.Lock()
	n := s.seen.Node(id)
	s.mu.Unlock()
	if n == nil {
		n = svc.Current().Node(id)
	}
	return n.Sensitive()
}

// explain makes an error about an id the agent was shown say more. It
// says what that node was and what is most like it now.
func (s *Server) explain(svc Service, r *reply, id string) {
	if id == "" || (r.err.Code != dom.NodeNotFound && r.err.Code != dom.NodeStale) {
		return
	}
	was, ok := s.wasShown(id)
	if !ok {
		return
	}
	snap := svc.Current()
	if snap == nil {
		snap, _ = svc.Snapshot(context.Background(), false)
	}
	r.err, r.hint = staleError(r.err, id, was, snap)
}

// afterView is what an action answers with besides its result. before is
// the snapshot the agent saw last.
func (s *Server) afterView(ctx context.Context, svc Service, res *dom.ActionResult, before *dom.Snapshot) string {
	if res.Dialog != nil {
		return "" // the page is blocked: nothing to show until dom_dialog
	}
	if s.cfg.View == ViewNone {
		return ""
	}
	snap := svc.Current()
	if snap == nil {
		// invalidated since the action's own snapshot (a late event)
		var err error
		if snap, err = svc.Snapshot(ctx, false); err != nil {
			return "view: not available (" + dom.ErrorOf(err).Message + "): call dom_snapshot\n"
		}
	}
	navigated := res.Changes.Navigated || res.Action.Navigates()
	if navigated && sameDocument(before, snap) {
		navigated = false // a fragment or pushState: the diff says it
	}
	if s.cfg.View == ViewDiff && !navigated {
		// the diff brings the agent's view up to this snapshot
		s.shown(snap)
		if navigated := res.Changes.Navigated; navigated && len(res.Changes.Flat) == 0 {
			return "view: unchanged (the page may have scrolled: dom_snapshot with offscreen:false shows what is on screen)\n"
		}
		return diffText(res.Changes) + modalNote(before, snap)
	}
	// A new page is shown as far as it is on screen; most pages are long.
	// The rest is a dom_snapshot (or a scroll) away.
	text, err := s.render(ctx, svc, snap, viewOpts{Shape: query.Shape{Offscreen: s.cfg.View == ViewFull}})
	if err != nil {
		return "view: not available (" + dom.ErrorOf(err).Message + "): call dom_snapshot\n"
	}
	if navigated {
		return "navigated to " + strings.TrimPrefix(text, "page: ")
	}
	return "view:\n" + text
}
