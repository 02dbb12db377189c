package tabs

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	"domscope/dom"
)

// AttachBound bounds one tab's attach, whoever waits for it.
const AttachBound = 90 * time.Second

// Pool maps tabs to their live services, for serve, dom/mcp and the UI.
// A tab is attached on first use, once however many ask; it is dropped,
// its service closed, when it closes. Safe for concurrent use.
type Pool[S Service] struct {
	// BeforeAttach, when set, runs before each attach (for tests).
	BeforeAttach func(ctx context.Context, info dom.TargetInfo)
	// KeepClosed keeps a tab whose page's connection ended: its service
	// may reconnect (live.Config.Reconnect). The caller drops it.
	KeepClosed bool

	mk func(dom.Page) S
	// ctx bounds attaches, which outlive the caller that began them.
	ctx    context.Context
	cancel context.CancelFunc

	mu      sync.Mutex // guards below; never held across a browser call
	browser dom.Browser
	tabs    map[string]*Entry[S]
	seq     int
	closed  bool
}

// New is a pool of b's tabs. mk starts the service of a tab the pool
// attaches or opens. b may be nil until SetBrowser.
func New[S Service](b dom.Browser, mk func(dom.Page) S) *Pool[S] {
	ctx, cancel := context.WithCancel(context.Background())
	return &Pool[S]{mk: mk, ctx: ctx, cancel: cancel, browser: b, tabs: map[string]*Entry[S]{}}
}

// SetBrowser is the browser later attaches and opens use.
func (p *Pool[S]) SetBrowser(b dom.Browser) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.browser = b
}

// Browser is the pool's browser, or nil.
func (p *Pool[S]) Browser() dom.Browser {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.browser
}

// Pick lists the browser's tabs and picks the one spec names (Pick).
func (p *Pool[S]) Pick(ctx context.Context, spec string) (dom.TargetInfo, error) {
	b, err := p.usable()
	if err != nil {
		return dom.TargetInfo{}, err
	}
	open, err := b.Targets(ctx)
	if err != nil {
		return dom.TargetInfo{}, err
	}
	return Pick(open, spec)
}

// Get is the attached tab spec names (as --target reads it). mk, when
// not nil, makes its service in place of the pool's. A slow tab keeps
// only its own callers waiting.
func (p *Pool[S]) Get(ctx context.Context, spec string, mk func(dom.Page) S) (*Entry[S], error) {
	// A tab in the pool, named by its id, needs no listing.
	e := p.Served(spec)
	if e == nil {
		info, err := p.Pick(ctx, spec)
		if err != nil {
			return nil, err
		}
		if e, err = p.Claim(info, mk); err != nil {
			return nil, err
		}
	}
	if err := e.Wait(ctx); err != nil {
		return nil, err
	}
	return e, nil
}

// Served is the tab with this id, attached or on its way; nil if none.
// A tab found dead is dropped, its service closed in the background.
func (p *Pool[S]) Served(id string) *Entry[S] {
	p.mu.Lock()
	e := p.tabs[id]
	p.mu.Unlock()
	if e != nil && e.Ready() && !e.Alive() {
		// Closed aside: the service may wait for a call under way.
		if p.Forget(e) {
			go p.closeService(e)
		}
		return nil
	}
	return e
}

// Claim is the entry of the tab info names: the one in the pool, or a
// new one whose attach starts now. One attach per tab, however many ask.
func (p *Pool[S]) Claim(info dom.TargetInfo, mk func(dom.Page) S) (*Entry[S], error) {
	if mk == nil {
		mk = p.mk
	}
	if mk == nil {
		return nil, dom.Errorf(dom.ValidationError, nil, "this pool attaches no tabs")
	}
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return nil, closedErr()
	}
	if e := p.tabs[info.ID]; e != nil {
		if !e.Ready() || e.Alive() {
			p.mu.Unlock()
			return e, nil
		}
		p.forgetLocked(e)
		go p.closeService(e) // dead: it may wait for a call under way
	}
	e := p.addLocked(info.ID)
	p.mu.Unlock()
	go p.attach(e, info, mk)
	return e, nil
}

// attach attaches e's tab and starts its service, then opens e.ready.
func (p *Pool[S]) attach(e *Entry[S], info dom.TargetInfo, mk func(dom.Page) S) {
	defer close(e.ready)
	// A bug here fails this tab's callers, not the program.
	defer func() {
		if v := recover(); v != nil {
			e.err = dom.Errorf(dom.CDPError, nil, "domscope met an internal error attaching the tab (%q): please report it", fmt.Sprint(v))
			p.Forget(e)
		}
	}()
	ctx, cancel := context.WithTimeout(p.ctx, AttachBound)
	defer cancel()
	if p.BeforeAttach != nil {
		p.BeforeAttach(ctx, info)
	}
	b, err := p.usable()
	if err != nil {
		e.err = err
		p.Forget(e)
		return
	}
	page, err := b.Attach(ctx, e.ID)
	if err == nil && page == nil {
		err = dom.Errorf(dom.AttachFailed, nil, "the browser gave no page for tab %s", e.ID)
	}
	if err != nil {
		e.err = err
		if p.ctx.Err() != nil {
			e.err = closedErr()
		}
		p.Forget(e)
		return
	}
	svc := mk(page)
	p.mu.Lock()
	closed, kept := p.closed, p.tabs[e.ID] == e
	if kept && !closed {
		e.page, e.svc, e.own = page, svc, true
		if !p.KeepClosed {
			e.done = page.Done()
		}
	}
	p.mu.Unlock()
	switch {
	case closed:
		_ = svc.Close()
		e.err = closedErr()
		p.Forget(e)
	case !kept:
		// Adopt put another service of this tab in its place.
		_ = svc.Close()
		e.err = dom.Errorf(dom.NotAttached, nil, "tab %s was replaced while it attached: ask again", e.ID)
	default:
		p.watch(e)
	}
}

