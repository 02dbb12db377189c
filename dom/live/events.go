package live

import (
	"context"
	"encoding/json"
	"sync"
	"time"

	"domscope/dom"
	"domscope/dom/urls"
)

// eventPump delivers events to one reader without ever blocking the
// sender. It coalesces bursts: consecutive invalidations become one, and
// a state change replaces an undelivered one.
type eventPump struct {
	mu     sync.Mutex
	queue  []dom.Event
	wake   chan struct{}
	out    chan dom.Event
	done   chan struct{}
	closed bool
}

func newEventPump(wg *sync.WaitGroup) *eventPump {
	p := &eventPump{wake: make(chan struct{}, 1), out: make(chan dom.Event), done: make(chan struct{})}
	wg.Add(1)
	go func() {
		defer wg.Done()
		p.run()
	}()
	return p
}

// maxQueued bounds undelivered events when nobody reads: the oldest go.
const maxQueued = 256

func (p *eventPump) send(e dom.Event) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return
	}
	if n := len(p.queue); n > 0 {
		last := p.queue[n-1]
		if last.Kind == e.Kind && (e.Kind == "invalidated" || e.Kind == "state") {
			p.queue[n-1] = e
			return
		}
	}
	if len(p.queue) >= maxQueued {
		p.queue = p.queue[1:]
	}
	p.queue = append(p.queue, e)
	select {
	case p.wake <- struct{}{}:
	default:
	}
}

func (p *eventPump) run() {
	for {
		p.mu.Lock()
		var next dom.Event
		have := len(p.queue) > 0
		if have {
			next = p.queue[0]
		}
		p.mu.Unlock()
		if !have {
			select {
			case <-p.wake:
				continue
			case <-p.done:
				return
			}
		}
		select {
		case p.out <- next:
			p.mu.Lock()
			if len(p.queue) > 0 {
				p.queue = p.queue[1:]
			}
			p.mu.Unlock()
		case <-p.wake:
			// The head may have been coalesced; look again.
		case <-p.done:
			return
		}
	}
}

// close stops delivery and closes the channel. The pump goroutine must
// have stopped (the service waits for it) before out is closed.
func (p *eventPump) close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.closed {
		p.closed = true
		close(p.out)
	}
}

func (p *eventPump) stop() {
	p.mu.Lock()
	defer p.mu.Unlock()
	select {
	case <-p.done:
	default:
		close(p.done)
	}
}

// tracker counts what the page did, for settling after an action.
type tracker struct {
	mutations  int64     // DOM mutation events seen
	lastChange time.Time // time of the last mutation
	navStarted int64     // main frame started loading
	navigated  int64     // main frame committed a navigation
	loaded     int64     // load event of the main frame
	stopped    int64     // main frame stopped loading
	parsed     int64     // DOMContentLoaded of the main frame
	docParsed  bool      // the current document has been parsed
	docAsked   bool      // a new document was requested, not yet committed
	parsedNav  int64     // the navStarted its parse counts for
	parsedAt   time.Time // when it was parsed
	url        string    // URL of the last main-frame navigation
	changed    chan struct{}
}

// eventsWatched are the CDP events the service follows on the page session.
var eventsWatched = []string{
	"DOM.documentUpdated",
	"DOM.childNodeInserted", "DOM.childNodeRemoved", "DOM.attributeModified",
	"DOM.attributeRemoved", "DOM.characterDataModified", "DOM.childNodeCountUpdated",
	"DOM.shadowRootPushed", "DOM.shadowRootPopped", "DOM.pseudoElementAdded",
	"Inspector.detached", "Inspector.targetCrashed",
} // and pageEvents, in order (dialog.go)

