package live

import (
	"context"
	"encoding/json"
	"sort"
	"sync"
	"time"

	"domscope/dom"
	"domscope/dom/urls"
)

// netLog records the requests an action starts, from the Network domain
// events of the page and of the out-of-process frames the service follows.
// It records only while an action runs (begin to end). It keeps only a
// request's method, redacted URL, type, status and timing. The events
// are decoded into structs without headers, cookies, post data or
// bodies, so none of those is ever held.
//
// Each event method arrives on its own subscription. So the events of one
// request can be seen out of order: a response may come before the request
// it answers. They are kept per request id and matched up by the browser's
// timestamps when the action ends.
type netLog struct {
	mu    sync.Mutex
	armed bool
	reqs  map[string]*netReq // by session + request id
	order []*netReq
	hops  int
}

// maxNetworkListed bounds the requests one ActionResult lists.
const maxNetworkListed = 200

// netReq is one request id: its hops (the request and each redirect) and
// what the browser said about their ends.
type netReq struct {
	hops []*netHop
	ends []netEnd
}

type netHop struct {
	start  float64 // browser timestamp, seconds
	recv   time.Time
	method string
	url    string
	typ    string
	// redirect is the status of the redirect that ended this hop.
	redirect int
}

type netEnd struct {
	ts     float64
	status int    // responseReceived
	done   bool   // loadingFinished or loadingFailed
	failed string // loadingFailed: the error text ("net::ERR_…", or "canceled")
	typ    string
}

// networkEvents are the Network domain events the log follows.
var networkEvents = []string{
	"Network.requestWillBeSent", "Network.responseReceived",
	"Network.loadingFinished", "Network.loadingFailed",
}

// begin starts recording for an action, forgetting what came before.
func (l *netLog) begin() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.armed = true
	l.reqs = map[string]*netReq{}
	l.order = nil
	l.hops = 0
}

// networkGrace is how long, after the page settled, an action waits for
// the requests it started to finish. A response that is on its way is
// worth a moment. A long poll is not; it is listed as pending.
const networkGrace = 500 * time.Millisecond

// documentGrace is the longer wait for a document whose response came:
// the page it navigated to is loading its body. A loaded machine can
// take longer than networkGrace for the last of it.
const documentGrace = 5 * time.Second

// settleNetwork waits (at most networkGrace) for the action's requests to
// finish, then lists them in res.
func (s *Service) settleNetwork(ctx context.Context, res *dom.ActionResult) {
	start := time.Now()
	for {
		open, documents := s.net.inFlight()
		waited := time.Since(start)
		if !open || waited >= documentGrace || (waited >= networkGrace && !documents) {
			break
		}
		select {
		case <-time.After(10 * time.Millisecond):
		case <-ctx.Done():
			s.listNetwork(res)
			return
		}
	}
	s.listNetwork(res)
}

// inFlight reports whether a request started since begin has not ended.
// documents is true when every open one is a document whose response
// came.
func (l *netLog) inFlight() (open, documents bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	documents = true
	for _, r := range l.order {
		left, answered := 0, false
		for _, h := range r.hops {
			if h.redirect == 0 {
				left++
			}
		}
		for _, e := range r.ends {
			if e.done {
				left--
			} else if e.status != 0 && e.typ == "Document" {
				answered = true
			}
		}
		if left > 0 {
			open = true
			documents = documents && answered
		}
	}
	return open, open && documents
}

// listNetwork puts the requests of the action into res once, when the page
// has settled (or the action ended early). Later calls leave it.
func (s *Service) listNetwork(res *dom.ActionResult) {
	if reqs, ok := s.net.end(); ok {
		res.Network = reqs
	}
}

// end stops recording and lists the requests started since begin, in the
// order they started. ok is false when it was not recording.
func (l *netLog) end() (_ []dom.NetworkRequest, ok bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.armed {
		return nil, false
	}
	l.armed = false
	now := time.Now()
	var out []dom.NetworkRequest
	var all []listedReq
	for _, r := range l.order {
		all = append(all, r.resolve(now)...)
	}
	sort.SliceStable(all, func(i, j int) bool { return all[i].recv.Before(all[j].recv) })
	for _, a := range all {
		out = append(out, a.req)
	}
	l.reqs, l.order = nil, nil
	return out, true
}

// listedReq is one hop as listed, with when it was seen (to sort by).
type listedReq struct {
	recv time.Time
	req  dom.NetworkRequest
}

