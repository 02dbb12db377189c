package cdpconn

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"time"

	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"

	"domscope/dom"
	"domscope/dom/urls"
)

// Page is an attached page target. It implements dom.Page.
type Page struct {
	session
	b      *Browser
	ctx    context.Context
	cancel context.CancelFunc
	id     string
	// owned is true for a tab this program opened; only those are closed.
	owned bool
	done  chan struct{}

	mu       sync.Mutex
	frames   map[string]*frameSession
	detached bool
}

var _ dom.Page = (*Page)(nil)

// frameSession is an attached out-of-process iframe target.
type frameSession struct {
	session
	cancel   context.CancelFunc
	url      string
	detached <-chan struct{}
}

func newPage(b *Browser, tctx context.Context, tcancel context.CancelFunc, owned bool) *Page {
	c := chromedp.FromContext(tctx)
	p := &Page{
		session: session{t: c.Target, life: tctx},
		b:       b, ctx: tctx, cancel: tcancel,
		id: string(c.Target.TargetID), owned: owned,
		done:   make(chan struct{}),
		frames: map[string]*frameSession{},
	}
	detached, _ := chromedp.Detached(tctx)
	go func() {
		select {
		case <-detached:
		case <-tctx.Done():
		case <-c.Browser.LostConnection:
		}
		close(p.done)
	}()
	return p
}

// TargetID is the page's target id.
func (p *Page) TargetID() string { return p.id }

// Owned reports whether this program opened the tab. Then Detach closes
// it.
func (p *Page) Owned() bool { return p.owned }

// Done is closed when the page's connection ends. The tab closed or
// crashed, the browser went away, or Detach was called.
func (p *Page) Done() <-chan struct{} { return p.done }

// Navigate loads url in the page. It waits until the new document is
// parsed, then for its load event at most dom.LoadGrace: an image or a
// script that never arrives must not hold it. ctx's deadline bounds the
// wait when it has one. A caller that knows the page is heavy may wait
// longer. Otherwise navigateTimeout bounds it. The wait ends as soon as
// the page's connection does (tab closed, browser gone).
func (p *Page) Navigate(ctx context.Context, url string) error {
	limit := navigateTimeout
	if d, ok := ctx.Deadline(); ok {
		limit = time.Until(d)
	}
	nctx, cancel := context.WithTimeout(p.ctx, limit)
	defer cancel()
	stop := context.AfterFunc(ctx, cancel)
	defer stop()
	go func() {
		select {
		case <-p.done:
			cancel()
		case <-nctx.Done():
		}
	}()
	if err := p.load(nctx, url); err != nil {
		if p.alive() != nil {
			return dom.Errorf(dom.NotAttached, nil,
				"the tab or the browser went away while %s was loading: start the browser again (or use --launch)", urls.Safe(url))
		}
		if ctx.Err() != nil {
			err = ctx.Err()
		}
		return wrapErr(err, "navigating to "+urls.Safe(url))
	}
	return nil
}

