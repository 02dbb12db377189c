package tui

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"domscope/cdpconn/cdptest"
)

// The keys a Charm/vim user reaches for, in a real terminal:
//   - j/k move the selection.
//   - search selects as it is typed (before enter).
//   - Z maximises the focused pane and gives the other one back.
//   - g with a bare 127.0.0.1:PORT/path goes there over http, as an
//     address bar does.
func TestKeysFullProgram(t *testing.T) {
	dir := t.TempDir()
	pages := map[string]string{
		"a.html": `<!doctype html><html><head><title>Page A</title></head><body>
<button>Alpha</button><button>Bravo</button><button>Charlie</button><button>Zulu target</button></body></html>`,
		"b.html": `<!doctype html><html><head><title>Page B</title></head><body><h1>Second page</h1></body></html>`,
	}
	for name, body := range pages {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	base, _ := cdptest.Serve(t, dir)
	tm := startTerm(t, base+"/a.html", 140, 44)
	tm.waitFor("the first snapshot", 30*time.Second, func(s string) bool {
		return strings.Contains(s, "“Page A”") && strings.Contains(s, "snapshot #")
	})
	selected := regexp.MustCompile(`(?m)^│(node_\d+) `)
	sel := func(s string) string {
		m := selected.FindStringSubmatch(s)
		if m == nil {
			t.Fatalf("no selected node in the details pane:\n%s", s)
		}
		return m[1]
	}
	start := sel(tm.screen())
	tm.keys("j")
	down := sel(tm.waitFor("j to move", 5*time.Second, func(s string) bool { return sel(s) != start }))
	tm.keys("k")
	tm.waitFor("k to move back", 5*time.Second, func(s string) bool { return sel(s) == start })
	if down == start {
		t.Fatal("j did not move")
	}

	// incremental: the selection is on the match before enter is pressed
	tm.keys("/")
	tm.text("Zulu")
	s := tm.waitFor("the match selected while typing", 5*time.Second, func(s string) bool {
		return strings.Contains(s, `"Zulu target"`) && strings.Contains(s, "/Zulu")
	})
	if !regexp.MustCompile(`(?m)^│node_\d+ · button · role button · "Zulu target"`).MatchString(s) {
		t.Fatalf("typing a query did not select its match before enter:\n%s", s)
	}
	tm.keys("Enter")

	// Z maximises the focused pane (the tree) and gives the flat pane back
	tm.keys("Z")
	tm.waitFor("the tree maximised", 5*time.Second, func(s string) bool {
		return strings.Contains(s, "VirtualNode tree") && !strings.Contains(s, "Flattened for the LLM")
	})
	tm.keys("Z")
	tm.waitFor("both panes again", 5*time.Second, func(s string) bool {
		return strings.Contains(s, "VirtualNode tree") && strings.Contains(s, "Flattened for the LLM")
	})

	// g with a bare host:port/path, as typed into an address bar
	bare := strings.TrimPrefix(base, "http://") + "/b.html"
	tm.keys("g")
	tm.keys("C-u")
	tm.text(bare)
	tm.keys("Enter")
	s = tm.waitText("“Page B”", 30*time.Second)
	if !strings.Contains(s, `"Second page"`) || !strings.Contains(s, "http://"+bare) {
		t.Fatalf("g %s did not load the page over http:\n%s", bare, s)
	}
	tm.quit()
}
