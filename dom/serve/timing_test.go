package serve

import (
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestTiming: with DOMSCOPE_TIMING set to the start's Unix nanoseconds,
// each phase is timed from the one before, the first from the start.
func TestTiming(t *testing.T) {
	timing.Store(true)
	phases = nil
	defer func() { timing.Store(false); phases = nil }()
	t.Setenv("DOMSCOPE_TIMING", strconv.FormatInt(time.Now().Add(-time.Second).UnixNano(), 10))
	Mark("inits")
	Mark("parsed")
	Mark("parsed") // snapshot --session marks it, then the agent path
	Mark("answered")
	var b strings.Builder
	PrintTiming(&b)
	PrintTiming(&b) // the outer command's deferred print adds nothing
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if len(lines) != 4 || !strings.HasPrefix(lines[0], "timing: inits") || !strings.HasPrefix(lines[3], "timing: total") {
		t.Fatalf("timing printed:\n%s", b.String())
	}
	ms, err := strconv.ParseFloat(strings.Fields(lines[0])[2], 64)
	if err != nil || ms < 1000 {
		t.Errorf("the first phase is not timed from the start: %q", lines[0])
	}
}

// TestTimingOff: without DOMSCOPE_TIMING nothing is kept or printed.
func TestTimingOff(t *testing.T) {
	timing.Store(false)
	phases = nil
	Mark("inits")
	var b strings.Builder
	PrintTiming(&b)
	if b.Len() > 0 || len(phases) > 0 {
		t.Errorf("timing off printed %q", b.String())
	}
}
