package cdpconn

import (
	"context"
	"encoding/json"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/chromedp/cdproto/cdp/jsonv2"
	cdpdom "github.com/chromedp/cdproto/dom"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"domscope/dom"
)

var (
	_ dom.OrderedEvents = (*Page)(nil)
	_ dom.OrderedEvents = session{} // a frame's session too
	_ dom.EventMarker   = (*Page)(nil)
)

// methodOf names the events SubscribeOrdered can deliver. They are the
// DOM events the live page model follows, the dialog events, and those
// that tell how far a navigation got. An alert may open as the one
// before it closes. It must be seen after that close. A document is
// requested, then committed, then parsed, in that order.
func methodOf(ev any) string {
	switch ev.(type) {
	case *cdpdom.EventDocumentUpdated:
		return "DOM.documentUpdated"
	case *cdpdom.EventSetChildNodes:
		return "DOM.setChildNodes"
	case *cdpdom.EventChildNodeInserted:
		return "DOM.childNodeInserted"
	case *cdpdom.EventChildNodeRemoved:
		return "DOM.childNodeRemoved"
	case *cdpdom.EventAttributeModified:
		return "DOM.attributeModified"
	case *cdpdom.EventAttributeRemoved:
		return "DOM.attributeRemoved"
	case *cdpdom.EventCharacterDataModified:
		return "DOM.characterDataModified"
	case *cdpdom.EventChildNodeCountUpdated:
		return "DOM.childNodeCountUpdated"
	case *cdpdom.EventShadowRootPushed:
		return "DOM.shadowRootPushed"
	case *cdpdom.EventShadowRootPopped:
		return "DOM.shadowRootPopped"
	case *cdpdom.EventPseudoElementAdded:
		return "DOM.pseudoElementAdded"
	case *cdpdom.EventPseudoElementRemoved:
		return "DOM.pseudoElementRemoved"
	case *cdpdom.EventInlineStyleInvalidated:
		return "DOM.inlineStyleInvalidated"
	case *page.EventJavascriptDialogOpening:
		return "Page.javascriptDialogOpening"
	case *page.EventJavascriptDialogClosed:
		return "Page.javascriptDialogClosed"
	case *page.EventFrameNavigated:
		return "Page.frameNavigated"
	case *page.EventFrameStartedLoading:
		return "Page.frameStartedLoading"
	case *page.EventFrameStoppedLoading:
		return "Page.frameStoppedLoading"
	case *page.EventLoadEventFired:
		return "Page.loadEventFired"
	case *page.EventDomContentEventFired:
		return "Page.domContentEventFired"
	case *page.EventNavigatedWithinDocument:
		return "Page.navigatedWithinDocument"
	case *network.EventRequestWillBeSent:
		return "Network.requestWillBeSent"
	case *runtime.EventBindingCalled:
		return "Runtime.bindingCalled" // the live model's flash recorder
	}
	return ""
}

// SubscribeOrdered delivers the session's events of the given methods
// (those methodOf names) in the order Chrome sent them. chromedp calls
// the listener in the loop that reads the tab's messages. It does so
// before it reads the next one. So an event is queued before the reply
// of any later command. The queue has no limit, so the reading loop
// never waits. A stream that asks for dom.MarkEvent also gets the marks
// of MarkOrdered.
func (s session) SubscribeOrdered(methods ...string) (<-chan dom.EventMessage, func()) {
	want := map[string]bool{}
	for _, m := range methods {
		want[m] = true
	}
	out := make(chan dom.EventMessage)
	q := &orderedQueue{wake: make(chan struct{}, 1)}
	done := make(chan struct{})
	lctx, lcancel := context.WithCancel(s.life)
	err := chromedp.Listen(lctx, func(ev any) {
		m := methodOf(ev)
		if m == "" || !want[m] {
			return
		}
		b, err := jsonv2.Marshal(ev)
		if err != nil {
			return
		}
		q.push(dom.EventMessage{Method: m, Params: b, At: time.Now()})
	})
	if want[dom.MarkEvent] {
		marked.add(s.t, q)
	}
	go func() {
		defer close(out)
		for {
			next, have := q.pop()
			if !have {
				select {
				case <-q.wake:
					continue
				case <-done:
					return
				case <-lctx.Done():
					return
				}
			}
			select {
			case out <- next:
			case <-done:
				return
			case <-lctx.Done():
				return
			}
		}
	}()
	var once sync.Once
	stop := func() {
		once.Do(func() {
			marked.remove(s.t, q)
			close(done)
			lcancel()
		})
	}
	if err != nil {
		stop()
	}
	return out, stop
}

// MarkOrdered puts a mark into the session's ordered streams that asked
// for dom.MarkEvent. It goes behind every event the browser sent before
// the last reply this session read. Its Params is the number it returns.
// A reader that reaches it has seen each of those events.
func (s session) MarkOrdered() int64 {
	n := markSeq.Add(1)
	ev := dom.EventMessage{Method: dom.MarkEvent, Params: json.RawMessage(strconv.FormatInt(n, 10))}
	for _, q := range marked.of(s.t) {
		q.push(ev)
	}
	return n
}

// markSeq numbers the marks of every session.
var markSeq atomic.Int64

// orderedQueue is one ordered stream's queue.
type orderedQueue struct {
	mu    sync.Mutex
	items []dom.EventMessage
	wake  chan struct{}
}

func (q *orderedQueue) push(ev dom.EventMessage) {
	q.mu.Lock()
	q.items = append(q.items, ev)
	q.mu.Unlock()
	select {
	case q.wake <- struct{}{}:
	default:
	}
}

func (q *orderedQueue) pop() (dom.EventMessage, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if len(q.items) == 0 {
		return dom.EventMessage{}, false
	}
	ev := q.items[0]
	q.items[0] = dom.EventMessage{}
	q.items = q.items[1:]
	return ev, true
}

// markedQueues are the ordered streams that take marks, by session.
type markedQueues struct {
	mu sync.Mutex
	by map[*chromedp.Target][]*orderedQueue
}

var marked = markedQueues{by: map[*chromedp.Target][]*orderedQueue{}}

func (m *markedQueues) add(t *chromedp.Target, q *orderedQueue) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.by[t] = append(m.by[t], q)
}

func (m *markedQueues) remove(t *chromedp.Target, q *orderedQueue) {
	m.mu.Lock()
	defer m.mu.Unlock()
	qs := slices.DeleteFunc(m.by[t], func(x *orderedQueue) bool { return x == q })
	if len(qs) == 0 {
		delete(m.by, t)
	} else {
		m.by[t] = qs
	}
}

func (m *markedQueues) of(t *chromedp.Target) []*orderedQueue {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Clone(m.by[t])
}
