package cdpconn

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/chromedp/cdproto"
	"github.com/coder/websocket"

	"domscope/dom"
	domtabs "domscope/dom/tabs"
)

// A direct connection serves one short job on a tab that is already open,
// `domscope snapshot`, with the fewest round trips. It attaches with
// Target.attachToTarget alone. chromedp's attach sends eleven more
// commands one after another. They enable Runtime, Log, Network,
// Inspector, Page, DOM and CSS, target discovery and lifecycle events. A
// capture needs none of them. On a cold snapshot of a small page they
// cost about a third of its time. Out-of-process frames are attached the
// same way. It speaks CDP over its own websocket, with no chromedp
// context. Its event loop handles only replies, detach events and what
// Subscribe asks for.

// Direct is a direct connection to a browser (see AttachDirect).
type Direct struct {
	ws     *websocket.Conn
	cancel context.CancelFunc
	nextID atomic.Int64

	mu    sync.Mutex
	calls map[int64]chan directReply
	subs  map[subKey]map[*directSub]struct{}
	// ends holds, per session id, a channel closed when it detaches.
	// crashed marks the sessions whose renderer crashed.
	ends    map[string]chan struct{}
	crashed map[string]bool
	// failed holds why a session was ended here (its probe failed).
	failed map[string]error
	// pageSocket: the socket is the page's own (/devtools/page/<id>).
	// Its session id is "", and its Inspector events end it.
	pageSocket bool
	closed     bool
	done       chan struct{} // closed when the read loop ends
}

type subKey struct{ session, method string }

type directSub struct {
	in chan json.RawMessage
}

// directReply is a command's result or its error.
type directReply struct {
	result []byte
	err    *cdproto.Error
}

// DirectPage is a page target attached over a direct connection. It
// implements dom.Page. Detach ends the connection and never closes the
// tab.
type DirectPage struct {
	directSession
	c  *Direct
	id string

	mu     sync.Mutex
	frames map[string]directSession // attached out-of-process frames

	// answered is closed when the probe is answered or failed.
	answered   chan struct{}
	probeErr   error
	probeStart time.Time
}

var _ dom.Page = (*DirectPage)(nil)

// directSession is one attached target of a direct connection.
type directSession struct {
	c   *Direct
	sid string
	end <-chan struct{}
}

var _ dom.Session = directSession{}

// AttachDirect connects to the browser at endpoint, as Connect does. It
// attaches to the tab spec names, as domtabs.Pick reads it: through the
// tab's own socket (see OpenDirect), or with Target.getTargets and
// Target.attachToTarget alone. Then it waits for the page's answer to
// one cheap question, so a hung page fails here.
func AttachDirect(ctx context.Context, endpoint string, allowRemote bool, spec string) (*DirectPage, error) {
	p, err := OpenDirect(ctx, endpoint, allowRemote, spec)
	if err != nil {
		return nil, err
	}
	if err := p.Answered(ctx); err != nil {
		_ = p.Detach()
		return nil, err
	}
	return p, nil
}

// OpenDirect is AttachDirect that does not wait for the page's first
// answer. Calls can go at once, behind the probe. A page that does not
// answer it in time has its session ended with AttachDirect's error:
// calls fail with it, and Answered returns it.
//
// A target id on a DevTools endpoint (http://host:port or Chrome's
// ws://host:port/devtools/browser/<id>) is opened through the tab's own
// socket, /devtools/page/<id>. That needs no /json/version and no
// attach. If that socket will not open or is no tab's, the tab is
// listed and attached the usual way, which says what is wrong.
func OpenDirect(ctx context.Context, endpoint string, allowRemote bool, spec string) (*DirectPage, error) {
	if targetIDLike(spec) {
		if u, ok := pageSocketURL(endpoint, allowRemote, spec); ok {
			if p, err := openPageSocket(ctx, u, spec); err == nil {
				return p, nil
			}
		}
	}
	wsURL, err := resolveEndpoint(ctx, endpoint, allowRemote)
	if err != nil {
		return nil, hideSecrets(err, endpoint)
	}
	c, err := dialDirect(ctx, wsURL)
	if err != nil {
		// A farm's URL holds its token: no error repeats it.
		return nil, hideSecrets(err, endpoint, wsURL)
	}
	p, err := c.attachPage(ctx, spec)
	if err != nil {
		c.Close()
		return nil, hideSecrets(err, endpoint, wsURL)
	}
	return p, nil
}

