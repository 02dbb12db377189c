package serve

import (
	"context"
	"fmt"
	"time"

	"domscope/dom/render"
)

// modelAhead builds the model of each new document of t's tab once it
// has loaded, before anyone asks. The first snapshot of a page the tab
// went to then reads a model at rest instead of capturing it. It waits
// for the load event without the tab's turn: a request that comes first
// captures as it would without this. It ends when the tab's service
// closes or the server stops.
func (s *Server) modelAhead(t *servedTab) {
	for {
		select {
		case <-s.ctx.Done():
			return
		case ev, ok := <-t.svc.Events():
			if !ok {
				return
			}
			// A new document dropped the model. A model already there
			// (a request came first) is refreshed at the next read.
			if ev.Kind != "loaded" || t.svc.Current() != nil {
				continue
			}
			s.captureAhead(t)
		}
	}
}

// MaxUnread is how many pages of a tab are modelled ahead with no
// request in between. A page that reloads itself every few seconds is
// not captured for ever; the next request lifts the limit.
const MaxUnread = 3

// captureAhead takes the tab's turn, as a request does, and captures its
// page unless a request did so already.
func (s *Server) captureAhead(t *servedTab) {
	ctx, cancel := context.WithTimeout(s.ctx, attachBound)
	defer cancel()
	select {
	case t.turn <- struct{}{}:
		defer func() { <-t.turn }()
	case <-ctx.Done():
		return
	}
	if t.svc.Current() != nil || t.unread >= MaxUnread {
		return
	}
	start := time.Now()
	// The new document's second DOM.documentUpdated may come during the
	// first capture and drop it: then it is taken once more.
	for try := 0; ; try++ {
		snap, err := t.svc.Snapshot(ctx, false)
		// An error is left for the next request, which meets it again.
		if err != nil {
			return
		}
		if t.svc.Current() == snap {
			break
		}
		if try == 1 {
			return // the page keeps changing: the next request reads it
		}
	}
	t.unread++
	if s.Log != nil {
		// No URL: it may hold a token.
		fmt.Fprintf(s.Log, "domscope serve: modelled a page ahead, %s\n", render.Ms(time.Since(start)))
	}
}
