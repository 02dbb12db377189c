package main

import (
	"math"
	"runtime/debug"
	"testing"
)

// TestTuneGC: a snapshot sets a soft memory limit and, under it, no GC
// pacing. GOMEMLIMIT leaves both alone. GOGC keeps its pacing.
func TestTuneGC(t *testing.T) {
	limit, percent := debug.SetMemoryLimit(-1), debug.SetGCPercent(100)
	debug.SetGCPercent(percent)
	t.Cleanup(func() {
		debug.SetMemoryLimit(limit)
		debug.SetGCPercent(percent)
	})
	for _, tc := range []struct {
		env         map[string]string
		limit       int64
		percent     int
		turnedGCOff bool
	}{
		{map[string]string{}, snapshotMemoryLimit, -1, true},
		{map[string]string{"GOGC": "100"}, snapshotMemoryLimit, 100, false},
		{map[string]string{"GOMEMLIMIT": "1GiB"}, math.MaxInt64, 100, false},
	} {
		debug.SetMemoryLimit(math.MaxInt64)
		debug.SetGCPercent(100)
		off := tuneGC(func(k string) string { return tc.env[k] })
		gotLimit, gotPercent := debug.SetMemoryLimit(-1), debug.SetGCPercent(100)
		if off != tc.turnedGCOff || gotLimit != tc.limit || gotPercent != tc.percent {
			t.Errorf("env %v: GC off %v, limit %d, GOGC %d; want %v, %d, %d", tc.env, off, gotLimit, gotPercent, tc.turnedGCOff, tc.limit, tc.percent)
		}
	}
}
