package mcp

import (
	"context"
	"sync"
	"time"

	"domscope/dom"
)

// Gate holds the agent's calls while a person has paused the session (the
// UI's take-over). A call waits at a closed gate until it opens again. It
// fails after its timeout with an error that says the session is paused.
// The zero value is an open gate.
type Gate struct {
	mu     sync.Mutex
	paused bool
	opened chan struct{} // closed when the gate opens; nil while open
}

// Pause closes the gate: calls that arrive from now on wait.
func (g *Gate) Pause() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if !g.paused {
		g.paused = true
		g.opened = make(chan struct{})
	}
}

// Resume opens the gate and lets the waiting calls run, in turn.
func (g *Gate) Resume() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.paused {
		g.paused = false
		close(g.opened)
		g.opened = nil
	}
}

// Paused reports whether the gate is closed.
func (g *Gate) Paused() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.paused
}

// Wait returns at once when the gate is open, else when it opens. After
// timeout, or when ctx ends, it fails with a TIMEOUT that says why.
func (g *Gate) Wait(ctx context.Context, timeout time.Duration) error {
	if g == nil {
		return nil
	}
	g.mu.Lock()
	ch := g.opened
	g.mu.Unlock()
	if ch == nil {
		return nil
	}
	t := time.NewTimer(timeout)
	defer t.Stop()
	select {
	case <-ch:
		return nil
	case <-t.C:
		return dom.Errorf(dom.Timeout, nil, "the session is paused: a person took over in the domscope UI and has not resumed within %s; wait and retry the call", timeout)
	case <-ctx.Done():
		return dom.Errorf(dom.Timeout, ctx.Err(), "the call was cancelled while the session was paused by a person in the domscope UI")
	}
}
