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
