package tui

import (
	"strings"
	"testing"
	"time"

	"domscope/dom/demo"
)

// At 80×24 the footer has no room for every hint. The ones in the middle
// go; "? help" and "q quit" stay. A key bound to nothing (u) says so.
func TestFooterAt80x24FullProgram(t *testing.T) {
	base, stop, err := demo.Serve()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stop)
	tm := startTerm(t, base+"/signin.html", 80, 24)
	s := tm.waitFor("the sign-in page", 30*time.Second, func(s string) bool {
		return strings.Contains(s, "snapshot #") && strings.Contains(s, "tokens")
	})
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	footer := lines[len(lines)-1]
	if !strings.Contains(footer, "? help") || !strings.Contains(footer, "q quit") || !strings.HasPrefix(footer, "c click") {
		t.Errorf("the 80-column footer %q lost a hint it must keep", footer)
	}
	tm.keys("u")
	tm.waitText("u: no such key — ? for help", 5*time.Second)
	tm.quit()
}
