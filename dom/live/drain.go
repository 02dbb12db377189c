package live

import (
	"context"
	"strconv"
	"sync"
	"time"

	"domscope/dom"
	"domscope/dom/live/model"
)

// eventMarks tells how far the model's event stream got: the last mark
// (dom.EventMarker) that followModel passed.
type eventMarks struct {
	mu      sync.Mutex
	reached int64
	moved   chan struct{} // closed when reached grows
}

func (e *eventMarks) reach(n int64) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if n > e.reached {
		e.reached = n
		if e.moved != nil {
			close(e.moved)
			e.moved = nil
		}
	}
}

// wait waits until mark n is reached, at most d.
func (e *eventMarks) wait(ctx context.Context, n int64, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	for {
		e.mu.Lock()
		if e.reached >= n {
			e.mu.Unlock()
			return nil
		}
		if e.moved == nil {
			e.moved = make(chan struct{})
		}
		moved := e.moved
		e.mu.Unlock()
		select {
		case <-moved:
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
			return dom.Errorf(dom.SnapshotFailed, nil, "the page's DOM events stopped coming")
		}
	}
}

// drainEvents waits until the live model has applied every event the
// page sent before the last reply read on it.
func (s *Service) drainEvents(ctx context.Context, p dom.Page) error {
	em, ok := p.(dom.EventMarker)
	if !ok {
		return dom.Errorf(dom.SnapshotFailed, nil, "the page's events cannot be marked")
	}
	return s.marks.wait(ctx, em.MarkOrdered(), model.MarkWait)
}

// streamMark is the number of an EventMarker mark (0 for any other event).
func streamMark(ev dom.EventMessage) int64 {
	if ev.Method != dom.MarkEvent {
		return 0
	}
	n, _ := strconv.ParseInt(string(ev.Params), 10, 64)
	return n
}
