package capture

import (
	"context"
	"strings"
	"sync"

	"domscope/dom"
)

// parts tracks the parts of a capture still outstanding across targets.
// It reports them as one phase whenever the set changes.
type parts struct {
	ctx   context.Context
	mu    sync.Mutex
	count map[string]int
}

// partOrder is the order parts are named in a phase.
var partOrder = []string{"DOM", "accessibility", "layout", "listeners"}

func newParts(ctx context.Context) *parts {
	if dom.Progress(ctx) == nil {
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
		dom.ReportPhase(p.ctx, "capturing "+strings.Join(pending, ", "))
	}
}
