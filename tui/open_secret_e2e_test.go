package tui

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"domscope/dom"
	"domscope/dom/export"
)

// editedExport records a sign-in in the UI on the real page and exports
// it. Then it edits the export as a hand or another program could have
// written it. The password step holds plain text in its line, its
// description and the views after it. It returns the file and the plain
// text.
func editedExport(t *testing.T) (string, string) {
	t.Helper()
	out := t.TempDir()
	m := recordingModel(t, filepath.Join(t.TempDir(), "r.jsonl"), out)
	selectAttrID(t, m, "user")
	press(t, m, k('t'))
	typeText(t, m, "alice")
	press(t, m, enterKey)
	selectAttrID(t, m, "pw")
	press(t, m, k('t'))
	typeText(t, m, "typed-pw")
	press(t, m, enterKey)
	selectAttrID(t, m, "go")
	press(t, m, k('c'))
	press(t, m, k('e'))
	press(t, m, enterKey)
	exports, _ := filepath.Glob(filepath.Join(out, "*.json.gz"))
	if len(exports) != 1 {
		t.Fatalf("exports: %v (flash %q)", exports, m.status.flash)
	}

	plain := fmt.Sprintf("EditedPw%06dX", time.Now().UnixNano()%1e6)
	var doc map[string]any
	if err := json.Unmarshal(readExport(t, exports[0]), &doc); err != nil {
		t.Fatal(err)
	}
	session, _ := doc["session"].([]any)
	if len(session) != 3 {
		t.Fatalf("the export carries %d steps, want 3", len(session))
	}
	// Every mask in the log becomes the text. That is the step, its
	// description, the views after it and the changes in its result.
	for i, s := range session {
		session[i] = unmask(s, plain)
	}
	if line := session[1].(map[string]any)["step"].(map[string]any); line["text"] != plain {
		t.Fatalf("the password step is %v", line)
	} else {
		delete(line, "comment")
	}
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	if err := json.NewEncoder(zw).Encode(doc); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(out, "edited.json.gz")
	if err := os.WriteFile(path, b.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(readExport(t, path)), plain); n < 3 {
		t.Fatalf("the edited export holds the plain text %d times; the test would prove nothing", n)
	}
	return path, plain
}

// unmask puts plain in place of every mask in the strings of v.
func unmask(v any, plain string) any {
	switch v := v.(type) {
	case string:
		return strings.ReplaceAll(v, dom.Mask, plain)
	case []any:
		for i := range v {
			v[i] = unmask(v[i], plain)
		}
	case map[string]any:
		for k := range v {
			v[k] = unmask(v[k], plain)
		}
	}
	return v
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestOpenRemasksTypedSecret: an export's session log holds, in plain,
// text typed into a password field. It is in the step, description and
// views. Opening masks it again. The log the story (H) renders, the
// story's list and every step shown hold only the mask. The Username
// typed stays. Then the same runs under the real program (open, H, each
// step). Everything it wrote to the terminal is checked.
func TestOpenRemasksTypedSecret(t *testing.T) {
	path, plain := editedExport(t)

	c, err := export.ReadCaptureFile(path)
	if err != nil {
		t.Fatal(err)
	}
	om := newModel(context.Background(), Config{Saved: path, NoColor: true, Now: func() time.Time { return fixedNow }})
	if err := om.openSaved(filepath.Base(path), c); err != nil {
		t.Fatal(err)
	}
	om.Update(tea.WindowSizeMsg{Width: 160, Height: 44})
	log := om.sessionLog()
	if s := mustJSON(t, log); strings.Contains(s, plain) || !strings.Contains(s, `"text":"alice"`) {
		t.Errorf("the session log on open holds the password or lost the username: %s", s)
	}
	press(t, om, k('H'))
	story, ok := om.top().(*storyLayer)
	if !ok {
		t.Fatalf("H opened %T", om.top())
	}
	for i, s := range story.log {
		if s := plainScreen(om); strings.Contains(s, plain) {
			t.Errorf("the story shows the password:\n%s", s)
		}
		om.push(newStoryStepLayer(om.layerCtx(), i, s))
		if s := plainScreen(om); strings.Contains(s, plain) {
			t.Errorf("story step %d shows the password:\n%s", i+1, s)
		}
		om.pop(om.top())
	}

	// the real program
	needTmux(t)
	bin := filepath.Join(t.TempDir(), "domscope")
	if out, err := exec.Command("go", "build", "-o", bin, "domscope").CombinedOutput(); err != nil {
		t.Fatalf("building domscope: %v\n%s", err, out)
	}
	tm := startTermCmd(t, "env TERM=xterm-256color "+shellQuote(bin)+" open "+shellQuote(path)+"; sleep 60", 160, 44)
	tm.waitText("saved capture", 30*time.Second)
	tm.keys("H")
	tm.waitText("The session, step by step", 10*time.Second)
	for i := 0; i < 3; i++ {
		tm.keys("Enter")
		tm.waitText(fmt.Sprintf("Step %d", i+1), 10*time.Second)
		tm.keys("Escape", "Down")
	}
	tm.keys("Escape", "q")
	raw, err := os.ReadFile(tm.raw)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(raw, []byte(plain)) {
		t.Errorf("domscope open wrote the password to the terminal")
	}
	if !bytes.Contains(raw, []byte("alice")) {
		t.Errorf("the terminal never showed the username typed (did the story render?)")
	}
}
