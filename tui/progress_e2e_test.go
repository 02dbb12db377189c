package tui

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"domscope/cdpconn/cdptest"
)

// While a big page is captured, the footer names the phase beside the
// elapsed time. First come the parts of the capture still outstanding,
// then building. Keys still work.
func TestCapturePhasesFullProgramLong(t *testing.T) {
	cdptest.Long(t)
	dir := filepath.Join(cdptest.Shared(t), "corpus", "synthetic")
	base, _ := cdptest.Serve(t, dir)
	tm := startTerm(t, base+"/synthetic-50000.html", 140, 44)
	seen := map[string]bool{}
	deadline := time.Now().Add(hangGuard)
	for time.Now().Before(deadline) {
		s := tm.screen()
		for _, p := range []string{"capturing DOM", "capturing accessibility", "layout", "building"} {
			if strings.Contains(s, "taking the first snapshot · ") && strings.Contains(s, p) {
				seen[p] = true
			}
		}
		if strings.Contains(s, "snapshot #1") {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if !seen["capturing DOM"] && !seen["capturing accessibility"] && !seen["building"] {
		t.Fatalf("no capture phase was shown; seen %v; screen:\n%s", seen, tm.screen())
	}
	t.Logf("phases seen: %v", seen)
	s := tm.waitText("snapshot #1", hangGuard)
	if strings.Contains(s, "taking the first snapshot") {
		t.Errorf("the busy line stayed:\n%s", s)
	}
	tm.quit()
}
