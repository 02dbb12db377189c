package capture

import (
	"context"
	"sync"

	"domscope/dom"
)

// A capture's first reads go out in a set order. First go those whose
// replies lead to a second step. Those are the frame tree, the document
// object for the listeners, and the title and metrics. Then go the
// document, the main frame's AX tree and the layout. The renderer serves
// them in that order. So the second steps are queued behind the big
// reads instead of after them. Go runs the goroutine started last first.
// So starting them in order is not enough. Each waits until the one
// before it has been written (SentCaller).

// SentCaller is a Session that can say when a command has left. sent
// runs once it is written (or could not be), before the reply comes.
// cdpconn's direct connection has it. Sessions without it are sent
// their first reads side by side, in no set order.
type SentCaller interface {
	CallSent(ctx context.Context, method string, params, result any, sent func()) error
}

// sendOrder hands out turns to send, one after another.
type sendOrder struct {
	ordered bool
	turns   []chan struct{}
}

func newSendOrder(s dom.Session, n int) *sendOrder {
	o := &sendOrder{turns: make([]chan struct{}, n)}
	_, o.ordered = s.(SentCaller)
	for i := range o.turns {
		o.turns[i] = make(chan struct{})
	}
	return o
}

// session is s with its first calls sent in the given turns, in the
// order they are made. Later calls go as they come.
func (o *sendOrder) session(s dom.Session, turns ...int) dom.Session {
	return &inTurn{Session: s, o: o, turns: turns}
}

// inTurn is a Session whose first calls wait for their turns.
type inTurn struct {
	dom.Session
	o     *sendOrder
	mu    sync.Mutex
	turns []int
}

func (t *inTurn) Call(ctx context.Context, method string, params, result any) error {
	t.mu.Lock()
	turn := -1
	if len(t.turns) > 0 {
		turn, t.turns = t.turns[0], t.turns[1:]
	}
	t.mu.Unlock()
	if turn < 0 {
		return t.Session.Call(ctx, method, params, result)
	}
	var once sync.Once
	sent := func() { once.Do(func() { close(t.o.turns[turn]) }) }
	if !t.o.ordered {
		sent()
		return t.Session.Call(ctx, method, params, result)
	}
	if turn > 0 {
		select {
		case <-t.o.turns[turn-1]:
		case <-ctx.Done():
		}
	}
	return t.Session.(SentCaller).CallSent(ctx, method, params, result, sent)
}