// attachPage picks the tab and attaches to it.
func (c *Direct) attachPage(ctx context.Context, spec string) (*DirectPage, error) {
	actx, cancel := context.WithTimeout(ctx, attachTimeout)
	defer cancel()
	// A spec that is a target id is attached to while the tabs are
	// listed. That saves one round trip. The session is kept only if the
	// list says that id is a tab domtabs.Pick picks.
	var early struct {
		sid  string
		err  error
		done chan struct{}
	}
	if targetIDLike(spec) {
		early.done = make(chan struct{})
		go func() {
			defer close(early.done)
			early.sid, early.err = c.attach(actx, spec)
		}()
	}
	tabs, err := c.pages(actx)
	var t dom.TargetInfo
	if err == nil {
		t, err = domtabs.Pick(tabs, spec)
	}
	sid := ""
	if early.done != nil {
		<-early.done
		if early.err == nil && err == nil && t.ID == spec {
			sid = early.sid
		} else if early.err == nil {
			c.detach(actx, early.sid)
		}
	}
	if err != nil {
		return nil, err
	}
	if sid == "" {
		if sid, err = c.attach(actx, t.ID); err != nil {
			return nil, dom.Errorf(dom.AttachFailed, err, "cannot attach to target %s", t.ID)
		}
	}
	p := &DirectPage{c: c, id: t.ID, frames: map[string]directSession{}}
	p.directSession = c.session(sid)
	p.probe(ctx)
	return p, nil
}

// probe asks the page one cheap question, in the background. A hung
// renderer is then an attach that failed, said at once, not a capture
// that times out. ctx bounds it, with attachTimeout.
func (p *DirectPage) probe(ctx context.Context) {
	p.answered = make(chan struct{})
	ctx, cancel := context.WithTimeout(ctx, attachTimeout)
	start := time.Now()
	p.probeStart = start
	done := make(chan error, 1)
	go func() {
		done <- p.Call(ctx, pageProbeCall, map[string]any{"expression": "0"}, nil)
	}()
	go func() {
		defer cancel()
		defer close(p.answered)
		err := <-done
		if err == nil {
			return
		}
		if dom.CodeOf(err) == dom.Timeout {
			err = notAnswering(dom.AttachFailed, "page "+p.id, pageProbeCall, time.Since(start), nil)
		} else {
			err = dom.Errorf(dom.AttachFailed, err, "cannot attach to target %s", p.id)
		}
		p.probeErr = err
		p.c.fail(p.sid, err)
	}()
}

// Answered waits for the page's answer to the probe OpenDirect sent. It
// is the error AttachDirect gives when there was none.
func (p *DirectPage) Answered(ctx context.Context) error {
	select {
	case <-p.answered:
		return p.probeErr
	default:
	}
	select {
	case <-p.answered:
		return p.probeErr
	case <-ctx.Done():
		return notAnswering(dom.AttachFailed, "page "+p.id, pageProbeCall, time.Since(p.probeStart), nil)
	}
}

// targetIDLike reports whether spec has the form of Chrome's target ids:
// 32 hex digits, upper case.
func targetIDLike(spec string) bool {
	if len(spec) != 32 {
		return false
	}
	for _, r := range spec {
		if (r < '0' || r > '9') && (r < 'A' || r > 'F') {
			return false
		}
	}
	return true
}

// detach ends a session this connection attached and no longer wants.
func (c *Direct) detach(ctx context.Context, sid string) {
	_, _ = c.call(ctx, "", "Target.detachFromTarget", map[string]any{"sessionId": sid}, nil)
}

// pageProbeCall is the first call a direct connection sends to a page.
const pageProbeCall = "Runtime.evaluate"

// dialDirect opens the websocket and starts reading it.
func dialDirect(ctx context.Context, wsURL string) (*Direct, error) {
	dctx, dcancel := context.WithTimeout(ctx, dialTimeout)
	defer dcancel()
	ws, resp, err := websocket.Dial(dctx, wsURL, nil)
	if err != nil {
		if resp != nil && refused(resp.StatusCode) {
			// said as Connect says it
			err = fmt.Errorf("the endpoint refused the connection (%s): check the token or key in its URL", resp.Status)
		}
		return nil, dom.Errorf(dom.AttachFailed, err, "cannot connect to the browser at %s", Redact(wsURL))
	}
	// Chrome sends a whole reply as one message: tens of MB on big pages.
	ws.SetReadLimit(-1)
	rctx, cancel := context.WithCancel(context.Background())
	c := &Direct{ws: ws, cancel: cancel, calls: map[int64]chan directReply{},
		subs: map[subKey]map[*directSub]struct{}{}, ends: map[string]chan struct{}{}, crashed: map[string]bool{}, failed: map[string]error{}, done: make(chan struct{})}
	go c.read(rctx)
	return c, nil
}

