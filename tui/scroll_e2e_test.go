package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"domscope/cdpconn/cdptest"
)

// In a real terminal, a flat line wider than the pane scrolls into view
// with → in the flat pane. shift+← brings the start back.
func TestFlatScrollFullProgram(t *testing.T) {
	dir := t.TempDir()
	page := `<!doctype html><html><head><meta charset="utf-8"><title>long</title></head><body>
<button>` + strings.Repeat("a rather long label ", 9) + `TAILMARK</button>
</body></html>`
	if err := os.WriteFile(filepath.Join(dir, "long.html"), []byte(page), 0o644); err != nil {
		t.Fatal(err)
	}
	base, _ := cdptest.Serve(t, dir)
	tm := startTerm(t, base+"/long.html", 120, 40)
	s := tm.waitText(`button "a rather long label`, 30*time.Second)
	// The selected line keeps its end: the middle gives way.
	if _, flat := columns(s, 66); !strings.Contains(flat, "…") || strings.Contains(flat, strings.Repeat("a rather long label ", 2)) {
		t.Fatalf("the line fits already; the test needs a longer one:\n%s", s)
	}
	tm.keys("Tab")
	for i := 0; i < 20; i++ {
		tm.keys("Right")
		if _, flat := columns(tm.screen(), 66); strings.Contains(flat, `TAILMARK"`) && strings.Contains(flat, "col ") {
			break
		}
	}
	tm.waitFor("the end of the long line", 5*time.Second, func(s string) bool {
		_, flat := columns(s, 66)
		return strings.Contains(flat, `TAILMARK"`) && strings.Contains(flat, "col ")
	})
	for i := 0; i < 20; i++ {
		tm.keys("S-Left")
	}
	tm.waitFor("the start of the lines again", 5*time.Second, func(s string) bool {
		_, flat := columns(s, 66)
		return strings.Contains(flat, `button "a rather long label`) && !strings.Contains(flat, "col ")
	})
	tm.quit()
}
