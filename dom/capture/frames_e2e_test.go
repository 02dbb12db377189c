package capture_test

import (
	"context"
	"encoding/json"
	"sync"
	"testing"
	"time"

	"domscope/dom"
	"domscope/dom/capture"
)

// gatedLayout is a page whose layout read waits until the box of one of
// its out-of-process frames has been asked for. A capture that asks only
// after its reads waits out the guard.
type gatedLayout struct {
	dom.Page
	mu     sync.Mutex
	frames map[string]bool // out-of-process frame ids, as listed
	asked  chan struct{}
	once   sync.Once
	waited bool // the layout read waited out the guard
}

const layoutGuard = 10 * time.Second

func (g *gatedLayout) Frames(ctx context.Context) ([]dom.FrameTarget, error) {
	fs, err := g.Page.Frames(ctx)
	g.mu.Lock()
	for _, f := range fs {
		g.frames[f.TargetID] = true
	}
	g.mu.Unlock()
	return fs, err
}

func (g *gatedLayout) Call(ctx context.Context, method string, params, result any) error {
	switch method {
	case "DOM.getFrameOwner":
		b, _ := json.Marshal(params)
		var p struct {
			FrameID string `json:"frameId"`
		}
		_ = json.Unmarshal(b, &p)
		g.mu.Lock()
		oop := g.frames[p.FrameID]
		g.mu.Unlock()
		if oop {
			g.once.Do(func() { close(g.asked) })
		}
	case "DOMSnapshot.captureSnapshot":
		select {
		case <-g.asked:
		case <-time.After(layoutGuard):
			g.mu.Lock()
			g.waited = true
			g.mu.Unlock()
		case <-ctx.Done():
		}
	}
	return g.Page.Call(ctx, method, params, result)
}

// TestOutOfProcessFrameBoxAskedEarly: where an out-of-process frame sits
// is asked as soon as the frames are listed. It is not left until every
// read is answered: that cost two round trips after the capture.
func TestOutOfProcessFrameBoxAskedEarly(t *testing.T) {
	p, _, _ := capOpen(t, "frames.html?other={other}")
	capWaitFrames(t, p, 1)
	g := &gatedLayout{Page: p, frames: map[string]bool{}, asked: make(chan struct{})}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	raw, err := capture.Capture(ctx, g)
	if err != nil {
		t.Fatal(err)
	}
	if g.waited {
		t.Errorf("the page's layout read waited %s: the frame's box was not asked before the reads were answered", layoutGuard)
	}
	if len(raw.Targets) != 2 {
		t.Fatalf("targets %d, want the page and its cross-origin frame", len(raw.Targets))
	}
	// The same place as asked late: the iframe at 400,100, 3px border and
	// 4px padding around a 300x150 content box.
	if got := raw.Targets[1].Offset; !capNear(got, dom.Rect{X: 407, Y: 107, W: 300, H: 150}) || raw.Targets[1].OwnerBackendID == 0 {
		t.Errorf("frame offset %+v owner %d", got, raw.Targets[1].OwnerBackendID)
	}
}