// Close ends the connection at once; the browser detaches its sessions.
// Calls in flight fail with NOT_ATTACHED.
func (c *Direct) Close() {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return
	}
	c.closed = true
	c.mu.Unlock()
	c.cancel()
	_ = c.ws.CloseNow()
	<-c.done
}

// read delivers replies to their callers and events to subscribers, until
// the connection ends.
func (c *Direct) read(ctx context.Context) {
	defer func() {
		c.mu.Lock()
		c.closed = true
		for id, ch := range c.calls {
			close(ch)
			delete(c.calls, id)
		}
		for k, set := range c.subs {
			for s := range set {
				close(s.in)
			}
			delete(c.subs, k)
		}
		for sid, ch := range c.ends {
			close(ch)
			delete(c.ends, sid)
		}
		c.mu.Unlock()
		close(c.done)
	}()
	for {
		typ, r, err := c.ws.Reader(ctx)
		if err != nil {
			return
		}
		data, err := readExact(r)
		if err != nil || typ != websocket.MessageText {
			return
		}
		if id, _, result, ok := quickReply(data); ok {
			c.reply(id, directReply{result: result})
			continue
		}
		var m struct {
			ID        int64           `json:"id"`
			SessionID string          `json:"sessionId"`
			Method    string          `json:"method"`
			Params    json.RawMessage `json:"params"`
			Result    json.RawMessage `json:"result"`
			Error     *cdproto.Error  `json:"error"`
		}
		if json.Unmarshal(data, &m) != nil {
			continue
		}
		if m.ID != 0 {
			c.reply(m.ID, directReply{result: m.Result, err: m.Error})
			continue
		}
		c.event(m.SessionID, m.Method, m.Params)
	}
}

func (c *Direct) reply(id int64, r directReply) {
	c.mu.Lock()
	ch := c.calls[id]
	delete(c.calls, id)
	c.mu.Unlock()
	if ch != nil {
		ch <- r // buffered: the caller may have given up
	}
}

// event ends a session that detached or crashed, and hands the event to
// its subscribers.
func (c *Direct) event(sid, method string, params json.RawMessage) {
	c.mu.Lock()
	defer c.mu.Unlock()
	ended, isEnd := "", false
	switch method {
	case "Target.detachedFromTarget":
		var p struct {
			SessionID string `json:"sessionId"`
		}
		_ = json.Unmarshal(params, &p)
		ended, isEnd = p.SessionID, p.SessionID != ""
	case "Inspector.detached":
		ended, isEnd = sid, sid != "" || c.pageSocket
	case "Inspector.targetCrashed":
		ended, isEnd = sid, sid != "" || c.pageSocket
		c.crashed[sid] = true
	}
	if ch, ok := c.ends[ended]; ok && isEnd {
		close(ch)
		delete(c.ends, ended)
	}
	for s := range c.subs[subKey{sid, method}] {
		s.in <- params // an unbounded relay reads it (see subscribe)
	}
}

// call sends one command (sid "" for the browser) and waits for its reply.
func (c *Direct) call(ctx context.Context, sid, method string, params any, end <-chan struct{}) ([]byte, error) {
	return c.callSent(ctx, sid, method, params, end, nil)
}

// callSent is call. sent, if not nil, runs once the command is written
// (or could not be).
func (c *Direct) callSent(ctx context.Context, sid, method string, params any, end <-chan struct{}, sent func()) ([]byte, error) {
	if sent != nil {
		var once sync.Once
		f := sent
		sent = func() { once.Do(f) }
		defer sent() // a command that never left must not hold up the next
	}
	var p []byte
	switch v := params.(type) {
	case nil:
	case json.RawMessage:
		p = v
	case []byte:
		p = v
	default:
		b, err := json.Marshal(params)
		if err != nil {
			return nil, dom.Errorf(dom.ValidationError, err, "%s: bad parameters", method)
		}
		p = b
	}
	id := c.nextID.Add(1)
	var msg bytes.Buffer
	msg.WriteString(`{"id":`)
	msg.WriteString(strconv.FormatInt(id, 10))
	msg.WriteString(`,"method":`)
	mq, _ := json.Marshal(method)
	msg.Write(mq)
	if sid != "" {
		msg.WriteString(`,"sessionId":`)
		sq, _ := json.Marshal(sid)
		msg.Write(sq)
	}
	if p != nil {
		msg.WriteString(`,"params":`)
		msg.Write(p)
	}
	msg.WriteByte('}')
	ch := make(chan directReply, 1)
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return nil, dom.Errorf(dom.NotAttached, nil, "%s: the connection to the browser is closed", method)
	}
	c.calls[id] = ch
	c.mu.Unlock()
	forget := func() {
		c.mu.Lock()
		delete(c.calls, id)
		c.mu.Unlock()
	}
	ctx, cancel := withDefaultTimeout(ctx, callTimeout)
	defer cancel()
	start := time.Now()
	err := c.ws.Write(ctx, websocket.MessageText, msg.Bytes())
	if sent != nil {
		sent()
	}
	if err != nil {
		forget()
		if ctx.Err() != nil {
			return nil, notAnswering(dom.Timeout, "the browser", method, time.Since(start), nil)
		}
		return nil, dom.Errorf(dom.NotAttached, err, "%s: the connection to the browser was lost", method)
	}
	select {
	case r, ok := <-ch:
		if !ok {
			return nil, dom.Errorf(dom.NotAttached, nil, "%s: the connection to the browser was lost", method)
		}
		if r.err != nil {
			return nil, wrapErr(r.err, method)
		}
		return r.result, nil
	case <-end:
		forget()
		return nil, c.ended(sid, method)
	case <-ctx.Done():
		forget()
		who := "the page"
		if sid == "" && !c.pageSocket {
			who = "the browser"
		}
		return nil, notAnswering(dom.Timeout, who, method, time.Since(start), nil)
	}
}