// attach wires the service to a page: subscriptions, domains, a watcher of
// the connection. The service's mutex must not be held.
func (s *Service) attach(p dom.Page) {
	pctx, pstop := context.WithCancel(s.ctx)
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		pstop()
		_ = p.Detach() // a page reconnected after Close: let it go
		return
	}
	s.page = p
	s.pageCtx, s.pageStop = pctx, pstop
	s.state = dom.Connected
	s.dialog = nil
	s.dialogSig = make(chan struct{})
	s.track = tracker{changed: make(chan struct{})}
	s.observedSince = time.Time{}
	s.mutTimes = nil
	s.model, s.buffering, s.buffered = nil, false, nil
	s.watched = map[string]bool{}
	s.mu.Unlock()

	s.forward(pctx, p, eventsWatched, func(method string, raw json.RawMessage) { s.onEvent(p, p, method, raw) })
	s.forwardOrdered(pctx, p, pageEvents, func(method string, raw json.RawMessage) { s.onEvent(p, p, method, raw) })
	s.watchOpens(pctx, p)

	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		select {
		case <-p.Done():
			s.lost(p, "the page's connection closed") // ends pctx, and so the subscriptions
		case <-pctx.Done():
		}
	}()

	// Domains: Page for navigation and dialog events, DOM for mutations.
	// Failures here surface on the first real call.
	ctx, cancel := context.WithTimeout(pctx, s.cfg.CallTimeout)
	defer cancel()
	_ = p.Call(ctx, "Page.enable", nil, nil)
	_ = p.Call(ctx, "DOM.enable", nil, nil)
	s.watchNetwork(ctx, p, p.TargetID(), p)
	s.watchConsole(ctx, p, p)
	s.recordFlashes(ctx, p)
	s.applyViewport(ctx, p)
	s.noteLoading(ctx, p)
	s.followModel(p, pctx)
	s.events.send(dom.Event{Kind: "state", State: dom.Connected})
}

// noteLoading counts a load in progress when attaching, so the first
// capture waits for it. A tab found again in a restarted browser is
// often still loading, and its start happened before our events were on.
// A parsed document ("interactive") is not waited for: its DOM is there,
// and a stalled image would hold the first view for NavigationTimeout.
func (s *Service) noteLoading(ctx context.Context, p dom.Page) {
	s.mu.Lock()
	loaded, parsed := s.track.loaded, s.track.parsed
	s.mu.Unlock()
	var r struct {
		Result struct {
			Value string `json:"value"`
		} `json:"result"`
	}
	// briefly: an open dialog blocks evaluation, and attaching must not wait on it
	c, cancel := context.WithTimeout(ctx, time.Second)
	err := p.Call(c, "Runtime.evaluate", map[string]any{"expression": "document.readyState", "returnByValue": true}, &r)
	cancel()
	if err != nil {
		return
	}
	s.mu.Lock()
	if r.Result.Value != "loading" {
		if s.page == p && s.track.navStarted == 0 {
			// Parsed before we came: at no known time, so long ago.
			s.track.docParsed, s.track.parsedNav, s.track.parsedAt = true, 0, time.Time{}
		}
		s.mu.Unlock()
		return
	}
	// A parse or load event since the question means it is done already.
	if s.page == p && s.track.loaded == loaded && s.track.parsed == parsed {
		s.track.navStarted++
	}
	s.mu.Unlock()
}

