package serve

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"domscope/dom"
	"domscope/dom/live"
	"domscope/dom/mcp"
)

// A session can be lent to the UI (`domscope --session NAME`): the UI
// asks the daemon for the session's tab (ToolLend), attaches its own
// live model to it and answers the session's commands itself, at
// SessionSocketPath. The agent CLI asks there first, so the person sees
// each call (M) and can pause them (p). When the UI quits, its socket
// goes, and the daemon serves the session again on the same tab.

// ToolLend asks the daemon for a session's tab, opening it if new, for
// the UI to serve. The answer's Text is the tab's id.
const ToolLend = "lend"

// backFromUI starts the first answer after the UI let a session go:
// the UI's model numbered the page, the daemon's model numbers it now.
const backFromUI = "the UI let this session go: its ids may have changed; take a snapshot before acting on old ids\n"

// Here is a Runner of this binary for endpoint. A service it starts
// stops after 10 minutes without a request.
func Here(endpoint string, timeout time.Duration) (Runner, error) {
	exe, err := os.Executable()
	return Runner{Exe: exe, Endpoint: endpoint, Idle: 10 * time.Minute, Timeout: timeout}, err
}

// Lend asks the endpoint's service (started if none runs) for session's
// tab, and returns its id. It gives up after r.Timeout.
func (r Runner) Lend(ctx context.Context, session string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, r.Timeout)
	defer cancel()
	a, err := r.daemon(ctx, Request{Session: session, Tool: ToolLend})
	if err != nil {
		return "", err
	}
	if a.Error {
		return "", dom.Errorf(a.Code, nil, "%s", a.Text)
	}
	return a.Text, nil
}

// lend answers ToolLend: the session's tab id. Its calls here are
// answered again only once the UI has let it go.
func (s *Server) lend(ctx context.Context, name string) (string, error) {
	if name == "" {
		return "", dom.Errorf(dom.ValidationError, nil, "lend needs a session name")
	}
	f, err := s.sessionFront(ctx, name)
	if err != nil {
		return "", err
	}
	s.mu.Lock()
	s.agents.lent[name] = true
	s.mu.Unlock()
	b, err := json.Marshal(Answer{Text: f.tab.id})
	return string(b), err
}

// takeBack ends a lend of session name, if there was one: the session's
// front starts afresh, on the model this service kept of the tab. It
// reports whether the session was lent.
func (s *Server) takeBack(name string) bool {
	s.mu.Lock()
	lent := s.agents.lent[name]
	delete(s.agents.lent, name)
	id := s.agents.sessions[name]
	s.mu.Unlock()
	if !lent {
		return false
	}
	if e := s.served(id); e != nil && e.Ready() {
		t := e.Service()
		t.fmu.Lock()
		f := t.front
		t.front = nil
		t.fmu.Unlock()
		if f != nil {
			go f.close()
		}
	}
	return true
}

// Lent is a session the UI serves: its tab, on the UI's own live model.
type Lent struct {
	// Runner reaches the endpoint's service, which gets the session back.
	Runner  Runner
	Session string
	Browser dom.Browser
	Page    dom.Page
	Service *live.Service
	// Observer and Gate are the UI's: each call shows as it happens,
	// and a pause holds them (at most GateTimeout).
	Observer    func(mcp.Call)
	Gate        *mcp.Gate
	GateTimeout time.Duration
	// Argv runs the front binary's commands here, as the daemon does.
	Argv ArgvFunc
}

// LentSession answers a lent session's commands in the UI's process.
type LentSession struct {
	s     *Server
	l     Lent
	stop  func()
	mu    sync.Mutex
	moved bool   // the person picked another tab (SetTab)
	tabID string // the session's tab now
}

// ServeLent answers l's session at SessionSocketPath until Stop.
func ServeLent(l Lent) (*LentSession, error) {
	s := New(l.Browser)
	s.Stderr = io.Discard // the UI draws the screen
	s.observer, s.gate, s.gateTimeout = l.Observer, l.Gate, l.GateTimeout
	s.Argv = l.Argv
	ls := &LentSession{s: s, l: l}
	if err := ls.adopt(l.Page, l.Service); err != nil {
		s.Close()
		return nil, err
	}
	ln, unlisten, err := Listen(SessionSocketPath(l.Runner.Endpoint, l.Session))
	if err != nil {
		s.Close()
		return nil, fmt.Errorf("serving session %q: %w", l.Session, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = s.Serve(ctx, ln, 365*24*time.Hour)
	}()
	ls.stop = func() {
		cancel()
		unlisten()
		<-done
	}
	return ls, nil
}

// adopt makes the UI's page and service the session's tab.
func (ls *LentSession) adopt(p dom.Page, svc *live.Service) error {
	t := &servedTab{id: p.TargetID(), page: p, svc: svc, turn: make(chan struct{}, 1), watched: true, lent: true}
	t.last.Store(time.Now().UnixNano())
	if _, err := ls.s.pool.Adopt(p, t, false); err != nil {
		return err
	}
	ls.s.mu.Lock()
	old := ls.s.agents.sessions[ls.l.Session]
	ls.s.agents.sessions[ls.l.Session] = t.id
	ls.s.mu.Unlock()
	if old != "" && old != t.id {
		if e := ls.s.served(old); e != nil && e.Ready() {
			ls.s.drop(e.Service()) // its front only: the UI closes the service
		}
	}
	ls.mu.Lock()
	ls.moved = ls.moved || (ls.tabID != "" && ls.tabID != t.id)
	ls.tabID = t.id
	ls.mu.Unlock()
	return nil
}

// SetTab moves the session to the tab the person picked (T).
func (ls *LentSession) SetTab(p dom.Page, svc *live.Service) {
	_ = ls.adopt(p, svc)
}

// Stop stops answering and hands the session back to the endpoint's
// service, on the tab the UI left it on.
func (ls *LentSession) Stop() {
	// a paused call must not hold the UI's exit
	if ls.l.Gate != nil {
		ls.l.Gate.Resume()
	}
	ls.stop()
	ls.s.Close()
	ls.mu.Lock()
	moved, id := ls.moved, ls.tabID
	ls.mu.Unlock()
	if !moved {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	args, _ := json.Marshal(map[string]string{"tab": id})
	_, _ = ls.l.Runner.daemon(ctx, Request{Session: ls.l.Session, Tool: ToolTab, Args: args})
}
