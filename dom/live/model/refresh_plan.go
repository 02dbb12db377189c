package model

import (
	"context"
	"fmt"

	"domscope/dom"
	"domscope/dom/capture"
)

// plan takes the model's change sets and runs the page guard. It says
// what changed, which subtrees were inserted and whether reading the
// changed parts' layout can do.
func (r *refreshRun) plan(ctx context.Context) (string, error) {
	if why, err := r.takeSets(ctx); why != "" || err != nil {
		return why, err
	}
	r.startClone()
	r.readStyled(ctx)
	if len(r.roots) > maxListenerRoots {
		r.m.Break(fmt.Sprintf("%d subtrees were inserted", len(r.roots)))
		return r.m.Broken(), nil
	}
	if err := r.runGuard(ctx); err != nil {
		return "", err
	}
	r.changed = make([]int64, 0, len(r.dirty)+len(r.touched))
	for id := range r.dirty {
		r.changed = append(r.changed, id)
	}
	for id := range r.touched {
		if !r.dirty[id] {
			r.changed = append(r.changed, id)
		}
	}
	return "", nil
}

// maxCutRounds bounds the marks a refresh waits for while the page
// keeps cutting nodes.
const maxCutRounds = 8

// takeSets takes the model's change sets and lists the inserted
// subtrees. The events of the page's last task may still be on their
// way to the model when a refresh starts. A partial layout reads only
// what the sets name, so the sets must hold them: a mark in the event
// stream waits for them (one round trip). Those events may cut a node
// (children inserted under one whose children Chrome never sent): its
// children are fetched before the sets are taken, else this refresh
// would build it empty.
func (r *refreshRun) takeSets(ctx context.Context) (string, error) {
	m := r.m
	for round := 0; ; round++ {
		if err := m.holdAtMark(ctx, r.p, r.group, &r.marker); err != nil {
			m.release()
			return "", capture.Err(err, "marking the page's events")
		}
		m.mu.Lock()
		if m.broken != "" || len(m.cut) == 0 {
			break
		}
		m.releaseLocked()
		m.mu.Unlock()
		if round == maxCutRounds {
			m.Break("the page kept growing while it was read")
			return m.Broken(), nil
		}
		if err := m.fetchCut(ctx, r.p); err != nil {
			return "", err
		}
	}
	defer m.mu.Unlock()
	if m.broken != "" {
		m.releaseLocked()
		return m.broken, nil
	}
	r.dirty, r.touched, r.inserted, r.styled = m.dirty, m.touched, m.inserted, m.styled
	m.resetSets()
	m.releaseLocked()
	for id := range r.inserted {
		if n := m.byNode[id]; n != nil && n.NodeType == dom.ElementNode {
			r.roots = append(r.roots, n.BackendNodeID)
		}
	}
	r.delegating = m.delegatingRoots()
	return "", nil
}

// startClone copies the last tree while the page guard runs, long
// before the layout comes: a copy needs no lock on the model. A refresh
// that inserted or restyled nodes has no use for it.
func (r *refreshRun) startClone() {
	r.cloneDone = make(chan struct{})
	if len(r.roots) > 0 || len(r.styled) > 0 {
		close(r.cloneDone)
		return
	}
	go func() {
		defer close(r.cloneDone)
		r.cloned = r.m.cloneAhead(r.opts)
	}()
}

// waitClone waits for the copy startClone began, if any.
func (r *refreshRun) waitClone() {
	if r.cloneDone != nil {
		<-r.cloneDone
	}
}

// readStyled reads the attributes of restyled nodes again, first: an
// inline style change says nothing of the new style. The tree built
// ahead reads them, and a field's type may have changed with them.
func (r *refreshRun) readStyled(ctx context.Context) {
	if len(r.styled) == 0 {
		return
	}
	attrs := fetchAttributes(ctx, r.p, r.styled)
	m := r.m
	m.mu.Lock()
	defer m.mu.Unlock()
	for id, a := range attrs {
		if n := m.byNode[id]; n != nil {
			n.Attributes = a
			m.scrubAround(n)
		}
	}
}

// runGuard runs the page guard before any layout is read: it tells
// whether reading the changed parts' layout can do (guard.go,
// partial.go).
func (r *refreshRun) runGuard(ctx context.Context) error {
	m := r.m
	registered, err := m.registerRoots(ctx, r.p)
	if err != nil {
		return capture.Err(err, "giving the page guard its shadow roots")
	}
	g, err := readGuard(ctx, r.p, r.group)
	if err != nil {
		return capture.Err(err, "running the page guard")
	}
	r.guard = g
	m.mu.Lock()
	defer m.mu.Unlock()
	r.partialWhy = g.why
	switch {
	case !m.guarded:
		r.partialWhy = "the last layout was read without the page guard"
	case !registered:
		r.partialWhy = "new shadow roots"
	}
	m.guarded = false // until this refresh succeeds
	return nil
}
