package tui

import (
	"os"
	"runtime/debug"
	"runtime/metrics"
)

// The UI holds a page's tree while the next one is built beside it. Left
// to GOGC's pace, the heap grew to twice that around every action: 517
// MB after ten clicks at 50,000 elements, with 140 MB live. A soft
// memory limit makes the GC collect before then. It follows the page
// (half again what is live, plus headroom), so a bigger page gets room
// rather than a GC that never stops. GOMEMLIMIT, when set, wins.
const (
	memFloor    = 200 << 20
	memHeadroom = 32 << 20
)

// fitMemory sets the soft limit from the heap live at the last GC.
func (m *Model) fitMemory() {
	if !m.limitMemory {
		return
	}
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	var live int64
	if s[0].Value.Kind() == metrics.KindUint64 {
		live = int64(s[0].Value.Uint64())
	}
	debug.SetMemoryLimit(max(memFloor, live*3/2+memHeadroom))
}

// memoryLimited says whether the UI may set its own memory limit.
func memoryLimited() bool { return os.Getenv("GOMEMLIMIT") == "" }