// onEvent updates the service from one CDP event of page p.
func (s *Service) onEvent(p dom.Page, from dom.Session, method string, raw json.RawMessage) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.page != p {
		return // an event from a page we already left
	}
	t := &s.track
	notify := func() {
		close(t.changed)
		t.changed = make(chan struct{})
	}
	mainFrame := p.TargetID()
	switch method {
	case "DOM.documentUpdated":
		t.mutations++
		t.lastChange = time.Now()
		s.noteMutationLocked(t.lastChange)
		s.noteForeignLocked(t.lastChange)
		s.invalidateLocked()
	case "Page.frameNavigated":
		var ev struct {
			Frame struct {
				ID       string `json:"id"`
				ParentID string `json:"parentId"`
				URL      string `json:"url"`
			} `json:"frame"`
		}
		if json.Unmarshal(raw, &ev) != nil || ev.Frame.ParentID != "" {
			return
		}
		t.navigated++
		t.docParsed, t.docAsked = false, false // a new document
		t.url = ev.Frame.URL
		t.lastChange = time.Now()
		s.invalidateLocked()
		s.events.send(dom.Event{Kind: "navigated", URL: urls.Safe(ev.Frame.URL)})
	case "Page.navigatedWithinDocument":
		var ev struct {
			FrameID string `json:"frameId"`
			URL     string `json:"url"`
		}
		if json.Unmarshal(raw, &ev) != nil || ev.FrameID != mainFrame {
			return
		}
		t.url = ev.URL
		if t.docParsed && !t.docAsked {
			// The same document, and no other on its way: a load that
			// started for this navigation has nothing to parse (back
			// across a fragment while the page still loads).
			t.parsedNav = t.navStarted
		}
		s.events.send(dom.Event{Kind: "navigated", URL: urls.Safe(ev.URL)})
	case "Page.frameStartedLoading", "Page.frameStoppedLoading":
		var ev struct {
			FrameID string `json:"frameId"`
		}
		if json.Unmarshal(raw, &ev) != nil || ev.FrameID != mainFrame {
			return
		}
		if method == "Page.frameStartedLoading" {
			t.navStarted++
		} else if t.stopped < t.navStarted {
			t.stopped++ // clamped: a load event may have settled it already
		}
	case "Network.requestWillBeSent":
		var ev struct {
			FrameID string `json:"frameId"`
			Type    string `json:"type"`
		}
		if json.Unmarshal(raw, &ev) != nil || ev.Type != "Document" || ev.FrameID != mainFrame {
			return
		}
		t.docAsked = true
	case "Page.domContentEventFired":
		t.parsed++
		t.docParsed, t.parsedNav, t.parsedAt = true, t.navStarted, time.Now()
	case "Page.loadEventFired":
		t.loaded++
		// The main document loaded: whatever stop events went missing,
		// nothing is loading now.
		if t.stopped < t.navStarted {
			t.stopped = t.navStarted
		}
		s.events.send(dom.Event{Kind: "loaded"})
	case "Page.javascriptDialogOpening":
		var ev struct {
			Message       string `json:"message"`
			Type          string `json:"type"`
			DefaultPrompt string `json:"defaultPrompt"`
		}
		_ = json.Unmarshal(raw, &ev)
		d := &dom.DialogInfo{Type: ev.Type, Message: ev.Message, DefaultPrompt: ev.DefaultPrompt}
		if s.dialog == nil {
			close(s.dialogSig) // closed exactly while a dialog is open
		}
		s.dialog = d
		s.dialogSess = from
		s.events.send(dom.Event{Kind: "dialog", Dialog: d})
	case "Page.javascriptDialogClosed":
		if s.dialog != nil {
			s.dialog = nil
			s.dialogSig = make(chan struct{})
		}
		s.invalidateLocked()
		s.events.send(dom.Event{Kind: "dialog-closed"})
	case "Inspector.detached", "Inspector.targetCrashed":
		go s.lost(p, method)
		return
	default: // DOM mutations
		t.mutations++
		t.lastChange = time.Now()
		s.noteMutationLocked(t.lastChange)
		s.noteForeignLocked(t.lastChange)
	}
	notify()
}

// lost handles the loss of page p: NOT_ATTACHED from now on, and a bounded
// reconnect when the config has a hook.
func (s *Service) lost(p dom.Page, why string) {
	s.mu.Lock()
	if s.page != p || s.closed {
		s.mu.Unlock()
		return
	}
	s.pageStop()
	s.current = nil
	if s.dialog != nil {
		s.dialog = nil
		s.dialogSig = make(chan struct{})
	}
	s.gen++
	lostTab := dom.TargetInfo{ID: p.TargetID(), Type: "page"}
	if s.last != nil {
		lostTab.URL, lostTab.Title = s.last.URL, s.last.Title
	}
	if s.track.url != "" {
		lostTab.URL = s.track.url // navigated since the last snapshot
	}
	reconnect := s.cfg.Reconnect
	if reconnect != nil {
		s.state = dom.Reconnecting
	} else {
		s.state = dom.Disconnected
		s.page = nil
	}
	state := s.state
	s.mu.Unlock()
	s.events.send(dom.Event{Kind: "invalidated"})
	s.events.send(dom.Event{Kind: "state", State: state, Err: dom.Errorf(dom.NotAttached, nil, "%s", why)})
	if reconnect == nil {
		return
	}
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		s.reconnect(reconnect, lostTab)
	}()
}

// Backoff between reconnect attempts: doubling from the first, capped.
const (
	reconnectFirstWait = 250 * time.Millisecond
	reconnectMaxWait   = 5 * time.Second
	// reconnectNotFound is how many answers "no such tab" end the
	// attempts when no ReconnectWithin is set. A restarted browser
	// restores its tabs within a second or two, more under load.
	reconnectNotFound = 3
	reconnectGrace    = time.Second
)

