package tui

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"domscope/cdpconn/cdptest"
	"domscope/dom/export"
	"domscope/dom/flatten"
	"domscope/dom/live"
	"domscope/dom/script"
)

// steppingModel is the UI on a fresh sign-in page in the shared browser.
// Its steps are loaded as run --ui loads them. It returns the page's URL.
func steppingModel(t *testing.T, steps ...string) (*Model, string) {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "signin.html"), []byte(signInPage), 0o644); err != nil {
		t.Fatal(err)
	}
	base, _ := cdptest.Serve(t, dir)
	url := base + "/signin.html"
	svc := live.NewService(cdptest.Page(t, url), live.Config{})
	t.Cleanup(func() { _ = svc.Close() })
	lines, err := script.Load(strings.NewReader(strings.Join(steps, "\n")))
	if err != nil {
		t.Fatal(err)
	}
	m := newModel(context.Background(), Config{Actor: svc, NoColor: true, Theme: "dark", NoHighlight: true,
		OutputDir: t.TempDir(), Now: func() time.Time { return fixedNow }, Script: lines, ScriptName: "agent.jsonl"})
	m.Update(tea.WindowSizeMsg{Width: 140, Height: 44})
	settle(t, m, m.refresh(false, "first snapshot"))
	if m.doc.snap == nil {
		t.Fatal("no snapshot after start")
	}
	return m, url
}

// A runs on until a step fails. E edits the failed step's line and runs
// it again; A runs the rest. An export of the session carries each
// step's view and diff. `open` on it lists the steps (H) and shows what
// one changed, with no browser.
func TestStepEditRetryAndStory(t *testing.T) {
	m, url := steppingModel(t,
		`{"action":"type","target":{"role":"textbox","name":"Username"},"text":"bob"}`,
		`{"action":"click","target":{"role":"button","name":"Log in"}}`,
		`{"action":"wait","for":{"text":"signed in as bob"}}`)
	if !strings.Contains(plainScreen(m), "step 1/3") {
		t.Fatalf("no step panel:\n%s", plainScreen(m))
	}
	press(t, m, k('A'))
	if m.step.i != 1 || m.step.last == nil || m.step.last.Success {
		t.Fatalf("A stopped at step %d (last %+v), want the failed step 2", m.step.i+1, m.step.last)
	}
	if s := plainScreen(m); !strings.Contains(s, "step 2 failed: NODE_NOT_FOUND") || !strings.Contains(s, `candidates: node_`) {
		t.Errorf("the failure and its near misses are not on screen:\n%s", s)
	}

	press(t, m, k('E'))
	p := m.prompt()
	if p == nil || p.input.Value() != `{"action":"click","target":{"role":"button","name":"Log in"}}` {
		t.Fatalf("E opened no prompt with the step's line: %+v", p)
	}
	p.input.SetValue(`{"action":"click","target":{"role":"button","name":"Sign"}`) // not JSON yet
	press(t, m, enterKey)
	if p := m.prompt(); p == nil || !strings.Contains(m.status.flash, "not complete") {
		t.Fatalf("a broken edit did not reopen the prompt (flash %q)", m.status.flash)
	}
	m.prompt().input.SetValue(`{"action":"click","target":{"role":"button","name":"Sign in"}}`)
	press(t, m, enterKey)
	if m.step.i != 2 {
		t.Fatalf("the edited step did not run: at step %d, flash %q", m.step.i+1, m.status.flash)
	}
	press(t, m, k('A'))
	if !m.step.done() {
		t.Fatalf("A did not finish: at step %d, flash %q", m.step.i+1, m.status.flash)
	}
	if got := pageValue(t, url, "document.getElementById('out').textContent"); got != "signed in as bob" {
		t.Errorf("the page says %q", got)
	}
	var b strings.Builder
	if err := m.rec.WriteScript(&b); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`{"action":"type","target":{"role":"textbox","name":"Username"},"text":"bob"}`,
		`# failed with NODE_NOT_FOUND`, `{"action":"click","target":{"role":"button","name":"Sign in"}}`, `{"action":"wait","for":{"text":"signed in as bob"}}`} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("the session's script lacks %s:\n%s", want, b.String())
		}
	}

	// export, then open the file with no browser
	exp := filepath.Join(t.TempDir(), "story.json")
	settle(t, m, m.export(exp))
	c, err := export.ReadCaptureFile(exp)
	if err != nil {
		t.Fatal(err)
	}
	log := c.SessionLog()
	if len(log) != 4 {
		t.Fatalf("the export carries %d steps, want 4", len(log))
	}
	if !strings.Contains(log[0].After, `textbox "Username" focused: bob`) || !containsLine(log[0].Diff, `+   [`, `textbox "Username" focused: bob`) {
		t.Errorf("step 1's view and diff: %q / %q", log[0].After, log[0].Diff)
	}
	if !log[1].Unchanged || !containsLine(log[2].Diff, "+ ", "signed in as bob") {
		t.Errorf("the failed step changed %q; the click's diff is %q", log[1].Diff, log[2].Diff)
	}
	o := newModel(context.Background(), Config{Saved: exp, NoColor: true, Theme: "dark", Now: func() time.Time { return fixedNow }})
	o.Update(tea.WindowSizeMsg{Width: 140, Height: 44})
	if err := o.openSaved("story.json", c); err != nil {
		t.Fatal(err)
	}
	press(t, o, k('H'))
	s := plainScreen(o)
	for _, want := range []string{"The session, step by step (4)", "✓ step 1:", "✗ step 2:", "NODE_NOT_FOUND", "no change in the view"} {
		if !strings.Contains(s, want) {
			t.Errorf("the story lacks %q:\n%s", want, s)
		}
	}
	press(t, o, downKey, downKey, enterKey)
	s = plainScreen(o)
	for _, want := range []string{"Step 3", `"name":"Sign in"`, "What changed in the flat view", "+ ", "signed in as bob", "The flat view after it"} {
		if !strings.Contains(s, want) {
			t.Errorf("step 3 of the story lacks %q:\n%s", want, s)
		}
	}
}

func containsLine(lines []string, prefix, part string) bool {
	for _, l := range lines {
		if strings.HasPrefix(l, prefix) && strings.Contains(l, part) {
			return true
		}
	}
	return false
}

func TestLineDiff(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want []string
	}{
		{"x\ny\n", "x\ny\n", nil},
		{"a\nb\nc", "a\nc", []string{"- b"}},
		{"a\nc", "a\nb\nc\nd", []string{"+ b", "+ d"}},
		{"", "a", []string{"+ a"}},
		{"a\nb", "b\na", []string{"- a", "+ a"}},
		{"a\nx\nc", "a\ny\nc", []string{"- x", "+ y"}}, // the old line before the new
	} {
		got := flatten.LineDiff(tc.a, tc.b)
		if strings.Join(got, "|") != strings.Join(tc.want, "|") {
			t.Errorf("LineDiff(%q, %q) = %q, want %q", tc.a, tc.b, got, tc.want)
		}
	}
}
