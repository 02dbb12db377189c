package cdpconn

import (
	"context"
	"sync"

	"github.com/chromedp/cdproto/cdp/jsonv2"
	cdpdom "github.com/chromedp/cdproto/dom"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"domscope/dom"
)

var (
	_ dom.OrderedEvents = (*Page)(nil)
	_ dom.OrderedEvents = session{} // a frame's session too
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
	}
	return ""
}

// SubscribeOrdered delivers the session's events of the given methods
// (those methodOf names) in the order Chrome sent them. chromedp calls
// the listener in the loop that reads the tab's messages. It does so
// before it reads the next one. So an event is queued before the reply
// of any later command. The queue has no limit, so the reading loop
// never waits.
func (s session) SubscribeOrdered(methods ...string) (<-chan dom.EventMessage, func()) {
	want := map[string]bool{}
	for _, m := range methods {
		want[m] = true
	}
	out := make(chan dom.EventMessage)
	var mu sync.Mutex
	var queue []dom.EventMessage
	wake := make(chan struct{}, 1)
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
		mu.Lock()
		queue = append(queue, dom.EventMessage{Method: m, Params: b})
		mu.Unlock()
		select {
		case wake <- struct{}{}:
		default:
		}
	})
	go func() {
		defer close(out)
		for {
			mu.Lock()
			var next dom.EventMessage
			have := len(queue) > 0
			if have {
				next = queue[0]
				queue[0] = dom.EventMessage{}
				queue = queue[1:]
			}
			mu.Unlock()
			if !have {
				select {
				case <-wake:
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
			close(done)
			lcancel()
		})
	}
	if err != nil {
		stop()
	}
	return out, stop
}
