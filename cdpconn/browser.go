package cdpconn

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"

	"domscope/dom"
)

// Bounds on browser calls that set up a connection. A browser that does
// not answer in time is reported, never waited on for ever.
const (
	dialTimeout     = 10 * time.Second
	attachTimeout   = 20 * time.Second
	navigateTimeout = time.Minute
	detachTimeout   = 5 * time.Second
)

// Browser is a connection to one browser. It implements dom.Browser.
type Browser struct {
	wsURL string

	allocCancel context.CancelFunc
	ctx         context.Context // the chromedp browser context; its life is the connection's
	cancel      context.CancelFunc

	// launched is set when Launch started the process; Close stops it.
	launched *launched

	mu     sync.Mutex
	pages  map[*Page]struct{}
	closed bool
}

var _ dom.Browser = (*Browser)(nil)

// Connect attaches to a running browser at endpoint. The endpoint is one
// of (see resolveEndpoint):
//   - http://host:port; when empty, DefaultEndpoint.
//   - host:port.
//   - a ws://host:port/devtools/browser/<id> URL.
//   - a browser farm's URL with its token.
//
// A CDP port is full control of a browser. So non-loopback hosts are
// refused unless allowRemote is set. A dead or wrong endpoint fails
// within a few seconds with a clear error. The error never holds the
// endpoint's token.
func Connect(ctx context.Context, endpoint string, allowRemote bool) (*Browser, error) {
	ws, err := resolveEndpoint(ctx, endpoint, allowRemote)
	if err == nil {
		var b *Browser
		if b, err = connectWS(ctx, ws); err == nil {
			return b, nil
		}
	}
	return nil, hideSecrets(err, endpoint, ws)
}

// nop discards chromedp's own log lines. It logs events it cannot decode,
// which would end up on the user's terminal.
func nop(string, ...any) {}

func connectWS(ctx context.Context, wsURL string) (*Browser, error) {
	allocCtx, allocCancel := chromedp.NewAllocatorContext(context.Background(), &allocator{wsURL: wsURL})
	bctx, cancel := chromedp.NewContext(allocCtx,
		chromedp.WithLogf(nop), chromedp.WithErrorf(nop), chromedp.WithDebugf(nop))
	// Once only: the cancel waits for the context's allocation token,
	// which a first call takes. bounded may call it, then shutdown again.
	bcancel := sync.OnceFunc(cancel)
	b := &Browser{wsURL: wsURL, allocCancel: allocCancel, ctx: bctx, cancel: bcancel, pages: map[*Page]struct{}{}}
	// The first chromedp call on bctx dials the browser and binds the
	// connection to bctx. So it must get bctx itself, bounded from outside.
	start := time.Now()
	err := bounded(ctx, attachTimeout, bcancel, func() error {
		_, err := chromedp.Targets(bctx)
		return err
	})
	if err != nil {
		b.shutdown()
		if timedOut(err) {
			return nil, notAnswering(dom.AttachFailed, "the browser at "+Redact(wsURL), "Target.getTargets", time.Since(start), nil)
		}
		return nil, dom.Errorf(dom.AttachFailed, err, "cannot connect to the browser at %s", Redact(wsURL))
	}
	return b, nil
}

// bounded runs f, which must use a context that abort cancels. It gives
// up when ctx ends or after d, calling abort so f returns.
func bounded(ctx context.Context, d time.Duration, abort func(), f func() error) error {
	done := make(chan error, 1)
	go func() { done <- f() }()
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		abort()
		<-done
		return ctx.Err()
	case <-t.C:
		abort()
		<-done
		return fmt.Errorf("no answer in %s: %w", d, context.DeadlineExceeded)
	}
}

// WebSocketURL is the browser's DevTools websocket URL. It may hold a
// farm's token, so show it through Redact.
func (b *Browser) WebSocketURL() string { return b.wsURL }

// Targets lists the page targets (tabs) of the browser.
func (b *Browser) Targets(ctx context.Context) ([]dom.TargetInfo, error) {
	infos, err := b.allTargets(ctx)
	if err != nil {
		return nil, err
	}
	var out []dom.TargetInfo
	for _, ti := range infos {
		if !isTab(ti.Type, ti.URL) {
			continue
		}
		out = append(out, dom.TargetInfo{ID: string(ti.TargetID), Type: ti.Type, Title: ti.Title, URL: ti.URL, Attached: ti.Attached})
	}
	return out, nil
}

// allTargets lists every target (pages, iframes, workers).
func (b *Browser) allTargets(ctx context.Context) ([]*target.Info, error) {
	if err := b.alive(); err != nil {
		return nil, err
	}
	ctx, cancel := withDefaultTimeout(ctx, attachTimeout)
	defer cancel()
	c := chromedp.FromContext(b.ctx)
	res, err := cdp.Call(ctx, c.Browser, target.GetTargets, target.GetTargetsParams{})
	if err != nil {
		return nil, wrapErr(err, "listing targets")
	}
	return res.TargetInfos, nil
}

