package dom

import (
	"context"
	"strings"
	"sync"
)

// progressKey is the context key of a capture's progress callback.
type progressKey struct{}

// WithProgress returns a context whose captures (Capture, Take) tell f
// what they are doing: "listing frames", "capturing DOM, accessibility,
// layout, listeners" (the parts still outstanding, shrinking as each
// arrives), "building". f may be called from several goroutines and must
// not block; the engine knows nothing of who listens.
func WithProgress(ctx context.Context, f func(phase string)) context.Context {
	if f == nil {
		return ctx
	}
	return context.WithValue(ctx, progressKey{}, f)
}

// reportPhase tells the context's progress callback, if any, the phase.
func reportPhase(ctx context.Context, phase string) {
	if f, ok := ctx.Value(progressKey{}).(func(string)); ok {
		f(phase)
	}
}

// parts tracks the parts of a capture still outstanding across targets,
// and reports them as one phase whenever the set changes.
type parts struct {
	ctx   context.Context
	mu    sync.Mutex
	count map[string]int
}

// partOrder is the order parts are named in a phase.
var partOrder = []string{"DOM", "accessibility", "layout", "listeners"}

func newParts(ctx context.Context) *parts {
	if _, ok := ctx.Value(progressKey{}).(func(string)); !ok {
		return nil
	}
	return &parts{ctx: ctx, count: map[string]int{}}
}

func (p *parts) start(name string) { p.change(name, 1) }
func (p *parts) done(name string)  { p.change(name, -1) }

func (p *parts) change(name string, d int) {
	if p == nil {
		return
	}
	p.mu.Lock()
	p.count[name] += d
	var pending []string
	for _, n := range partOrder {
		if p.count[n] > 0 {
			pending = append(pending, n)
		}
	}
	p.mu.Unlock()
	if len(pending) > 0 {
		reportPhase(p.ctx, "capturing "+strings.Join(pending, ", "))
	}
}
