package serve

import (
	"context"
	"os"
	"sync"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"domscope/dom"
	"domscope/dom/live"
	"domscope/dom/mcp"
)

// front is one tab's MCP server, the agent CLI's door to that tab. Its
// ids are the tab's live model's, as `snapshot` prints them.
type front struct {
	tab     *servedTab
	srv     *mcp.Server
	cs      *sdk.ClientSession
	session string // "" for a tab named by --target

	closeOnce sync.Once

	mu   sync.Mutex
	last mcp.Call // the last call that ended
	rec  *mcp.Recording
	file *os.File // the --record script, when asked
	step string   // the last call's step, for --steps
}

// newFront makes the MCP server of t, for session (or "").
func (s *Server) newFront(ctx context.Context, t *servedTab, session string) (*front, error) {
	f := &front{tab: t, session: session}
	observe := f.observe
	if s.observer != nil {
		observe = func(c mcp.Call) { f.observe(c); s.observer(c) }
	}
	f.srv = mcp.NewLive(mcp.Config{
		Service: t.svc, Page: t.page, Browser: s.browser,
		Observer: observe, Gate: s.gate, GateTimeout: s.gateTimeout,
		Version: "serve",
	}, live.Config{FreshDocumentIDs: true})
	f.rec = mcp.NewRecording(f.srv, nil)
	ct, st := sdk.NewInMemoryTransports()
	if _, err := f.srv.MCP().Connect(s.ctx, st, nil); err != nil {
		return nil, err
	}
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "domscope-cli", Version: "serve"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		return nil, err
	}
	f.cs = cs
	return f, nil
}

// frontOf is t's front, made on first use. It closes with t.
func (s *Server) frontOf(ctx context.Context, t *servedTab, session string) (*front, error) {
	t.fmu.Lock()
	f := t.front
	t.fmu.Unlock()
	if f != nil {
		return f, nil
	}
	f, err := s.newFront(ctx, t, session)
	if err != nil {
		return nil, err
	}
	t.fmu.Lock()
	defer t.fmu.Unlock()
	switch {
	case t.front != nil:
		go f.close()
		return t.front, nil
	case t.gone:
		go f.close()
		return nil, dom.Errorf(dom.NotAttached, nil, "the tab was let go: ask again")
	}
	t.front = f
	return f, nil
}

// forgetFront drops f and its tab's session, and closes its MCP server.
func (s *Server) forgetFront(f *front) {
	f.tab.fmu.Lock()
	if f.tab.front == f {
		f.tab.front = nil
	}
	f.tab.fmu.Unlock()
	s.mu.Lock()
	for name, id := range s.agents.sessions {
		if id == f.tab.id {
			delete(s.agents.sessions, name)
		}
	}
	s.mu.Unlock()
	go f.close()
}

// close closes f's MCP server and its script, once.
func (f *front) close() {
	f.closeOnce.Do(func() {
		_ = f.cs.Close()
		f.srv.Close()
		f.mu.Lock()
		defer f.mu.Unlock()
		if f.file != nil {
			_ = f.file.Close()
		}
	})
}
