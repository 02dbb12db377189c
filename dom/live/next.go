package live

import (
	"maps"
	"time"

	"domscope/dom"
	"domscope/dom/build"
)

// A refresh at 50,000 elements spends most of its time building the
// tree ahead (ahead.go). That build reads only the model, which holds
// still between two actions. So after each read the next refresh's
// tree is built in the background, while the caller diffs and prints
// and the user or agent picks the next action. The next refresh takes
// it when no event came since and it would build the same tree: the
// same previous snapshot and tier rules. It then goes through finish
// like any tree built ahead. Else it is dropped and built as before.
//
// It costs one tree's memory between actions. It is not built when
// the page changed during the read: a page that changes by itself
// would spoil it every time.

// nextTree is a tree built for the next refresh, and what with.
type nextTree struct {
	a    *ahead
	prev *dom.Snapshot
	off  map[string]bool
}

// buildNext builds, in the background, the tree the next refresh of
// the model would build ahead. opts.Prev is the snapshot just made. It
// is not built when an event came since the read began (since).
func (m *Model) buildNext(opts build.Options, since time.Time) {
	m.mu.Lock()
	m.nextGen++
	gen := m.nextGen
	m.next = nil
	m.mu.Unlock()
	off := maps.Clone(opts.Disabled)
	m.nextRun.Add(1)
	go func() {
		defer m.nextRun.Done()
		defer func() { _ = recover() }() // no tree ahead rather than a crash
		m.mu.Lock()
		defer m.mu.Unlock()
		// A refresh began meanwhile (takeNext), or the page changed.
		if m.nextGen != gen || m.applied.After(since) {
			return
		}
		if a := m.buildAheadLocked(opts); a != nil {
			a.took = 0 // built before the refresh: not its time
			m.next = &nextTree{a: a, prev: opts.Prev, off: off}
		}
	}()
}

// takeNext returns the tree built for this refresh, if it is what
// buildAhead would build now, and stops one not yet started. m.mu is
// held.
func (m *Model) takeNext(opts build.Options) *ahead {
	n := m.next
	m.next = nil
	m.nextGen++
	if n == nil || n.a.version != m.version || n.prev != opts.Prev || !maps.Equal(n.off, opts.Disabled) {
		return nil
	}
	m.nextUsed++
	return n.a
}
