package serve

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"sync/atomic"
	"time"
)

// Timing, when DOMSCOPE_TIMING is set, keeps when each phase of one
// command ended, to print on stderr as it exits. It is off otherwise:
// a mark then costs one branch.
// A server's process runs commands for fronts, many at once: no timing.
var timing = func() *atomic.Bool {
	var b atomic.Bool
	b.Store(os.Getenv("DOMSCOPE_TIMING") != "")
	return &b
}()

type phase struct {
	name string
	at   time.Time
}

var phases []phase

// Mark notes that the phase called name ended now. It returns true, so
// that a package variable can mark the end of the program's inits.
func Mark(name string) bool {
	// A phase two commands share (snapshot --session runs the agent
	// path) is marked once.
	if timing.Load() && (len(phases) == 0 || phases[len(phases)-1].name != name) {
		phases = append(phases, phase{name, time.Now()})
	}
	return true
}

// PrintTiming prints each phase's length on w, once. The first is measured from
// DOMSCOPE_TIMING's value when it is a Unix time in nanoseconds (the
// shell's `date +%s%N` just before the command): the process's start.
func PrintTiming(w io.Writer) {
	if !timing.Load() || len(phases) == 0 {
		return
	}
	prev := phases[0].at
	// Any other value (1) starts at the first mark.
	if ns, err := strconv.ParseInt(os.Getenv("DOMSCOPE_TIMING"), 10, 64); err == nil && ns > 1e18 {
		prev = time.Unix(0, ns)
	}
	first := prev
	done := phases
	phases = nil // the outer command's deferred print finds none
	for _, p := range done {
		fmt.Fprintf(w, "timing: %-12s %6.1f ms\n", p.name, float64(p.at.Sub(prev).Microseconds())/1000)
		prev = p.at
	}
	fmt.Fprintf(w, "timing: %-12s %6.1f ms\n", "total", float64(prev.Sub(first).Microseconds())/1000)
}
