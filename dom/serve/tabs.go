package serve

import (
	"context"
	"fmt"
	"io"
	"maps"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"domscope/dom"
	"domscope/dom/live"
	"domscope/dom/mcp"
	"domscope/dom/query"
	"domscope/dom/render"
	"domscope/dom/tabs"
)

// DefaultTimeout bounds a request that gives no timeout of its own.
const DefaultTimeout = 90 * time.Second

// attachBound bounds one tab's attach, whoever waits for it.
const attachBound = tabs.AttachBound

// Server answers `snapshot` requests from resident live services,
// one per tab, as `domscope mcp` keeps them: attached on first use,
// refreshed on each read, dropped when the tab closes. The tab pool
// (dom/tabs) keeps them; a servedTab adds what serve needs of each.
type Server struct {
	browser dom.Browser
	// Log gets one line per request, when set.
	Log io.Writer
	// Stderr gets the server's own news (stopping, refusals).
	Stderr io.Writer
	// Argv runs a front binary's command line here (sock.OpArgv); nil
	// answers those direct.
	Argv ArgvFunc

	// ctx ends when the server stops: it ends the models ahead.
	ctx    context.Context
	cancel context.CancelFunc

	// Watch: model every tab, asked for or not (serve --watch).
	Watch    bool
	watching atomic.Bool // a watchTabs under way

	pool *tabs.Pool[*servedTab]

	mu sync.Mutex // guards unwatchable, agents and watched; never held across a browser call
	// unwatchable are the tabs --watch could not attach: not tried again.
	unwatchable map[string]bool
	// agents are the agent CLI's doors to tabs, and its sessions.
	agents agents

	// For a session the UI serves (ServeLent): its fronts tell the UI of
	// each call, and the UI's pause holds them.
	observer    func(mcp.Call)
	gate        *mcp.Gate
	gateTimeout time.Duration
}

// servedTab is one tab's service. Its requests run one at a time.
type servedTab struct {
	id   string
	turn chan struct{} // held by the request under way, or a capture ahead
	// unread counts the pages modelled ahead since the last request;
	// guarded by turn.
	unread int
	// watched: claimed by --watch or a session; never let go idle.
	// Guarded by Server.mu.
	watched bool
	last    atomic.Int64 // unix nanoseconds of the last request's end
	page    dom.Page
	svc     *live.Service
	tierOff map[string]bool

	fmu   sync.Mutex // guards front and gone
	front *front     // the agent CLI's door to the tab, made on first use
	gone  bool       // closed: no front is made any more

	// lent: the UI's service (ServeLent); the UI closes it.
	lent bool
}

// State makes a servedTab a tabs.Service.
func (t *servedTab) State() dom.ConnState { return t.svc.State() }

// Close closes the tab's front, then its service.
func (t *servedTab) Close() error {
	t.fmu.Lock()
	f := t.front
	t.front, t.gone = nil, true
	t.fmu.Unlock()
	if f != nil {
		f.close()
	}
	if t.lent {
		return nil
	}
	return t.svc.Close()
}

// New is a server of b's tabs. Close stops it.
func New(b dom.Browser) *Server {
	timing.Store(false)
	ctx, cancel := context.WithCancel(context.Background())
	s := &Server{browser: b, Stderr: os.Stderr, unwatchable: map[string]bool{}, ctx: ctx, cancel: cancel,
		agents: agents{sessions: map[string]string{}, lent: map[string]bool{}}}
	s.pool = tabs.New(b, s.maker(nil))
	s.pool.BeforeAttach = func(ctx context.Context, info dom.TargetInfo) {
		if Hooks.Attach != nil {
			Hooks.Attach(ctx, info.URL)
		}
	}
	return s
}

// maker starts a tab's service with the client's tier rules: the same
// service as `domscope mcp` keeps for a tab.
func (s *Server) maker(tierOff map[string]bool) func(dom.Page) *servedTab {
	return func(p dom.Page) *servedTab {
		t := &servedTab{id: p.TargetID(), page: p, turn: make(chan struct{}, 1), tierOff: dom.CopyRules(tierOff)}
		t.last.Store(time.Now().UnixNano())
		t.svc = live.NewService(p, live.Config{TierDisabled: t.tierOff, FreshDocumentIDs: true})
		go s.modelAhead(t)
		return t
	}
}