// reconnect tries the hook with capped exponential backoff to get the
// lost tab back: until ReconnectWithin has passed when it is set, else a
// bounded number of times. The old page is left to its connection's
// owner: detaching it could close a tab this program opened.
func (s *Service) reconnect(hook func(ctx context.Context, lost dom.TargetInfo) (dom.Page, error), lost dom.TargetInfo) {
	wait := reconnectFirstWait
	var lastErr error
	notFound, tries := 0, 0
	within := s.cfg.ReconnectWithin
	deadline := time.Now().Add(within)
	more := func(i int) bool {
		if within > 0 {
			return i == 0 || time.Now().Add(wait).Before(deadline)
		}
		return i < s.cfg.ReconnectAttempts && notFound < reconnectNotFound
	}
	for i := 0; more(i); i++ {
		select {
		case <-time.After(wait):
		case <-s.ctx.Done():
			return
		}
		wait = min(2*wait, reconnectMaxWait)
		tries++
		ctx, cancel := context.WithTimeout(s.ctx, s.cfg.CallTimeout)
		p, err := hook(ctx, lost)
		cancel()
		if err == nil && p != nil {
			s.attach(p)
			return
		}
		lastErr = err
		if dom.CodeOf(err) == dom.TargetNotFound {
			if notFound == 0 {
				// the browser answers: its tabs come back within seconds
				wait = reconnectGrace
			}
			notFound++
			if within > 0 && notFound == reconnectNotFound {
				// Still trying, but a person need not wait for it: the UI
				// offers the tabs the browser has now.
				s.events.send(dom.Event{Kind: "state", State: dom.Reconnecting, Err: backWithout(lost, err)})
			}
		} else {
			notFound = 0
		}
	}
	s.mu.Lock()
	s.state = dom.Disconnected
	s.page = nil
	s.mu.Unlock()
	if notFound > 0 && dom.CodeOf(lastErr) == dom.TargetNotFound {
		s.events.send(dom.Event{Kind: "state", State: dom.Disconnected, Err: backWithout(lost, lastErr)})
		return
	}
	s.events.send(dom.Event{Kind: "state", State: dom.Disconnected, Err: dom.Errorf(dom.NotAttached, lastErr, "could not reconnect after %d attempts", tries)})
}

// backWithout says the browser answers, but without the lost tab.
func backWithout(lost dom.TargetInfo, err error) error {
	return dom.Errorf(dom.TargetNotFound, err, "the browser is back but the tab is not (no tab %s, none at %s): pick another", lost.ID, urls.Safe(lost.URL))
}

// watchFrame follows the dialogs of an out-of-process frame: they are
// reported on the frame's own target, and handled there. Once per frame
// target per page; the subscriptions end with the page.
func (s *Service) watchFrame(ctx context.Context, p dom.Page, targetID string, fs dom.Session) {
	if targetID == "" || targetID == p.TargetID() {
		return // the page's own events are followed from attach
	}
	s.mu.Lock()
	if s.page != p || s.watched[targetID] {
		s.mu.Unlock()
		return
	}
	s.watched[targetID] = true
	pctx := s.pageCtx
	s.mu.Unlock()
	s.forwardOrdered(pctx, fs, dialogEvents, func(method string, raw json.RawMessage) { s.onEvent(p, fs, method, raw) })
	_ = s.call(ctx, fs, "Page.enable", nil, nil)
	s.watchNetwork(ctx, p, targetID, fs)
	s.watchConsole(ctx, p, fs)
}

// forward delivers the events of methods from sess to on, until pctx
// ends (the page is left). Each method gets one goroutine of the
// service's group. Each subscription ends with its goroutine.
func (s *Service) forward(pctx context.Context, sess dom.Session, methods []string, on func(method string, raw json.RawMessage)) {
	for _, m := range methods {
		ch, cancel := sess.Subscribe(m)
		s.wg.Add(1)
		go func(method string) {
			defer s.wg.Done()
			defer cancel()
			for {
				select {
				case raw, ok := <-ch:
					if !ok {
						return
					}
					on(method, raw)
				case <-pctx.Done():
					return
				}
			}
		}(m)
	}
}