// load navigates and waits for the parse and, briefly, the load event.
// Only the new document's lifecycle events count (by loader id): the
// document it replaces may still fire its own.
func (p *Page) load(ctx context.Context, url string) error {
	life, stopLife := p.Subscribe("Page.lifecycleEvent")
	defer stopLife()
	// A renderer that hangs after parsing sends no lifecycle events; the
	// browser still says the frame stopped loading.
	stopped, stopStopped := p.Subscribe("Page.frameStoppedLoading")
	defer stopStopped()
	if err := p.Call(ctx, "Page.enable", nil, nil); err != nil {
		return err
	}
	if err := p.Call(ctx, "Page.setLifecycleEventsEnabled", map[string]any{"enabled": true}, nil); err != nil {
		return err
	}
	var r struct {
		FrameID   string `json:"frameId"`
		LoaderID  string `json:"loaderId"`
		ErrorText string `json:"errorText"`
	}
	if err := p.Call(ctx, "Page.navigate", map[string]any{"url": url}, &r); err != nil {
		return err
	}
	if r.ErrorText != "" {
		return dom.Errorf(dom.CDPError, nil, "could not load %s: %s", dom.Clip(urls.Safe(url), 200), r.ErrorText)
	}
	if r.LoaderID == "" {
		return nil // within the document: nothing loads
	}
	var grace <-chan time.Time
	for {
		var ev struct {
			FrameID  string `json:"frameId"`
			LoaderID string `json:"loaderId"`
			Name     string `json:"name"`
		}
		select {
		case raw, ok := <-life:
			if !ok {
				return eventsEnded(ctx)
			}
			if json.Unmarshal(raw, &ev) != nil || ev.FrameID != r.FrameID || ev.LoaderID != r.LoaderID {
				continue
			}
			switch ev.Name {
			case "load":
				return nil
			case "DOMContentLoaded":
				if grace == nil {
					t := time.NewTimer(dom.LoadGrace)
					defer t.Stop()
					grace = t.C
				}
			}
		case raw, ok := <-stopped:
			if !ok {
				return eventsEnded(ctx)
			}
			if json.Unmarshal(raw, &ev) == nil && ev.FrameID == r.FrameID {
				return nil
			}
		case <-grace:
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// Frames lists the out-of-process iframe targets inside the page, nested
// ones too. It attaches to new ones and drops gone ones.
func (p *Page) Frames(ctx context.Context) ([]dom.FrameTarget, error) {
	if err := p.alive(); err != nil {
		return nil, err
	}
	infos, err := p.b.allTargets(ctx)
	if err != nil {
		return nil, err
	}
	// An iframe target's parent is the page or another iframe target.
	parent := map[string]string{}
	for _, ti := range infos {
		if ti.Type == "iframe" {
			parent[string(ti.TargetID)] = string(ti.ParentID)
		}
	}
	inPage := func(id string) bool { return inside(parent, p.id, id) }
	var out []dom.FrameTarget
	seen := map[string]bool{}
	for _, ti := range infos {
		id := string(ti.TargetID)
		if ti.Type != "iframe" || !inPage(id) {
			continue
		}
		seen[id] = true
		fs, err := p.frame(ctx, id, ti.URL)
		if err != nil {
			// A frame can go away between listing and attaching. Skip it
			// rather than fail the whole page.
			continue
		}
		out = append(out, dom.FrameTarget{TargetID: id, URL: ti.URL, Session: fs.session, ParentID: string(ti.ParentID)})
	}
	p.mu.Lock()
	var gone []*frameSession
	for id, fs := range p.frames {
		if !seen[id] {
			gone = append(gone, fs)
			delete(p.frames, id)
		}
	}
	p.mu.Unlock()
	for _, fs := range gone {
		fs.cancel()
	}
	return out, nil
}

func (p *Page) frame(ctx context.Context, id, url string) (*frameSession, error) {
	p.mu.Lock()
	fs := p.frames[id]
	p.mu.Unlock()
	if fs != nil {
		select {
		case <-fs.detached:
		default:
			fs.url = url
			return fs, nil
		}
	}
	// Detach only on cancel. We never close a frame target.
	fctx, fcancel := chromedp.NewContext(p.b.ctx, chromedp.WithTargetID(target.ID(id)), chromedp.WithDetachOnCancel())
	if err := bounded(ctx, attachTimeout, fcancel, func() error { return chromedp.Do(fctx) }); err != nil {
		fcancel()
		return nil, wrapErr(err, "attaching to frame "+id)
	}
	detached, _ := chromedp.Detached(fctx)
	fs = &frameSession{session: session{t: chromedp.FromContext(fctx).Target, life: fctx}, cancel: fcancel, url: url, detached: detached}
	p.mu.Lock()
	if old := p.frames[id]; old != nil {
		defer old.cancel()
	}
	p.frames[id] = fs
	p.mu.Unlock()
	return fs, nil
}

func (p *Page) alive() error {
	select {
	case <-p.done:
		return dom.Errorf(dom.NotAttached, nil, "page %s is no longer attached", p.id)
	default:
		return nil
	}
}

// Detach ends the session. It closes the tab only if this program opened it.
func (p *Page) Detach() error {
	p.mu.Lock()
	if p.detached {
		p.mu.Unlock()
		return nil
	}
	p.detached = true
	frames := p.frames
	p.frames = map[string]*frameSession{}
	p.mu.Unlock()
	for _, fs := range frames {
		fs.cancel()
	}
	// chromedp.Cancel waits for the detach and for the close of an owned
	// tab. chromedp's own 5 s bounds the wait.
	err := chromedp.Cancel(p.ctx)
	p.cancel()
	p.b.forget(p)
	if err != nil && !errors.Is(err, context.Canceled) {
		return wrapErr(err, "detaching from "+p.id)
	}
	return nil
}

// eventsEnded is the error of a wait whose event channel closed: the
// page's connection ended, or ctx did.
func eventsEnded(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return errors.New("the page's events stopped while it loaded")
}