// ended is the error of a call on a session that ended.
func (c *Direct) ended(sid, method string) error {
	c.mu.Lock()
	crashed, failed := c.crashed[sid], c.failed[sid]
	c.mu.Unlock()
	if failed != nil {
		return failed
	}
	if crashed {
		return dom.Errorf(dom.NotAttached, nil, "%s: the page crashed (its renderer is gone): reload the tab or pick another", method)
	}
	return dom.Errorf(dom.NotAttached, nil, "%s: the target went away (tab closed, crashed or detached)", method)
}

// fail ends a session for err: its calls return err from now on.
func (c *Direct) fail(sid string, err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.failed[sid] = err
	if ch, ok := c.ends[sid]; ok {
		close(ch)
		delete(c.ends, sid)
	}
}

// session makes the handle of an attached session.
func (c *Direct) session(sid string) directSession {
	c.mu.Lock()
	defer c.mu.Unlock()
	ch := c.ends[sid]
	if ch == nil {
		ch = make(chan struct{})
		if c.closed {
			close(ch)
		} else {
			c.ends[sid] = ch
		}
	}
	return directSession{c: c, sid: sid, end: ch}
}

// targetInfo is what Target.getTargets says of one target.
type targetInfo struct {
	TargetID string `json:"targetId"`
	Type     string `json:"type"`
	Title    string `json:"title"`
	URL      string `json:"url"`
	Attached bool   `json:"attached"`
	ParentID string `json:"parentId"`
}

// targetInfos lists every target of the browser.
func (c *Direct) targetInfos(ctx context.Context) ([]targetInfo, error) {
	var res struct {
		TargetInfos []targetInfo `json:"targetInfos"`
	}
	b, err := c.call(ctx, "", "Target.getTargets", nil, nil)
	if err == nil {
		err = json.Unmarshal(b, &res)
	}
	if err != nil {
		return nil, wrapErr(err, "listing targets")
	}
	return res.TargetInfos, nil
}

// pages lists the page targets (tabs), as Browser.Targets does.
func (c *Direct) pages(ctx context.Context) ([]dom.TargetInfo, error) {
	infos, err := c.targetInfos(ctx)
	if err != nil {
		return nil, err
	}
	var out []dom.TargetInfo
	for _, ti := range infos {
		if !isTab(ti.Type, ti.URL) {
			continue
		}
		out = append(out, dom.TargetInfo{ID: ti.TargetID, Type: ti.Type, Title: ti.Title, URL: ti.URL, Attached: ti.Attached})
	}
	return out, nil
}

// attach attaches to a target in flat mode and returns its session id.
func (c *Direct) attach(ctx context.Context, targetID string) (string, error) {
	b, err := c.call(ctx, "", "Target.attachToTarget", map[string]any{"targetId": targetID, "flatten": true}, nil)
	if err != nil {
		return "", err
	}
	var res struct {
		SessionID string `json:"sessionId"`
	}
	if err := json.Unmarshal(b, &res); err != nil || res.SessionID == "" {
		return "", dom.Errorf(dom.AttachFailed, err, "Target.attachToTarget gave no session")
	}
	return res.SessionID, nil
}

// Call sends method to the session's target and decodes the reply into
// result. A *json.RawMessage keeps the bytes as they came.
func (s directSession) Call(ctx context.Context, method string, params, result any) error {
	return s.CallSent(ctx, method, params, result, nil)
}

