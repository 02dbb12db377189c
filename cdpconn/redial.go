package cdpconn

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"time"

	"domscope/dom"
	"domscope/dom/urls"
)

// Redialer is a connection to a browser endpoint that is made again when
// it is lost. The browser was restarted on the same port, or the
// websocket dropped. It implements dom.Browser. Every call runs on a live
// connection. When the current one is gone, it dials a new one first. So
// a tab picker or an attach after a restart talks to the new browser, not
// the dead one.
type Redialer struct {
	endpoint    string
	allowRemote bool

	mu     sync.Mutex
	cur    *Browser
	old    []*Browser // replaced connections, closed with the Redialer
	closed bool
}

var _ dom.Browser = (*Redialer)(nil)

// NewRedialer starts from b, an open connection to endpoint. A nil b
// dials on first use.
func NewRedialer(endpoint string, allowRemote bool, b *Browser) *Redialer {
	return &Redialer{endpoint: endpoint, allowRemote: allowRemote, cur: b}
}

// Browser returns a live connection, dialling the endpoint again when the
// current one is closed or lost.
func (r *Redialer) Browser(ctx context.Context) (*Browser, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return nil, dom.Errorf(dom.NotAttached, nil, "the browser connection is closed")
	}
	if r.cur != nil && r.cur.alive() == nil {
		return r.cur, nil
	}
	nb, err := Connect(ctx, r.endpoint, r.allowRemote)
	if err != nil {
		return nil, err
	}
	if r.cur != nil {
		// Not closed here: its pages may still be held by a service. And
		// detaching over a dead connection can take seconds.
		r.old = append(r.old, r.cur)
	}
	r.cur = nb
	return nb, nil
}

// Targets lists the tabs of the browser at the endpoint now.
func (r *Redialer) Targets(ctx context.Context) ([]dom.TargetInfo, error) {
	b, err := r.Browser(ctx)
	if err != nil {
		return nil, err
	}
	return b.Targets(ctx)
}

// Attach attaches to a tab of the browser at the endpoint now.
func (r *Redialer) Attach(ctx context.Context, targetID string) (dom.Page, error) {
	b, err := r.Browser(ctx)
	if err != nil {
		return nil, err
	}
	return b.Attach(ctx, targetID)
}

// NewPage opens a tab in the browser at the endpoint now.
func (r *Redialer) NewPage(ctx context.Context, url string) (dom.Page, error) {
	b, err := r.Browser(ctx)
	if err != nil {
		return nil, err
	}
	return b.NewPage(ctx, url)
}

// Reattach gets the tab lost back, over a live connection. It takes the
// same target when the browser still has it (the connection dropped).
// Else it takes the first tab at the same URL (the browser was restarted
// and reopened it). When neither is there it fails with
// TARGET_NOT_FOUND, so the caller can offer the tabs that are.
func (r *Redialer) Reattach(ctx context.Context, lost dom.TargetInfo) (dom.Page, error) {
	b, err := r.Browser(ctx)
	if err != nil {
		return nil, err
	}
	tabs, err := b.Targets(ctx)
	if err != nil {
		return nil, err
	}
	var found *dom.TargetInfo
	for i, t := range tabs {
		if t.ID == lost.ID {
			found = &tabs[i]
			break
		}
	}
	if found == nil && lost.URL != "" {
		for i, t := range tabs {
			if t.URL == lost.URL {
				found = &tabs[i]
				break
			}
		}
	}
	if found == nil {
		return nil, dom.Errorf(dom.TargetNotFound, nil, "the browser has no tab %s or at %s any more (%d tabs open)", lost.ID, urls.Safe(lost.URL), len(tabs))
	}
	p, err := b.AttachPage(ctx, found.ID)
	if err != nil {
		return nil, err
	}
	p.waitShowing(ctx, found.URL)
	return p, nil
}

// Bounds on waiting for a tab found again to show its page.
const (
	showingTimeout = 5 * time.Second
	showingPoll    = 100 * time.Millisecond
)

// waitShowing waits, briefly, until the tab's document is url and loaded.
// A restarted browser lists a tab at the URL it is about to load. It
// still shows its initial empty document then. A snapshot then would show
// nothing. It gives up quietly: the service notices later navigations.
func (p *Page) waitShowing(ctx context.Context, url string) {
	ctx, cancel := context.WithTimeout(ctx, showingTimeout)
	defer cancel()
	lit, _ := json.Marshal(url) // a JSON string is a JavaScript string literal
	for {
		var r struct {
			Result struct {
				Value bool `json:"value"`
			} `json:"result"`
		}
		c, cc := context.WithTimeout(ctx, time.Second) // a dialog blocks evaluation
		err := p.Call(c, "Runtime.evaluate", map[string]any{
			"expression":    "location.href === " + string(lit) + " && document.readyState === 'complete'",
			"returnByValue": true,
		}, &r)
		cc()
		if err == nil && r.Result.Value {
			return
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(showingPoll):
		}
	}
}

// Close closes every connection the Redialer made or was given. Tabs this
// program opened are closed with them; others stay open.
func (r *Redialer) Close() error {
	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		return nil
	}
	r.closed = true
	all := append(r.old, r.cur)
	r.old, r.cur = nil, nil
	r.mu.Unlock()
	var errs []error
	for _, b := range all {
		if b != nil {
			errs = append(errs, b.Close())
		}
	}
	return errors.Join(errs...)
}
