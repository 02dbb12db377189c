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
	"domscope/dom/query"
	"domscope/dom/render"
	"domscope/dom/tabs"
)

// DefaultTimeout bounds a request that gives no timeout of its own.
const DefaultTimeout = 90 * time.Second

// Server answers `snapshot` requests from resident live services,
// one per tab, as `domscope mcp` keeps them: attached on first use,
// refreshed on each read, dropped when the tab closes.
type Server struct {
	browser dom.Browser
	// Log gets one line per request, when set.
	Log io.Writer
	// Stderr gets the server's own news (stopping, refusals).
	Stderr io.Writer

	// ctx bounds attaches, which outlive the request that began them.
	ctx    context.Context
	cancel context.CancelFunc

	// Watch: model every tab, asked for or not (serve --watch).
	Watch    bool
	watching atomic.Bool // a watchTabs under way

	mu   sync.Mutex // guards tabs and unwatchable; never held across a browser call
	tabs map[string]*servedTab
	// unwatchable are the tabs --watch could not attach: not tried again.
	unwatchable map[string]bool
	// agents are the agent CLI's doors to tabs, and its sessions.
	agents agents
}

// servedTab is one tab's service. Its requests run one at a time.
type servedTab struct {
	id    string
	ready chan struct{} // closed once attached, or not
	err   error         // why it did not attach; set before ready closes

	turn chan struct{} // held by the request under way, or a capture ahead
	// unread counts the pages modelled ahead since the last request;
	// guarded by turn.
	unread int
	// watched: claimed by --watch; never let go idle. Guarded by
	// snapshotServer.mu.
	watched bool
	last    atomic.Int64 // unix nanoseconds of the last request's end
	page    dom.Page
	svc     *live.Service
	tierOff map[string]bool
	done    <-chan struct{} // closed when the tab goes
}

// attachBound bounds one tab's attach, whoever waits for it.
const attachBound = 90 * time.Second

// New is a server of b's tabs. Close stops it.
func New(b dom.Browser) *Server {
	ctx, cancel := context.WithCancel(context.Background())
	return &Server{browser: b, Stderr: os.Stderr, tabs: map[string]*servedTab{}, unwatchable: map[string]bool{}, ctx: ctx, cancel: cancel,
		agents: agents{fronts: map[string]*front{}, sessions: map[string]string{}}}
}

// tab is the service of the tab spec names (as --target reads it). The
// first time, it attaches and starts the service. A slow tab keeps its
// own requests waiting, not those of other tabs.
func (s *Server) tab(ctx context.Context, spec string, tierOff map[string]bool) (*servedTab, error) {
	// A tab already served, named by its id, needs no listing.
	t := s.served(spec)
	if t == nil {
		open, err := s.browser.Targets(ctx)
		if err != nil {
			return nil, err
		}
		info, err := tabs.Pick(open, spec)
		if err != nil {
			return nil, err
		}
		t = s.claim(info, tierOff)
	}
	select {
	case <-t.ready:
	case <-ctx.Done():
		return nil, dom.Errorf(dom.Timeout, ctx.Err(), "the tab did not attach in time: raise --timeout")
	}
	if t.err != nil {
		return nil, t.err
	}
	return t, nil
}

// served is the tab with this id, attached or on its way; nil if none.
func (s *Server) served(id string) *servedTab {
	s.mu.Lock()
	defer s.mu.Unlock()
	t := s.tabs[id]
	if t != nil && t.attached() && !t.alive() {
		s.dropLocked(t)
		return nil
	}
	return t
}

// claim is the tab info names: the one served, or a new one whose
// attach starts now. One attach per tab, however many ask.
func (s *Server) claim(info dom.TargetInfo, tierOff map[string]bool) *servedTab {
	s.mu.Lock()
	defer s.mu.Unlock()
	if t := s.tabs[info.ID]; t != nil {
		if !t.attached() || t.alive() {
			return t
		}
		s.dropLocked(t)
	}
	t := &servedTab{id: info.ID, ready: make(chan struct{}), turn: make(chan struct{}, 1), tierOff: dom.CopyRules(tierOff)}
	t.last.Store(time.Now().UnixNano())
	s.tabs[info.ID] = t
	go s.attach(t, info.URL)
	return t
}

// attach attaches t's tab and starts its service, then opens t.ready.
func (s *Server) attach(t *servedTab, url string) {
	defer close(t.ready)
	// A bug here fails this tab's requests, not the server.
	defer func() {
		if v := recover(); v != nil {
			t.err = fmt.Errorf("domscope serve met an internal error attaching the tab (%q): pass --direct", fmt.Sprint(v))
			s.forget(t)
		}
	}()
	ctx, cancel := context.WithTimeout(s.ctx, attachBound)
	defer cancel()
	if Hooks.Attach != nil {
		Hooks.Attach(ctx, url)
	}
	p, err := s.browser.Attach(ctx, t.id)
	if err != nil {
		t.err = err
		s.forget(t)
		return
	}
	// The same service as `domscope mcp` keeps for a tab, with the
	// client's tier rules.
	svc := live.NewService(p, live.Config{TierDisabled: t.tierOff, FreshDocumentIDs: true})
	if s.ctx.Err() != nil {
		// The server stopped while the tab attached.
		_ = svc.Close()
		t.err = dom.Errorf(dom.NotAttached, s.ctx.Err(), "domscope serve is stopping")
		return
	}
	t.page, t.svc = p, svc
	go s.modelAhead(t)
	if d, ok := p.(interface{ Done() <-chan struct{} }); ok {
		t.done = d.Done()
		go func() {
			select {
			case <-t.done:
				s.drop(t)
			case <-s.ctx.Done():
			}
		}()
	}
}

// attached: t's attach has ended, well or not.
func (t *servedTab) attached() bool {
	select {
	case <-t.ready:
		return true
	default:
		return false
	}
}

// alive: the tab is still there and its service attached.
func (t *servedTab) alive() bool {
	if t.err != nil {
		return false
	}
	if t.done != nil {
		select {
		case <-t.done:
			return false
		default:
		}
	}
	return t.svc.State() != dom.Disconnected
}

// dropIdle drops the tabs with no request for idle: their services
// close and detach. A request that comes later attaches again.
func (s *Server) dropIdle(idle time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, t := range s.tabs {
		if t.watched || !t.attached() || len(t.turn) > 0 || time.Since(time.Unix(0, t.last.Load())) < idle {
			continue
		}
		s.dropLocked(t)
		if s.Log != nil {
			fmt.Fprintf(s.Log, "domscope serve: let a tab go after %s with no request for it\n", idle)
		}
	}
}

// forget takes t out of the registry, if it is still there.
func (s *Server) forget(t *servedTab) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.tabs[t.id] == t {
		delete(s.tabs, t.id)
	}
}

// drop forgets a tab and closes its service.
func (s *Server) drop(t *servedTab) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.dropLocked(t)
}

func (s *Server) dropLocked(t *servedTab) {
	if s.tabs[t.id] == t {
		delete(s.tabs, t.id)
	}
	if t.svc != nil {
		go func() { _ = t.svc.Close() }() // it may wait for a request under way
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
	text, _, err := o.Print(snap, opts)
	return text, err
}

// Close stops every service, and the attaches under way.
func (s *Server) Close() {
	s.closeFronts()
	s.cancel()
	s.mu.Lock()
	tabs := s.tabs
	s.tabs = map[string]*servedTab{}
	s.mu.Unlock()
	for _, t := range tabs {
		if t.attached() && t.svc != nil {
			_ = t.svc.Close()
		}
	}
}
