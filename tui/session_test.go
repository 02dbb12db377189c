package tui

import (
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"domscope/cdpconn/cdptest"
	"domscope/dom"
	"domscope/dom/export"
	"domscope/dom/live"
	"domscope/dom/script"
)

const signInPage = `<!doctype html><html><head><meta charset="utf-8"><title>Sign in</title></head><body>
<main><h1>Sign in</h1>
<form onsubmit="event.preventDefault(); document.getElementById('out').textContent = 'signed in as ' + document.getElementById('user').value">
<label>Username <input id="user" name="user"></label>
<label>Password <input id="pw" type="password" name="pw"></label>
<button id="go" type="submit" data-testid="signin-btn">Sign in</button>
</form>
<p id="out"></p>
</main></body></html>`

// recordingModel is the UI on the sign-in page in the shared browser.
// --record goes to recPath and --output-dir is outDir.
func recordingModel(t *testing.T, recPath, outDir string) *Model {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "signin.html"), []byte(signInPage), 0o644); err != nil {
		t.Fatal(err)
	}
	base, _ := cdptest.Serve(t, dir)
	svc := live.NewService(cdptest.Page(t, base+"/signin.html"), live.Config{})
	t.Cleanup(func() { _ = svc.Close() })
	f, err := os.OpenFile(recPath, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = f.Close() })
	m := newModel(context.Background(), Config{Actor: svc, NoColor: true, Theme: "dark", NoHighlight: true,
		Record: f, OutputDir: outDir, Now: func() time.Time { return fixedNow }})
	m.Update(tea.WindowSizeMsg{Width: 140, Height: 40})
	settle(t, m, m.refresh(false, "first snapshot"))
	if m.doc.snap == nil {
		t.Fatal("no snapshot after start")
	}
	return m
}

func fileLines(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
}

// Actions done in the UI are recorded. --record grows by one line per
// action as it happens. w writes the session as a run script of role and
// name targets into the output directory. e's export carries the session
// log. A password typed into the page is in none of them.
func TestRecordSessionFromUI(t *testing.T) {
	out := t.TempDir()
	recPath := filepath.Join(t.TempDir(), "session.jsonl")
	m := recordingModel(t, recPath, out)
	secret := fmt.Sprintf("RecPw%06dSecret", time.Now().UnixNano()%1e6)

	selectAttrID(t, m, "user")
	press(t, m, k('t'))
	typeText(t, m, "alice")
	press(t, m, enterKey)
	if got := fileLines(t, recPath); len(got) != 2 || !strings.HasPrefix(got[0], "# recorded by domscope on ") {
		t.Fatalf("--record after one action holds %q, want the header and one step", got)
	}
	selectAttrID(t, m, "pw")
	press(t, m, k('t'))
	typeText(t, m, secret)
	press(t, m, enterKey)
	if got := fileLines(t, recPath); len(got) != 3 {
		t.Fatalf("--record after two actions holds %d lines: %q", len(got), got)
	}
	selectAttrID(t, m, "go")
	press(t, m, k('c'))
	rec := fileLines(t, recPath)
	if len(rec) != 4 {
		t.Fatalf("--record after three actions holds %d lines: %q", len(rec), rec)
	}
	// the page did get the password and signed in
	var signed bool
	dom.Walk(m.doc.snap.Root, func(n *dom.VirtualNode) {
		signed = signed || (n.NodeType == dom.TextNode && strings.Contains(n.Text, "signed in as alice"))
	})
	if !signed {
		t.Fatalf("the page did not sign in (flash %q)", m.status.flash)
	}

	press(t, m, k('w'))
	if !strings.Contains(m.status.flash, "wrote 3 steps to "+out) {
		t.Fatalf("w says %q, want where the script went", m.status.flash)
	}
	written := writtenScript(t, out)
	for _, want := range []string{
		`{"action":"type","target":{"role":"textbox","name":"Username"},"text":"alice"}`,
		`"target":{"role":"textbox","name":"Password"},"text":"` + dom.Mask,
		`{"action":"click","target":{"role":"button","name":"Sign in"}}`,
	} {
		if !strings.Contains(written, want) {
			t.Errorf("the script lacks %s:\n%s", want, written)
		}
	}
	if strings.Contains(written, secret) || strings.Contains(written, "node_") {
		t.Errorf("the script holds the password or a node id:\n%s", written)
	}
	if got := strings.Join(rec, "\n") + "\n"; got != written {
		t.Errorf("--record and w differ:\n%s\n---\n%s", got, written)
	}

	press(t, m, escKey, k('e'))
	if p := m.prompt(); p == nil || !strings.HasPrefix(p.input.Value(), out+string(filepath.Separator)) {
		t.Fatalf("the export prompt does not start in the output dir %s", out)
	}
	press(t, m, enterKey)
	exports, _ := filepath.Glob(filepath.Join(out, "*.json.gz"))
	if len(exports) != 1 {
		t.Fatalf("exports in the output dir: %v (flash %q)", exports, m.status.flash)
	}
	raw := readExport(t, exports[0])
	if strings.Contains(string(raw), secret) {
		t.Fatal("the export holds the password")
	}
	c, err := export.ReadCaptureFile(exports[0])
	if err != nil {
		t.Fatal(err)
	}
	log := c.SessionLog()
	steps, err := script.SessionSteps(log)
	if err != nil || len(steps) != 3 {
		t.Fatalf("the export's session log: %d steps, %v", len(steps), err)
	}
	if q := steps[2].Target; steps[2].Action != "click" || q == nil || q.Role != "button" || q.Name != "Sign in" {
		t.Errorf("the export's last step is %+v", steps[2])
	}
	if steps[1].Text != dom.Mask || !strings.Contains(log[1].Desc, dom.Mask) || log[2].Result == nil || !log[2].Result.Success {
		t.Errorf("the export's password step: %+v, desc %q", steps[1], log[1].Desc)
	}
}

