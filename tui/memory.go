package tui

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
)

// The UI holds a page's tree while the next one is built beside it. Left
// to GOGC's pace, the heap grew to twice what was live around every
// action: 477-517 MB after ten clicks at 50,000 elements, with 150 MB
// live between actions. A soft memory limit makes the GC collect before
// then. It follows the page (what is live once a snapshot is shown, plus
// headroom for the next action), so a bigger page gets room rather than a
// GC that never stops. GOMEMLIMIT, when set, wins.
const (
	memFloor    = 200 << 20
	memHeadroom = 80 << 20
)

// fitMemory sets the soft limit from the heap live at the last GC.
func (m *Model) fitMemory() {
	if m.limitMemory {
		setMemoryLimit()
	}
}

func setMemoryLimit() {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	var live int64
	if s[0].Value.Kind() == metrics.KindUint64 {
		live = int64(s[0].Value.Uint64())
	}
	debug.SetMemoryLimit(max(memFloor, live+memHeadroom))
}

// settleMemory runs in a command once a snapshot is shown and counted:
// a collection then measures what the page holds (the last one, in the
// middle of an action, saw both trees), and the limit follows it.
func settleMemory() {
	runtime.GC()
	setMemoryLimit()
}

// memoryLimited says whether the UI may set its own memory limit.
func memoryLimited() bool { return os.Getenv("GOMEMLIMIT") == "" }
