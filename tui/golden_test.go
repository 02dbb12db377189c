package tui

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden/tui")

const goldenDir = "../testdata/golden/tui"

// golden compares got with the named golden file (or rewrites it with -update).
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join(goldenDir, name+".txt")
	if *update {
		if err := os.MkdirAll(goldenDir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./tui -update to create it)", err)
	}
	if string(want) != got {
		t.Errorf("%s differs from the golden file (go test ./tui -update rewrites it):\n--- got\n%s\n--- want\n%s", name, got, want)
	}
}

// The views are ANSI-stripped and compared at fixed sizes. The narrow
// stacked layout at 80 columns is one of them.
func TestGoldenViews(t *testing.T) {
	sizes := [][2]int{{80, 24}, {120, 40}, {200, 60}}
	for _, sz := range sizes {
		m := started(t, newTestActor(formPage("Sign up")), sz[0], sz[1])
		golden(t, fmt.Sprintf("form-%dx%d", sz[0], sz[1]), plainScreen(m))
	}
	// overlays and the flat pane focused
	m := started(t, newTestActor(formPage("Sign up")), 120, 40)
	press(t, m, k('x'))
	golden(t, "form-rules-120x40", plainScreen(m))
	press(t, m, escKey, k('?'))
	golden(t, "form-help-120x40", plainScreen(m))
	press(t, m, escKey, tabKey, k('f'))
	golden(t, "form-json-flatfocus-120x40", plainScreen(m))
	// the help's columns at the smallest and a large size
	for _, sz := range [][2]int{{80, 24}, {200, 60}} {
		m := started(t, newTestActor(formPage("Sign up")), sz[0], sz[1])
		press(t, m, k('?'))
		golden(t, fmt.Sprintf("form-help-%dx%d", sz[0], sz[1]), plainScreen(m))
	}
}

// After an action the details pane shows the last action and the
// changes. That holds at the smallest size too: the node's attrs and box
// give way.
func TestGoldenLastAction(t *testing.T) {
	for _, sz := range [][2]int{{80, 24}, {200, 60}} {
		second := formPage("Sign up")
		second.Seq = 2
		second.Node("node_10").Name = "E-mail"
		m := started(t, newTestActor(formPage("Sign up"), second), sz[0], sz[1])
		press(t, m, k('c'))
		s := plainScreen(m)
		for _, want := range []string{"last action: click on node_10", "→ ok", "changes: +0 added · ~1 changed · -0 removed"} {
			if !strings.Contains(s, want) {
				t.Errorf("%dx%d: details lack %q:\n%s", sz[0], sz[1], want, s)
			}
		}
		golden(t, fmt.Sprintf("form-lastaction-%dx%d", sz[0], sz[1]), s)
	}
}

// Below the smallest size the message says so in full, wrapped.
func TestTooSmallMessageFits(t *testing.T) {
	for _, sz := range [][2]int{{30, 10}, {39, 20}, {12, 5}, {100, 13}} {
		m := started(t, newTestActor(formPage("Sign up")), sz[0], sz[1])
		s := m.render()
		lines := strings.Split(s, "\n")
		if len(lines) != sz[1] {
			t.Errorf("%dx%d: %d lines", sz[0], sz[1], len(lines))
		}
		for i, l := range lines {
			if w := widthOf(l); w != sz[0] {
				t.Errorf("%dx%d: line %d is %d wide", sz[0], sz[1], i, w)
			}
		}
		flat := strings.Join(strings.Fields(s), " ")
		if !strings.Contains(flat, "40×14") || strings.Contains(flat, "…") {
			t.Errorf("%dx%d: message cut or missing: %q", sz[0], sz[1], flat)
		}
	}
}

// Every rendered line is exactly as wide as the terminal, whatever the page holds.
func TestLinesFitTheTerminal(t *testing.T) {
	for _, sz := range [][2]int{{80, 24}, {99, 30}, {100, 30}, {120, 40}, {200, 60}, {40, 14}, {60, 16}} {
		m := started(t, newTestActor(hostilePage()), sz[0], sz[1])
		lines := strings.Split(m.render(), "\n")
		if len(lines) != sz[1] {
			t.Errorf("%dx%d: %d lines", sz[0], sz[1], len(lines))
		}
		for i, l := range lines {
			if w := widthOf(l); w != sz[0] {
				t.Errorf("%dx%d: line %d is %d wide: %q", sz[0], sz[1], i, w, l)
			}
		}
	}
}
