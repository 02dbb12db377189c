package serve

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"domscope/dom"
)

// agents holds the sessions. Guarded by Server.mu. A tab's front is
// its servedTab's.
type agents struct {
	sessions map[string]string // session name → tab id
	lent     map[string]bool   // sessions the UI serves (lend.go)
}

// targetFront is the front of the tab spec names (--target).
func (s *Server) targetFront(ctx context.Context, spec string) (*front, error) {
	t, err := s.tab(ctx, spec, nil)
	if err != nil {
		return nil, err
	}
	if owner := s.owner(t.id); owner != "" {
		return nil, dom.Errorf(dom.ValidationError, nil, "that tab is session %q's: act on it with --session %s", owner, owner)
	}
	return s.frontOf(ctx, t, "")
}

// owner is the session whose tab id is, or "".
func (s *Server) owner(id string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	for name, tid := range s.agents.sessions {
		if tid == id {
			return name
		}
	}
	return ""
}

// sessionFront is the front of session name's tab. The first time, it
// opens a tab of its own: two sessions never share one.
func (s *Server) sessionFront(ctx context.Context, name string) (*front, error) {
	s.mu.Lock()
	id, ok := s.agents.sessions[name]
	s.mu.Unlock()
	if ok {
		if e := s.served(id); e != nil {
			if err := e.Wait(ctx); err != nil {
				return nil, err
			}
			return s.frontOf(ctx, e.Service(), name)
		}
		// Its tab closed or crashed: the session starts afresh.
	}
	e, err := s.pool.Open(ctx, "about:blank", nil)
	if err != nil {
		return nil, err
	}
	t := e.Service()
	s.mu.Lock()
	t.watched = true // a session's tab is kept until it closes
	s.agents.sessions[name] = t.id
	s.mu.Unlock()
	return s.frontOf(ctx, t, name)
}

// moveSession points the session at the tab req's args name.
func (s *Server) moveSession(ctx context.Context, req Request) (*front, error) {
	var args struct {
		Tab string `json:"tab"`
	}
	_ = json.Unmarshal(req.Args, &args)
	info, err := s.pool.Pick(ctx, args.Tab)
	if err != nil {
		return nil, err
	}
	if owner := s.owner(info.ID); owner != "" && owner != req.Session {
		return nil, dom.Errorf(dom.ValidationError, nil, "tab %s is session %q's: two sessions never share a tab", args.Tab, owner)
	}
	t, err := s.tab(ctx, info.ID, nil)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	t.watched = true
	s.agents.sessions[req.Session] = t.id
	s.mu.Unlock()
	return s.frontOf(ctx, t, req.Session)
}

// closeSession closes the session's tab and forgets the session.
func (s *Server) closeSession(ctx context.Context, name string) (string, error) {
	s.mu.Lock()
	id, ok := s.agents.sessions[name]
	delete(s.agents.sessions, name)
	s.mu.Unlock()
	if !ok {
		return "", dom.Errorf(dom.TargetNotFound, nil, "no session %q is open", name)
	}
	text := fmt.Sprintf("closed session %s\n", name)
	// Dropping the tab closes its front too.
	if e := s.served(id); e != nil && e.Ready() {
		t := e.Service()
		cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		_ = t.page.Call(cctx, "Page.close", nil, nil)
		cancel()
		s.drop(t)
	}
	b, err := json.Marshal(Answer{Text: text})
	return string(b), err
}