// Y's chooser copies the selected node's run target and CSS selector.
func TestCopyChooser(t *testing.T) {
	m := recordingModel(t, filepath.Join(t.TempDir(), "r.jsonl"), t.TempDir())
	selectAttrID(t, m, "go")
	for _, tc := range []struct{ item, want string }{
		{copyTarget, `{"role":"button","name":"Sign in"}`},
		{copyCSS, "#go"},
		{copyLine, `button "Sign in"`},
	} {
		press(t, m, k('Y'))
		l, ok := m.top().(*copyLayer)
		if !ok {
			t.Fatal("Y opened no chooser")
		}
		l.selectKey(tc.item)
		_, cmd := m.Update(enterKey)
		msgs := runCmd(cmd, 5*time.Second)
		got := ""
		for _, msg := range msgs {
			if s := fmt.Sprint(msg); s != "" && strings.Contains(fmt.Sprintf("%T", msg), "setClipboardMsg") {
				got = s
			}
		}
		if !strings.Contains(got, tc.want) {
			t.Errorf("%s: copied %q, want %q (flash %q)", tc.item, got, tc.want, m.status.flash)
		}
		if !strings.HasPrefix(m.status.flash, "sent ") || !strings.Contains(m.status.flash, "OSC 52") {
			t.Errorf("%s: no confirmation: %q", tc.item, m.status.flash)
		}
	}
}

// y copies the selected node's line through OSC 52. The program writes
// the sequence with the line in base64 to the terminal. It says it sent
// it, and what the terminal (here tmux) needs for it to arrive.
func TestCopyLineOSC52(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "signin.html"), []byte(signInPage), 0o644); err != nil {
		t.Fatal(err)
	}
	base, _ := cdptest.Serve(t, dir)
	tm := startTerm(t, base+"/signin.html", 140, 40)
	tm.waitFor("the first snapshot", 30*time.Second, func(s string) bool {
		return strings.Contains(s, "“Sign in”") && strings.Contains(s, "snapshot #")
	})
	tm.keys("/", "C-u")
	tm.text("signin-btn")
	tm.keys("Enter")
	tm.waitText("match 1 of", 10*time.Second)
	tm.keys("y")
	s := tm.waitText("sent the line to the clipboard by OSC 52", 5*time.Second)
	if !strings.Contains(s, "tmux needs set -g set-clipboard on") {
		t.Errorf("the footer does not say what tmux needs for the copy to arrive:\n%s", s)
	}
	tm.quit()
	raw, err := os.ReadFile(tm.raw)
	if err != nil {
		t.Fatal(err)
	}
	seqs := regexp.MustCompile(`\x1b\]52;c;([A-Za-z0-9+/=]*)(?:\x07|\x1b\\)`).FindAllSubmatch(raw, -1)
	if len(seqs) != 1 {
		t.Fatalf("%d OSC 52 sequences in the terminal output (%d bytes), want 1", len(seqs), len(raw))
	}
	got, err := base64.StdEncoding.DecodeString(string(seqs[0][1]))
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`^\[\d+\] button "Sign in"$`).Match(got) {
		t.Errorf("copied %q, want the button's flat line", got)
	}
	if !strings.Contains(s, string(got)) {
		t.Errorf("the copied line %q is not the one on screen:\n%s", got, s)
	}
}

// readExport is an export file's JSON, uncompressed: a secret must not be
// found in it. The compressed bytes would hide it.
func readExport(t *testing.T, path string) []byte {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(raw, []byte{0x1f, 0x8b}) {
		t.Fatalf("%s is not gzip-compressed", path)
	}
	r, err := export.ExportReader(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// writtenScript is the one script w wrote into dir.
func writtenScript(t *testing.T, dir string) string {
	t.Helper()
	scripts, _ := filepath.Glob(filepath.Join(dir, "*.script"))
	if len(scripts) != 1 {
		t.Fatalf("scripts in %s: %v, want the one w wrote", dir, scripts)
	}
	b, err := os.ReadFile(scripts[0])
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
