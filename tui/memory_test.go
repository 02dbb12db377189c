package tui

import (
	"runtime"
	"runtime/debug"
	"testing"
)

// One settle that saw a transient 256 MB more live does not raise the
// memory limit by it; two in a row do (the page grew). The bytes are
// never written, so the OS gives them no memory.
func TestSettleTakesTheLowerLive(t *testing.T) {
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	defer settledLive.Store(settledLive.Load())
	defer actionLive.Store(actionLive.Load())
	actionLive.Store(0)
	settledLive.Store(0)
	settleMemory()
	low := debug.SetMemoryLimit(-1)
	extra := make([]byte, 256<<20)
	settleMemory()
	if got := debug.SetMemoryLimit(-1); got > low+64<<20 {
		t.Errorf("one high settle raised the limit from %d to %d MB", low>>20, got>>20)
	}
	settleMemory()
	if got := debug.SetMemoryLimit(-1); got < 256<<20 {
		t.Errorf("two high settles kept the limit at %d MB (first %d MB)", got>>20, low>>20)
	}
	runtime.KeepAlive(extra)
}

// The tree pane's rows and their index by ID cost a few bytes a row. A
// map by ID held about 20 bytes more a row: 2 MB at 105,000 rows, held
// through every action.
func TestTreePaneIndexCompact(t *testing.T) {
	s := bigPage(50000)
	p := newTreePane()
	before := heapLive()
	p.SetRoot(s.Root)
	held := heapLive() - before
	if len(p.rows) < 40000 {
		t.Fatalf("only %d rows", len(p.rows))
	}
	// 16 bytes a row, 4 its place by ID.
	if per := float64(held) / float64(len(p.rows)); per > 28 {
		t.Errorf("the rows and their index hold %d bytes, %.1f a row; want at most 28", held, per)
	} else {
		t.Logf("the rows and their index hold %d bytes, %.1f a row", held, per)
	}
	if p.index.Find(p.rows[len(p.rows)/2].node.ID) != len(p.rows)/2 {
		t.Error("the index does not find a row")
	}
	runtime.KeepAlive(s)
}

// heapLive is the live heap after a full collection.
func heapLive() int64 {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return int64(ms.HeapAlloc)
}