// tab is the service of the tab spec names (as --target reads it). The
// first time, it attaches and starts the service. A slow tab keeps its
// own requests waiting, not those of other tabs.
func (s *Server) tab(ctx context.Context, spec string, tierOff map[string]bool) (*servedTab, error) {
	e, err := s.pool.Get(ctx, spec, s.maker(tierOff))
	if err != nil {
		return nil, err
	}
	return e.Service(), nil
}

// served is the entry of the tab with this id, attached or on its way;
// nil if none.
func (s *Server) served(id string) *tabs.Entry[*servedTab] {
	return s.pool.Served(id)
}

// dropIdle drops the tabs with no request for idle: their services
// close and detach. A request that comes later attaches again.
func (s *Server) dropIdle(idle time.Duration) {
	for _, e := range s.pool.List() {
		if !e.Ready() || !e.Alive() {
			continue
		}
		t := e.Service()
		s.mu.Lock()
		watched := t.watched
		s.mu.Unlock()
		if watched || len(t.turn) > 0 || time.Since(time.Unix(0, t.last.Load())) < idle {
			continue
		}
		s.drop(t)
		if s.Log != nil {
			fmt.Fprintf(s.Log, "domscope serve: let a tab go after %s with no request for it\n", idle)
		}
	}
}

// drop takes t out of the pool and closes its service, in the
// background: it may wait for a request under way.
func (s *Server) drop(t *servedTab) {
	for _, e := range s.pool.List() {
		if e.Ready() && e.Service() == t && s.pool.Forget(e) {
			go func() { _ = t.Close() }()
		}
	}
}

// snapshot answers one request with what `snapshot` would print.
func (s *Server) snapshot(ctx context.Context, req Request) (string, error) {
	o := req.view()
	if err := o.Check(); err != nil {
		return "", err
	}
	if Hooks.Request != nil {
		Hooks.Request(req)
	}
	for try := 0; ; try++ {
		t, err := s.tab(ctx, req.Target, req.TierOff)
		if err != nil {
			return "", err
		}
		text, err := t.snapshot(ctx, o, req)
		// A tab whose connection ended is attached afresh, once.
		if err != nil && dom.CodeOf(err) == dom.NotAttached && try == 0 {
			s.drop(t)
			continue
		}
		return text, err
	}
}

// snapshot refreshes the live model, as dom_snapshot does, and prints it
// as `snapshot` does.
func (t *servedTab) snapshot(ctx context.Context, o render.View, req Request) (string, error) {
	select {
	case t.turn <- struct{}{}:
		defer func() {
			t.last.Store(time.Now().UnixNano())
			<-t.turn
		}()
	case <-ctx.Done():
		return "", dom.Errorf(dom.Timeout, ctx.Err(), "the tab was busy with another request: raise --timeout")
	}
	t.unread = 0
	if !maps.Equal(t.tierOff, req.TierOff) {
		if _, err := t.svc.SetTierRules(req.TierOff); err != nil {
			return "", err
		}
		t.tierOff = dom.CopyRules(req.TierOff)
	}
	snap, err := t.svc.Snapshot(ctx, true)
	if err != nil {
		return "", err
	}
	if Hooks.Captured != nil {
		Hooks.Captured(ctx, t.page, t.svc)
	}
	// The selector's matches are nodes of this snapshot, as on the
	// direct path: the service's own query would read its newest one.
	opts, err := o.Options(snap, func(sel string) ([]*dom.VirtualNode, error) {
		return query.QueryCSS(ctx, t.page.Call, snap, t.page.TargetID(), sel)
	})
	if err != nil {
		return "", fmt.Errorf("--selector: %w", err)
	}
	if o.Format != "tree" {
		// scroll and covered marks; without them the view still stands
		opts.Look, _ = query.ReadLook(ctx, t.page.Call, snap, t.page.TargetID(), opts.Covered)
	}
	text, _, err := o.Print(snap, opts)
	return text, err
}

// Close stops every service, and the attaches under way.
func (s *Server) Close() {
	s.cancel()
	s.pool.Close() // each tab closes its front, then its service
}
