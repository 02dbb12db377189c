package tui

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"domscope/cdpconn/cdptest"
	"domscope/dom/export"
	"domscope/dom/live"
	"domscope/dom/script"
)

// v's window changes are recorded like any action, with no recording
// error. Each is one viewport step in --record, w's script, H and the
// export. The script replays them on a fresh load (the page's own
// innerWidth).
func TestViewportKeyIsRecorded(t *testing.T) {
	out := t.TempDir()
	recPath := filepath.Join(t.TempDir(), "session.jsonl")
	m := recordingModel(t, recPath, out)
	want := []string{
		`{"action":"viewport","device":"iPad Mini"}`,
		`{"action":"viewport","device":"iPhone 13"}`,
		`{"action":"viewport"}`,
	}
	for i := range want {
		press(t, m, k('v'))
		if strings.Contains(m.status.flash, "recording") || m.status.flashBad {
			t.Fatalf("v #%d: %q", i+1, m.status.flash)
		}
	}
	rec := fileLines(t, recPath)
	if len(rec) != 1+len(want) || strings.Join(rec[1:], "\n") != strings.Join(want, "\n") {
		t.Fatalf("--record holds %q, want a header and %q", rec, want)
	}

	press(t, m, k('w'))
	written := writtenScript(t, out)
	if !strings.Contains(written, strings.Join(want, "\n")) {
		t.Errorf("w's script lacks the viewport steps:\n%s", written)
	}

	press(t, m, escKey, k('H'))
	story := plainScreen(m)
	for _, s := range []string{"viewport iPad Mini (768x1024", "viewport iPhone 13 (390x844", "viewport the browser's own window"} {
		if !strings.Contains(story, s) {
			t.Errorf("H lacks %q:\n%s", s, story)
		}
	}
	press(t, m, escKey)

	press(t, m, k('e'))
	press(t, m, enterKey)
	exports, _ := filepath.Glob(filepath.Join(out, "*.json.gz"))
	if len(exports) != 1 {
		t.Fatalf("exports: %v (flash %q)", exports, m.status.flash)
	}
	c, err := export.ReadCaptureFile(exports[0])
	if err != nil {
		t.Fatal(err)
	}
	steps, err := script.SessionSteps(c.SessionLog())
	if err != nil || len(steps) != 3 || steps[0].Device != "iPad Mini" || steps[1].Device != "iPhone 13" || steps[2].Action != "viewport" {
		t.Errorf("the export's session: %+v, %v", steps, err)
	}

	// Replay all but the last step (back to desktop) on a fresh load.
	u := m.doc.snap.URL
	p := cdptest.Page(t, u)
	svc := live.NewService(p, live.Config{})
	t.Cleanup(func() { _ = svc.Close() })
	var res bytes.Buffer
	lines := strings.Split(strings.TrimSuffix(written, "\n"), "\n")
	if err := script.Run(context.Background(), svc, strings.NewReader(strings.Join(lines[:len(lines)-1], "\n")), &res, script.Options{}); err != nil {
		t.Fatalf("replay: %v\n%s", err, res.String())
	}
	var r struct {
		Result struct{ Value string } `json:"result"`
	}
	// innerWidth is 980 on a phone for a page with no meta viewport.
	expr := `screen.width + "x" + screen.height + " " + /iPhone/.test(navigator.userAgent)`
	if err := p.Call(context.Background(), "Runtime.evaluate", map[string]any{"expression": expr, "returnByValue": true}, &r); err != nil {
		t.Fatal(err)
	}
	if r.Result.Value != "390x844 true" {
		t.Errorf("after the replay the page's screen and iPhone agent are %q, want the iPhone 13's \"390x844 true\":\n%s", r.Result.Value, res.String())
	}
}
