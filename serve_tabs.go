package main

import (
	"context"
	"io"
	"maps"
	"sync"

	"domscope/cdpconn"
	"domscope/dom"
	"domscope/dom/live"
)

// snapshotServer answers `snapshot` requests from resident live services,
// one per tab, as `domscope mcp` keeps them: attached on first use,
// refreshed on each read, dropped when the tab closes.
type snapshotServer struct {
	browser *cdpconn.Browser
	log     io.Writer // one line per request, when set

	mu   sync.Mutex // guards tabs; held while a tab is attached
	tabs map[string]*servedTab
}

// servedTab is one tab's service. Its requests run one at a time.
type servedTab struct {
	mu      sync.Mutex
	id      string
	svc     *live.Service
	tierOff map[string]bool
	done    <-chan struct{} // closed when the tab goes
}

func newSnapshotServer(b *cdpconn.Browser) *snapshotServer {
	return &snapshotServer{browser: b, tabs: map[string]*servedTab{}}
}

// tab is the service of the tab spec names (as --target reads it). The
// first time, it attaches and starts the service.
func (s *snapshotServer) tab(ctx context.Context, spec string, tierOff map[string]bool) (*servedTab, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	// A tab already served, named by its id, needs no listing.
	if t := s.tabs[spec]; t != nil && t.alive() {
		return t, nil
	}
	tabs, err := s.browser.Targets(ctx)
	if err != nil {
		return nil, err
	}
	info, err := cdpconn.PickTarget(tabs, spec)
	if err != nil {
		return nil, err
	}
	if t := s.tabs[info.ID]; t != nil {
		if t.alive() {
			return t, nil
		}
		s.dropLocked(t)
	}
	p, err := s.browser.Attach(ctx, info.ID)
	if err != nil {
		return nil, err
	}
	// The same service as `domscope mcp` keeps for a tab, with the
	// client's tier rules.
	t := &servedTab{id: info.ID, svc: live.NewService(p, live.Config{TierDisabled: tierOff, FreshDocumentIDs: true}), tierOff: dom.CopyRules(tierOff)}
	if d, ok := p.(interface{ Done() <-chan struct{} }); ok {
		t.done = d.Done()
		go func() {
			<-t.done
			s.drop(t)
		}()
	}
	s.tabs[info.ID] = t
	return t, nil
}

// alive: the tab is still there and its service attached.
func (t *servedTab) alive() bool {
	if t.done != nil {
		select {
		case <-t.done:
			return false
		default:
		}
	}
	return t.svc.State() != dom.Disconnected
}

// drop forgets a tab and closes its service.
func (s *snapshotServer) drop(t *servedTab) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.dropLocked(t)
}

func (s *snapshotServer) dropLocked(t *servedTab) {
	if s.tabs[t.id] == t {
		delete(s.tabs, t.id)
	}
	go func() { _ = t.svc.Close() }() // it may wait for a request under way
}

// snapshot answers one request with what `snapshot` would print.
func (s *snapshotServer) snapshot(ctx context.Context, req serveRequest) (string, error) {
	o := req.opts()
	if err := o.view.check(o.format); err != nil {
		return "", err
	}
	if serveTest.request != nil {
		serveTest.request(req)
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
func (t *servedTab) snapshot(ctx context.Context, o snapshotOpts, req serveRequest) (string, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
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
	opts, err := o.viewOptions(snap, req.FlattenOff, func(sel string) ([]*dom.VirtualNode, error) {
		return t.svc.QueryCSS(ctx, sel)
	})
	if err != nil {
		return "", err
	}
	text, _, err := o.printed(snap, opts)
	return text, err
}

// close stops every service.
func (s *snapshotServer) close() {
	s.mu.Lock()
	tabs := s.tabs
	s.tabs = map[string]*servedTab{}
	s.mu.Unlock()
	for _, t := range tabs {
		_ = t.svc.Close()
	}
}