func (b *Browser) alive() error {
	b.mu.Lock()
	closed := b.closed
	b.mu.Unlock()
	if closed || b.ctx.Err() != nil {
		return dom.Errorf(dom.NotAttached, nil, "the browser connection is closed")
	}
	c := chromedp.FromContext(b.ctx)
	select {
	case <-c.Browser.LostConnection:
		return dom.Errorf(dom.NotAttached, nil, "the connection to the browser was lost")
	default:
	}
	return nil
}

// Attach attaches to an existing page target. Detaching later leaves the tab open.
func (b *Browser) Attach(ctx context.Context, targetID string) (dom.Page, error) {
	p, err := b.AttachPage(ctx, targetID)
	if err != nil {
		return nil, err
	}
	return p, nil
}

// AttachPage is Attach with the concrete type.
func (b *Browser) AttachPage(ctx context.Context, targetID string) (*Page, error) {
	infos, err := b.Targets(ctx)
	if err != nil {
		return nil, err
	}
	found, blank := false, false
	for _, ti := range infos {
		if ti.ID == targetID {
			found, blank = true, ti.URL == "" || ti.URL == "about:blank"
		}
	}
	if !found {
		return nil, dom.Errorf(dom.TargetNotFound, nil, "no page target with id %q (%d tabs open)", targetID, len(infos))
	}
	tctx, tcancel := chromedp.NewContext(b.ctx, chromedp.WithTargetID(target.ID(targetID)), chromedp.WithDetachOnCancel())
	start := time.Now()
	p, attached, err := b.startPage(ctx, tctx, tcancel, false)
	if err != nil {
		return nil, attachErr(err, targetID, attached, time.Since(start))
	}
	if blank {
		if err := p.knownFrame(ctx); err != nil {
			_ = p.Detach()
			return nil, err
		}
	}
	return p, nil
}

// NewPage opens a new tab at url and attaches to it. The program owns the
// tab: Detach closes it.
func (b *Browser) NewPage(ctx context.Context, url string) (dom.Page, error) {
	p, err := b.OpenPage(ctx, url)
	if err != nil {
		return nil, err
	}
	return p, nil
}

// OpenPage is NewPage with the concrete type.
func (b *Browser) OpenPage(ctx context.Context, url string) (*Page, error) {
	if err := b.alive(); err != nil {
		return nil, err
	}
	tctx, tcancel := chromedp.NewContext(b.ctx)
	p, _, err := b.startPage(ctx, tctx, tcancel, true)
	if err != nil {
		return nil, dom.Errorf(dom.AttachFailed, err, "cannot open a new tab")
	}
	if url == "" || url == "about:blank" {
		if err := p.knownFrame(ctx); err != nil {
			_ = p.Detach()
			return nil, err
		}
		return p, nil
	}
	if err := p.Navigate(ctx, url); err != nil {
		_ = p.Detach()
		return nil, err
	}
	return p, nil
}

// startPage attaches tctx's target. On failure, attached says whether
// Target.attachToTarget had succeeded. If so, the page did not answer,
// not the browser.
func (b *Browser) startPage(ctx context.Context, tctx context.Context, tcancel context.CancelFunc, owned bool) (p *Page, attached bool, err error) {
	err = bounded(ctx, attachTimeout, tcancel, func() error { return chromedp.Do(tctx) })
	if err != nil {
		// bounded has waited for chromedp.Do, so reading its target is safe.
		attached = chromedp.FromContext(tctx).Target != nil
		tcancel()
		return nil, attached, err
	}
	p = newPage(b, tctx, tcancel, owned)
	b.mu.Lock()
	b.pages[p] = struct{}{}
	b.mu.Unlock()
	return p, true, nil
}

// knownFrame loads about:blank in a tab still on its first blank
// document. chromedp learns a tab's top frame from its page events, and
// such a tab has sent none: the first DOM event would then crash
// chromedp's event loop (a nil frame), and with it the program.
func (p *Page) knownFrame(ctx context.Context) error {
	if err := p.Navigate(ctx, "about:blank"); err != nil {
		return dom.Errorf(dom.AttachFailed, err, "cannot ready the blank tab")
	}
	return nil
}

func (b *Browser) forget(p *Page) {
	b.mu.Lock()
	delete(b.pages, p)
	b.mu.Unlock()
}

// Close detaches from every page, closing only the tabs this program
// opened. It ends the connection. It stops the browser if Launch started
// it.
func (b *Browser) Close() error {
	b.mu.Lock()
	if b.closed {
		b.mu.Unlock()
		return nil
	}
	b.closed = true
	pages := make([]*Page, 0, len(b.pages))
	for p := range b.pages {
		pages = append(pages, p)
	}
	b.mu.Unlock()
	var errs []error
	for _, p := range pages {
		if err := p.Detach(); err != nil {
			errs = append(errs, err)
		}
	}
	errs = append(errs, b.shutdown())
	return errors.Join(errs...)
}

func (b *Browser) shutdown() error {
	b.cancel()
	b.allocCancel()
	if b.launched != nil {
		return b.launched.stop()
	}
	return nil
}

// withDefaultTimeout adds d as a deadline when ctx has none.
func withDefaultTimeout(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	if _, ok := ctx.Deadline(); ok {
		return context.WithCancel(ctx)
	}
	return context.WithTimeout(ctx, d)
}