// Adopt puts a tab whose page is attached already, with its service, in
// the pool; it replaces any entry of that tab. own: the pool closes svc
// when the tab goes or the pool closes.
func (p *Pool[S]) Adopt(page dom.Page, svc S, own bool) (*Entry[S], error) {
	id := ""
	if page != nil {
		id = page.TargetID()
	}
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return nil, closedErr()
	}
	old := p.tabs[id]
	if old != nil {
		p.forgetLocked(old)
	}
	e := p.addLocked(id)
	e.page, e.svc, e.own = page, svc, own
	if own && page != nil && !p.KeepClosed {
		e.done = page.Done()
	}
	close(e.ready)
	p.mu.Unlock()
	if old != nil && !same(old, svc) {
		p.closeService(old)
	}
	p.watch(e)
	return e, nil
}

// Open opens a new tab at url and puts it in the pool with its service
// (made by mk, or the pool's).
func (p *Pool[S]) Open(ctx context.Context, url string, mk func(dom.Page) S) (*Entry[S], error) {
	if mk == nil {
		mk = p.mk
	}
	if mk == nil {
		return nil, dom.Errorf(dom.ValidationError, nil, "this pool opens no tabs")
	}
	b, err := p.usable()
	if err != nil {
		return nil, err
	}
	page, err := b.NewPage(ctx, url)
	if err != nil {
		return nil, err
	}
	if page == nil {
		return nil, dom.Errorf(dom.AttachFailed, nil, "the browser gave no page for the new tab")
	}
	svc := mk(page)
	e, err := p.Adopt(page, svc, true)
	if err != nil {
		// The pool closed meanwhile: the tab is not left behind.
		_ = svc.Close()
		_ = page.Detach()
	}
	return e, err
}

// List is the pool's tabs, in the order they came in.
func (p *Pool[S]) List() []*Entry[S] {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := make([]*Entry[S], 0, len(p.tabs))
	for _, e := range p.tabs {
		out = append(out, e)
	}
	slices.SortFunc(out, func(a, b *Entry[S]) int { return a.seq - b.seq })
	return out
}

// Len is how many tabs the pool holds, attaching ones too.
func (p *Pool[S]) Len() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.tabs)
}

// Forget takes e out of the pool without closing its service. It
// reports whether e was there.
func (p *Pool[S]) Forget(e *Entry[S]) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.forgetLocked(e)
}

// Drop takes e out of the pool and closes its service, if the pool's.
// Once: e gone already is left alone.
func (p *Pool[S]) Drop(e *Entry[S]) {
	if p.Forget(e) {
		p.closeService(e)
	}
}

// Close closes the pool's services and stops the attaches under way.
// Later calls get an error.
func (p *Pool[S]) Close() {
	p.cancel()
	p.mu.Lock()
	p.closed = true
	tabs := p.tabs
	p.tabs = map[string]*Entry[S]{}
	p.mu.Unlock()
	for _, e := range tabs {
		p.closeService(e)
	}
}

func (p *Pool[S]) addLocked(id string) *Entry[S] {
	p.seq++
	e := &Entry[S]{ID: id, seq: p.seq, ready: make(chan struct{})}
	p.tabs[id] = e
	return e
}

func (p *Pool[S]) forgetLocked(e *Entry[S]) bool {
	if p.tabs[e.ID] != e {
		return false
	}
	delete(p.tabs, e.ID)
	return true
}

// closeService closes e's service if the pool made it.
func (p *Pool[S]) closeService(e *Entry[S]) {
	if e.Ready() && e.err == nil && e.own {
		_ = e.svc.Close()
	}
}

// watch drops e once its tab goes (e.done, set for own entries).
func (p *Pool[S]) watch(e *Entry[S]) {
	if e.done == nil {
		return
	}
	go func() {
		select {
		case <-e.done:
			p.Drop(e)
		case <-p.ctx.Done():
		}
	}()
}

// usable is the browser, or why there is none to use.
func (p *Pool[S]) usable() (dom.Browser, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	switch {
	case p.closed:
		return nil, closedErr()
	case p.browser == nil:
		return nil, dom.Errorf(dom.NotAttached, nil, "no browser is attached to list or open tabs")
	}
	return p.browser, nil
}

// same: old's service is svc. A service type that cannot be compared
// counts as another.
func same[S Service](old *Entry[S], svc S) (eq bool) {
	if !old.Ready() || old.err != nil {
		return false
	}
	defer func() {
		if recover() != nil {
			eq = false
		}
	}()
	return any(old.svc) == any(svc)
}

func closedErr() error {
	return dom.Errorf(dom.NotAttached, nil, "the tab pool is closed: its program is stopping")
}
