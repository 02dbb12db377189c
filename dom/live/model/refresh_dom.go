package model

import (
	"context"
	"sync"
	"time"

	"domscope/dom"
)

// fetchCut asks Chrome for the children of nodes it inserted without them
// and waits until they arrive (as DOM.setChildNodes events, through Apply).
func (m *Model) fetchCut(ctx context.Context, p dom.Page) error {
	for round := 0; round < 64; round++ {
		m.mu.Lock()
		var ids []int64
		for id := range m.cut {
			ids = append(ids, id)
		}
		m.mu.Unlock()
		if len(ids) == 0 {
			return nil
		}
		for _, id := range ids {
			if err := p.Call(ctx, "DOM.requestChildNodes", map[string]any{"nodeId": id, "depth": -1, "pierce": true}, nil); err != nil {
				m.mu.Lock()
				delete(m.cut, id) // gone meanwhile: its removal event follows
				m.mu.Unlock()
			}
		}
		timer := time.NewTimer(5 * time.Second)
		for {
			m.mu.Lock()
			left := 0
			for _, id := range ids {
				if m.cut[id] {
					left++
				}
			}
			broken := m.broken
			grown := m.grown
			m.mu.Unlock()
			if left == 0 || broken != "" {
				break
			}
			select {
			case <-grown:
				continue
			case <-timer.C:
				m.Break("children of inserted nodes did not come")
			case <-ctx.Done():
				timer.Stop()
				return dom.Errorf(dom.Timeout, ctx.Err(), "waiting for the children of inserted nodes")
			}
		}
		timer.Stop()
	}
	m.Break("the page kept growing while it was read")
	return nil
}

// fetchAttributes reads the attributes of nodes (by node id) together;
// a node gone meanwhile is left out (its removal event follows).
func fetchAttributes(ctx context.Context, p dom.Session, ids map[int64]bool) map[int64][]string {
	out := map[int64][]string{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	for id := range ids {
		wg.Go(func() {
			var r struct {
				Attributes []string `json:"attributes"`
			}
			if p.Call(ctx, "DOM.getAttributes", map[string]any{"nodeId": id}, &r) == nil {
				mu.Lock()
				out[id] = r.Attributes
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	return out
}