// resolve matches each end to the hop it closes: the last one that began
// at or before it. It returns the hops as listed requests.
func (r *netReq) resolve(now time.Time) []listedReq {
	if len(r.hops) == 0 {
		return nil // began before the action: not one of its requests
	}
	sort.SliceStable(r.hops, func(i, j int) bool { return r.hops[i].start < r.hops[j].start })
	type state struct {
		status int
		end    float64
		done   bool
		failed string
		typ    string
	}
	st := make([]state, len(r.hops))
	for i, h := range r.hops {
		if h.redirect != 0 {
			st[i].status, st[i].done = h.redirect, true
			if i+1 < len(r.hops) {
				st[i].end = r.hops[i+1].start
			}
		}
	}
	for _, e := range r.ends {
		i := sort.Search(len(r.hops), func(i int) bool { return r.hops[i].start > e.ts }) - 1
		if i < 0 {
			i = 0 // clocks that disagree by a hair: the first hop
		}
		if e.status != 0 {
			st[i].status = e.status
		}
		if e.typ != "" {
			st[i].typ = e.typ
		}
		if e.done {
			st[i].done, st[i].end, st[i].failed = true, e.ts, e.failed
		}
	}
	out := make([]listedReq, 0, len(r.hops))
	for i, h := range r.hops {
		q := dom.NetworkRequest{Method: h.method, URL: h.url, Status: st[i].status, Type: h.typ}
		if q.Type == "" {
			q.Type = st[i].typ
		}
		switch {
		case st[i].failed != "":
			q.Failed, q.Error = true, st[i].failed
			q.Ms = msBetween(h.start, st[i].end)
		case st[i].done:
			q.Ms = msBetween(h.start, st[i].end)
		default:
			q.Pending = true
			q.Ms = roundMs(now.Sub(h.recv))
		}
		out = append(out, listedReq{h.recv, q})
	}
	return out
}

func msBetween(start, end float64) float64 {
	if end < start {
		return 0
	}
	return float64(int64((end-start)*1e6)) / 1000
}

func roundMs(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// The fields the log reads of each event: nothing else is decoded.
type (
	netRequestEvent struct {
		RequestID string  `json:"requestId"`
		Timestamp float64 `json:"timestamp"`
		Type      string  `json:"type"`
		Request   struct {
			Method string `json:"method"`
			URL    string `json:"url"`
		} `json:"request"`
		RedirectResponse *struct {
			Status int `json:"status"`
		} `json:"redirectResponse"`
	}
	netResponseEvent struct {
		RequestID string  `json:"requestId"`
		Timestamp float64 `json:"timestamp"`
		Type      string  `json:"type"`
		Response  struct {
			Status int `json:"status"`
		} `json:"response"`
	}
	netEndEvent struct {
		RequestID string  `json:"requestId"`
		Timestamp float64 `json:"timestamp"`
		Type      string  `json:"type"`
		ErrorText string  `json:"errorText"`
		Canceled  bool    `json:"canceled"`
	}
)

// on records one Network event of the session named key.
func (l *netLog) on(key, method string, raw json.RawMessage) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.armed {
		return
	}
	switch method {
	case "Network.requestWillBeSent":
		var ev netRequestEvent
		if json.Unmarshal(raw, &ev) != nil || ev.RequestID == "" {
			return
		}
		r := l.req(key + "/" + ev.RequestID)
		if ev.RedirectResponse != nil {
			// The hop before this one ended in a redirect.
			for i := len(r.hops) - 1; i >= 0; i-- {
				if r.hops[i].start <= ev.Timestamp && r.hops[i].redirect == 0 {
					r.hops[i].redirect = max(ev.RedirectResponse.Status, 1)
					break
				}
			}
		}
		if l.hops >= maxNetworkListed {
			return
		}
		l.hops++
		r.hops = append(r.hops, &netHop{start: ev.Timestamp, recv: time.Now(), method: ev.Request.Method, url: urls.Redact(ev.Request.URL), typ: ev.Type})
	case "Network.responseReceived":
		var ev netResponseEvent
		if json.Unmarshal(raw, &ev) != nil || ev.RequestID == "" {
			return
		}
		r := l.req(key + "/" + ev.RequestID)
		r.ends = append(r.ends, netEnd{ts: ev.Timestamp, status: ev.Response.Status, typ: ev.Type})
	case "Network.loadingFinished", "Network.loadingFailed":
		var ev netEndEvent
		if json.Unmarshal(raw, &ev) != nil || ev.RequestID == "" {
			return
		}
		e := netEnd{ts: ev.Timestamp, done: true, typ: ev.Type}
		if method == "Network.loadingFailed" {
			e.failed = ev.ErrorText
			if ev.Canceled && e.failed == "" {
				e.failed = "canceled"
			}
			if e.failed == "" {
				e.failed = "failed"
			}
		}
		r := l.req(key + "/" + ev.RequestID)
		r.ends = append(r.ends, e)
	}
}

func (l *netLog) req(key string) *netReq {
	r := l.reqs[key]
	if r == nil {
		r = &netReq{}
		l.reqs[key] = r
		l.order = append(l.order, r)
	}
	return r
}

// watchNetwork follows the Network events of one session (the page, or an
// out-of-process frame) of page p until the page is left. The events are
// enabled with no payload buffers: the log never asks for a body.
func (s *Service) watchNetwork(ctx context.Context, p dom.Page, key string, sess dom.Session) {
	s.mu.Lock()
	pctx := s.pageCtx
	live := s.page == p
	s.mu.Unlock()
	if !live {
		return
	}
	s.forward(pctx, sess, networkEvents, func(method string, raw json.RawMessage) { s.net.on(key, method, raw) })
	_ = sess.Call(ctx, "Network.enable", map[string]any{"maxTotalBufferSize": 0, "maxResourceBufferSize": 0, "maxPostDataSize": 0}, nil)
}
