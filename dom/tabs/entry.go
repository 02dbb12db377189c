package tabs

import (
	"context"

	"domscope/dom"
)

// Service is what a pool keeps per tab: a live service, or a front
// door's own type around one.
type Service interface {
	State() dom.ConnState
	Close() error
}

// Entry is one tab of a pool: attached, or on its way.
type Entry[S Service] struct {
	// ID is the tab's target id ("" for a service with no page).
	ID  string
	seq int // the order it came in, for List

	ready chan struct{} // closed once attached, or not
	err   error         // why it did not attach; set before ready closes
	page  dom.Page
	svc   S
	own   bool            // the pool made the service: it closes it
	done  <-chan struct{} // closed when the tab goes (own entries only)
}

// Wait waits for the tab's attach. Its error if it did not attach.
func (e *Entry[S]) Wait(ctx context.Context) error {
	select {
	case <-e.ready:
	case <-ctx.Done():
		return dom.Errorf(dom.Timeout, ctx.Err(), "the tab did not attach in time: raise --timeout")
	}
	return e.err
}

// Ready: the attach has ended, well or not.
func (e *Entry[S]) Ready() bool {
	select {
	case <-e.ready:
		return true
	default:
		return false
	}
}

// Alive: attached, the tab still there and its service connected.
func (e *Entry[S]) Alive() bool {
	if !e.Ready() || e.err != nil {
		return false
	}
	if e.done != nil {
		select {
		case <-e.done:
			return false
		default:
		}
	}
	return e.svc.State() != dom.Disconnected
}

// Service is the tab's service; the zero S until Ready with no error.
func (e *Entry[S]) Service() S { return e.svc }

// Page is the tab's page; nil until Ready with no error.
func (e *Entry[S]) Page() dom.Page { return e.page }
