package tui

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync/atomic"
)

// The UI holds a page's tree while the next one is built beside it. Left
// to GOGC's pace, the heap grew to twice what was live around every
// action: 477-517 MB after ten clicks at 50,000 elements, with 150 MB
// live between actions. A soft memory limit makes the GC collect before
// then. It follows the page, so a bigger page gets room. The limit is what
// is live between actions plus headroom. It is never below what the last
// action needed (else the GC would run without a pause through the next
// one).
// GOMEMLIMIT, when set, wins.
const (
	memFloor    = 200 << 20
	memHeadroom = 80 << 20
	memSlack    = 24 << 20
)

// actionLive is the live heap the last collection before a snapshot
// showed saw: as a rule mid-action, with both trees held.
var actionLive atomic.Int64

// fitMemory runs as a snapshot is shown: it notes what the action
// needed and lets the limit cover it.
func (m *Model) fitMemory() {
	if !m.limitMemory {
		return
	}
	live := liveHeap()
	actionLive.Store(live)
	debug.SetMemoryLimit(max(memFloor, live+memHeadroom))
}

// settledLive is the live heap the last settle measured. It is the
// process's, as the memory limit is.
var settledLive atomic.Int64

// settleMemory runs in a command once a snapshot is shown and counted:
// a collection then measures what the page holds between actions, and
// the limit follows it. It takes the lower of this and the last
// measure: a collection beside other work once saw 40 MB more live at
// 50,000 elements, and the next action's heap grew 25 MB higher. A page
// that really grew gets its room one settle later; the last action's
// live heap (actionLive) is a floor meanwhile.
func settleMemory() {
	runtime.GC()
	live := liveHeap()
	if prev := settledLive.Swap(live); prev > 0 {
		live = min(live, prev)
	}
	debug.SetMemoryLimit(max(memFloor, live+memHeadroom, actionLive.Load()+memSlack))
}

// liveHeap is the heap the last collection found live.
func liveHeap() int64 {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return int64(s[0].Value.Uint64())
}

// memoryLimited says whether the UI may set its own memory limit.
func memoryLimited() bool { return os.Getenv("GOMEMLIMIT") == "" }
