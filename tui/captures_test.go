package tui

import (
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"domscope/dom"
	"domscope/dom/build"
	"domscope/dom/export"
)

// recorded loads a capture recorded from real Chromium and builds it.
// The captures in testdata/captures come from go test ./dom -run
// TestRecord -record.
func recorded(t testing.TB, name string) *dom.Snapshot {
	t.Helper()
	path := filepath.Join("..", "testdata", "captures", name+".json")
	var r io.Reader
	f, err := os.Open(path)
	if err != nil {
		f, err = os.Open(path + ".gz")
		if err != nil {
			t.Fatalf("no recorded capture %s: %v", name, err)
		}
		gz, err := gzip.NewReader(f)
		if err != nil {
			t.Fatal(err)
		}
		r = gz
	} else {
		r = f
	}
	defer f.Close()
	var raw dom.RawCapture
	if err := json.NewDecoder(r).Decode(&raw); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	s, err := build.Build(&raw, build.Options{})
	if err != nil {
		t.Fatalf("building %s: %v", name, err)
	}
	s.Seq, s.CaptureTime = 1, 120*time.Millisecond
	s.Taken = fixedNow.Add(-2 * time.Second)
	return s
}

// Goldens of recorded pages, the built-in demo first, at the three sizes.
// At 80 columns the panes stack.
func TestGoldenRecordedCaptures(t *testing.T) {
	for _, name := range []string{"demo-index", "demo-todo", "demo-components", "semantic", "nonsemantic", "shadow", "frames"} {
		for _, sz := range [][2]int{{80, 24}, {120, 40}, {200, 60}} {
			m := started(t, newTestActor(recorded(t, name)), sz[0], sz[1])
			golden(t, fmt.Sprintf("%s-%dx%d", name, sz[0], sz[1]), plainScreen(m))
		}
	}
}

// A recorded hostile page renders inert.
func TestRecordedHostileCapture(t *testing.T) {
	m := started(t, newTestActor(recorded(t, "hostile")), 120, 40)
	for i := 0; i < 30; i++ {
		if r, ok := bad(m.render()); ok {
			t.Fatalf("row %d: control %U reached the screen", m.panes.tree.cursor, r)
		}
		press(t, m, downKey)
	}
}

// Export a real capture and open the file with no browser. See the same
// tree and flat view, with actions disabled.
func TestExportOpenRoundTrip(t *testing.T) {
	snap := recorded(t, "semantic")
	m := started(t, newTestActor(snap, recorded(t, "semantic")), 120, 40)
	press(t, m, k('h')) // an action, so the file carries a last result
	toggleRule(t, m, "flatten:hoist-structural")
	press(t, m, escKey)
	path := filepath.Join(t.TempDir(), "semantic.json")
	press(t, m, k('e'))
	m.prompt().input.SetValue(path)
	press(t, m, enterKey)
	if !strings.Contains(m.status.flash, "saved") {
		t.Fatalf("export: %q", m.status.flash)
	}
	c, err := export.ReadCaptureFile(path)
	if err != nil {
		t.Fatal(err)
	}
	om := newModel(context.Background(), Config{Saved: path, NoColor: true, Now: func() time.Time { return fixedNow }})
	if err := om.openSaved("semantic.json", c); err != nil {
		t.Fatal(err)
	}
	om.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	if len(om.doc.snap.ByID) != len(snap.ByID) {
		t.Errorf("reopened tree has %d nodes, want %d", len(om.doc.snap.ByID), len(snap.ByID))
	}
	if strings.Join(om.panes.flat.lines, "\n") != strings.Join(m.panes.flat.lines, "\n") {
		t.Error("reopened flat view differs (the switched-off rule was not restored?)")
	}
	if om.status.lastDesc != m.status.lastDesc || om.status.last == nil {
		t.Errorf("last action after open: %q, want %q", om.status.lastDesc, m.status.lastDesc)
	}
	press(t, om, k('c'))
	if !strings.Contains(om.status.flash, "saved capture") {
		t.Errorf("click offline: %q", om.status.flash)
	}
	if s := plainScreen(om); !strings.Contains(s, "saved capture (offline)") {
		t.Errorf("offline state not shown:\n%s", s)
	}
}

// BenchmarkViewRecorded10k renders a frame of a recorded 10k-element page.
func BenchmarkViewRecorded10k(b *testing.B) {
	s := recorded(b, "synthetic-10000")
	m := newModel(context.Background(), Config{Actor: newTestActor(s), Theme: "dark", NoHighlight: true, Now: func() time.Time { return fixedNow }})
	m.Update(tea.WindowSizeMsg{Width: 200, Height: 60})
	m.setSnapshot(s, false)
	down := tea.KeyPressMsg{Code: tea.KeyDown}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		m.Update(down)
		m.View()
	}
}

// Switching a tier rule off rebuilds the same capture without it, with no
// browser call. Nodes it made non-semantic fall back; the flat pane
// follows.
func TestTierRuleRebuildsRecordedCapture(t *testing.T) {
	a := newTestActor(recorded(t, "nonsemantic"))
	m := started(t, a, 120, 40)
	var ids []string
	for id, n := range m.doc.snap.ByID {
		if n.Why == build.RuleOnclick {
			ids = append(ids, id)
		}
	}
	if len(ids) == 0 {
		t.Fatal("the recorded page has no node made non-semantic by onclick")
	}
	before := strings.Join(m.panes.flat.lines, "\n")
	m.panes.tree.Select(ids[0])
	// an inline onclick also registers a listener: switch both heuristics off
	toggleRule(t, m, "tier:"+build.RuleOnclick)
	press(t, m, escKey)
	toggleRule(t, m, "tier:"+build.RuleListener)
	if m.op.busy != nil {
		t.Fatal("still rebuilding")
	}
	for _, id := range ids {
		n := m.doc.snap.Node(id)
		if n == nil {
			t.Fatalf("%s lost in the rebuild (IDs must survive)", id)
		}
		if n.Why == build.RuleOnclick || n.Why == build.RuleListener {
			t.Errorf("%s still non-semantic by %s", id, n.Why)
		}
	}
	if m.panes.tree.SelectedID() != ids[0] {
		t.Errorf("selection moved to %s", m.panes.tree.SelectedID())
	}
	if strings.Join(m.panes.flat.lines, "\n") == before {
		t.Error("the flat pane did not change")
	}
	if len(a.actions) != 0 {
		t.Errorf("the rebuild talked to the page: %+v", a.actions)
	}
	if s := plainScreen(m); !strings.Contains(s, "[ ] off heuristic:onclick") {
		t.Errorf("rules list:\n%s", s)
	}
}