// CallSent is Call. sent, if not nil, runs once the command is written.
// A capture uses it to send its reads in the order the renderer is to
// serve them.
func (s directSession) CallSent(ctx context.Context, method string, params, result any, sent func()) error {
	select {
	case <-s.end:
		if sent != nil {
			sent()
		}
		return s.c.ended(s.sid, method)
	default:
	}
	b, err := s.c.callSent(ctx, s.sid, method, params, s.end, sent)
	if err != nil {
		return err
	}
	return decodeResult(method, b, result)
}

// Subscribe buffers the events of method on this session from now on.
// cancel stops it and closes the channel. The buffer has no limit, so a
// slow reader never blocks the connection.
func (s directSession) Subscribe(method string) (<-chan json.RawMessage, func()) {
	sub := &directSub{in: make(chan json.RawMessage, 64)}
	k := subKey{s.sid, method}
	s.c.mu.Lock()
	if s.c.closed {
		close(sub.in)
	} else {
		if s.c.subs[k] == nil {
			s.c.subs[k] = map[*directSub]struct{}{}
		}
		s.c.subs[k][sub] = struct{}{}
	}
	s.c.mu.Unlock()
	out := make(chan json.RawMessage)
	stop := make(chan struct{})
	go relay(sub.in, out, stop)
	var once sync.Once
	return out, func() {
		once.Do(func() {
			s.c.mu.Lock()
			if set := s.c.subs[k]; set != nil {
				if _, ok := set[sub]; ok {
					delete(set, sub)
					close(sub.in)
				}
			}
			s.c.mu.Unlock()
			close(stop)
		})
	}
}

// relay moves events from in to out through a queue without limit. So
// the read loop never waits on a subscriber. out closes when in does or
// stop is closed.
func relay(in <-chan json.RawMessage, out chan<- json.RawMessage, stop <-chan struct{}) {
	defer close(out)
	var queue []json.RawMessage
	for {
		var send chan<- json.RawMessage
		var next json.RawMessage
		if len(queue) > 0 {
			send, next = out, queue[0]
		}
		select {
		case v, ok := <-in:
			if !ok {
				for _, v := range queue {
					select {
					case out <- v:
					case <-stop:
						return
					}
				}
				return
			}
			queue = append(queue, v)
		case send <- next:
			queue = queue[1:]
		case <-stop:
			return
		}
	}
}

// TargetID is the page's target id.
func (p *DirectPage) TargetID() string { return p.id }

// Done is closed when the page's session ends. The tab closed or
// crashed, the browser went away, or Detach was called.
func (p *DirectPage) Done() <-chan struct{} { return p.end }

// Frames lists the out-of-process iframe targets inside the page, nested
// ones too. It attaches to new ones, as Page.Frames does.
func (p *DirectPage) Frames(ctx context.Context) ([]dom.FrameTarget, error) {
	select {
	case <-p.end:
		return nil, dom.Errorf(dom.NotAttached, nil, "page %s is no longer attached", p.id)
	default:
	}
	infos, err := p.c.targetInfos(ctx)
	if err != nil {
		return nil, err
	}
	parent := map[string]string{}
	for _, ti := range infos {
		if ti.Type == "iframe" {
			parent[ti.TargetID] = ti.ParentID
		}
	}
	inPage := func(id string) bool { return inside(parent, p.id, id) }
	var out []dom.FrameTarget
	for _, ti := range infos {
		if ti.Type != "iframe" || !inPage(ti.TargetID) {
			continue
		}
		fs, err := p.frame(ctx, ti.TargetID)
		if err != nil {
			continue // gone between listing and attaching
		}
		out = append(out, dom.FrameTarget{TargetID: ti.TargetID, URL: ti.URL, Session: fs, ParentID: ti.ParentID})
	}
	return out, nil
}

func (p *DirectPage) frame(ctx context.Context, id string) (directSession, error) {
	p.mu.Lock()
	fs, ok := p.frames[id]
	p.mu.Unlock()
	if ok {
		select {
		case <-fs.end:
		default:
			return fs, nil
		}
	}
	actx, cancel := withDefaultTimeout(ctx, attachTimeout)
	defer cancel()
	sid, err := p.c.attach(actx, id)
	if err != nil {
		return directSession{}, err
	}
	fs = p.c.session(sid)
	p.mu.Lock()
	p.frames[id] = fs
	p.mu.Unlock()
	return fs, nil
}

// Detach ends the connection; the tab stays open.
func (p *DirectPage) Detach() error {
	p.c.Close()
	return nil
}
