package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"domscope/cdpconn/cdptest"
	"domscope/dom"
)

// mode is a file's permission bits.
func mode(t *testing.T, path string) os.FileMode {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Mode().Perm()
}

// TestSnapshotFilesArePrivate: snapshot --out and --screenshot write files
// only their owner can read. They narrow a file that was there before.
func TestSnapshotFilesArePrivate(t *testing.T) {
	ws := cdptest.Browser(t).WebSocketURL()
	base, _ := cdptest.Serve(t, pages)
	dir := t.TempDir()
	out, shot := filepath.Join(dir, "view.txt"), filepath.Join(dir, "shot.png")
	if err := os.WriteFile(out, []byte("STALE-VIEW-MARKER: a longer view that must go entirely\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, stderr, code := runCLI(t, "", "snapshot", "--endpoint", ws, "--url", base+"/semantic.html", "--out", out, "--screenshot", shot, "--marks")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, p := range []string{out, shot} {
		if m := mode(t, p); m != dom.PrivateMode {
			t.Errorf("%s: mode %v, want %v", filepath.Base(p), m, dom.PrivateMode)
		}
	}
	if b, _ := os.ReadFile(out); strings.Contains(string(b), "STALE-VIEW-MARKER") || !strings.Contains(string(b), "[") {
		t.Errorf("--out did not replace the old file with the view:\n%s", b)
	}
	if pngSize(t, shot).X == 0 {
		t.Error("empty screenshot")
	}
}

// shellWords splits a command line the way replayCommand quotes it.
// Spaces go between words, single quotes around a word with others.
func shellWords(s string) []string {
	var words []string
	var w strings.Builder
	in, any := false, false
	for _, r := range s {
		switch {
		case r == '\'':
			in, any = !in, true
		case r == ' ' && !in:
			if any {
				words = append(words, w.String())
			}
			w.Reset()
			any = false
		default:
			w.WriteRune(r)
			any = true
		}
	}
	if any {
		words = append(words, w.String())
	}
	return words
}

// TestUISessionFilesReplay runs the program's UI in a terminal on a
// --device window, with --record and --output-dir. The --record file was
// there before, readable by all. v and a click are recorded. w writes the
// script and prints the command that replays it; e exports. Every file is
// the owner's alone. The printed command, run as printed, replays the
// session on a fresh load.
func TestUISessionFilesReplay(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("CI is set and tmux is missing")
		}
		t.Skip("skipping: tmux is not installed")
	}
	ws := cdptest.Browser(t).WebSocketURL()
	base, _ := cdptest.Serve(t, pages)
	dir, outDir := t.TempDir(), t.TempDir()
	rec := filepath.Join(dir, "session.jsonl")
	if err := os.WriteFile(rec, []byte("# an earlier sitting\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	url := base + "/actions/basic.html?x=1&y=2"
	a, _ := json.Marshal([]string{"--endpoint", ws, "--url", url, "--device", "iPad Mini", "--record", rec, "--output-dir", outDir})
	socket := fmt.Sprintf("domscope-files-%d", os.Getpid())
	tmux := func(args ...string) string {
		t.Helper()
		out, err := exec.Command("tmux", append([]string{"-L", socket}, args...)...).CombinedOutput()
		if err != nil {
			t.Fatalf("tmux %v: %v: %s", args, err, out)
		}
		return string(out)
	}
	cmd := "env DOMSCOPE_CLI_ARGS='" + strings.ReplaceAll(string(a), "'", `'\''`) + "' TERM=xterm-256color " + os.Args[0] + " -test.run=^$; sleep 60"
	// wide enough for the whole replay command on the footer
	tmux("-f", "/dev/null", "new-session", "-d", "-s", "t", "-x", "600", "-y", "40", cmd)
	t.Cleanup(func() { _ = exec.Command("tmux", "-L", socket, "kill-server").Run() })
	waitFor := func(what string) string {
		t.Helper()
		var screen string
		for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
			screen = tmux("capture-pane", "-p", "-t", "t")
			if strings.Contains(screen, what) {
				return screen
			}
		}
		t.Fatalf("no %q on the screen:\n%s", what, screen)
		return ""
	}
	keys := func(k ...string) { tmux(append([]string{"send-keys", "-t", "t"}, k...)...) }

	waitFor("snapshot #1")
	waitFor("iPad Mini")
	keys("v")
	waitFor("viewport: iPhone 13")
	keys("/")
	keys("-l", "Click me")
	keys("Enter")
	waitFor("Click me")
	keys("c")
	waitFor(`Clicked 1`)
	keys("w")
	screen := strings.Split(strings.TrimRight(waitFor("replay it with:"), "\n"), "\n")
	// the footer holds the whole message at 600 columns; a box over the
	// panes holds it wrapped
	_, hint, _ := strings.Cut(screen[len(screen)-1], "replay it with:")
	hint = strings.TrimSpace(hint)
	keys("Escape")
	time.Sleep(300 * time.Millisecond)
	keys("e")
	time.Sleep(300 * time.Millisecond)
	keys("Enter")
	waitFor("saved this capture to")
	keys("Escape")
	time.Sleep(300 * time.Millisecond)
	keys("q")

	recLines := strings.Split(strings.TrimSpace(readFile(t, rec)), "\n")
	if len(recLines) != 4 || recLines[0] != "# an earlier sitting" || !strings.Contains(recLines[2], `"device":"iPhone 13"`) || !strings.Contains(recLines[3], `"action":"click"`) {
		t.Errorf("--record holds %q, want the earlier line, a header, the viewport and the click", recLines)
	}
	scripts, _ := filepath.Glob(filepath.Join(outDir, "*.script"))
	exports, _ := filepath.Glob(filepath.Join(outDir, "*.json.gz"))
	if len(scripts) != 1 || len(exports) != 1 {
		t.Fatalf("output dir holds scripts %v and exports %v", scripts, exports)
	}
	for _, p := range []string{rec, scripts[0], exports[0]} {
		if m := mode(t, p); m != dom.PrivateMode {
			t.Errorf("%s: mode %v, want %v", filepath.Base(p), m, dom.PrivateMode)
		}
	}

	words := shellWords(hint)
	want := []string{"domscope", "run", "--endpoint", ws, "--url", url, "--device", "iPad Mini", scripts[0]}
	if strings.Join(words, "\x00") != strings.Join(want, "\x00") {
		t.Fatalf("w's replay command is %q, want %q", hint, want)
	}
	stdout, stderr, code := runCLI(t, "", append(append(words[1:len(words)-1:len(words)-1], "--snapshots", "text"), words[len(words)-1])...)
	if code != 0 || strings.Count(stdout, `"success":true`) != 2 || !strings.Contains(stdout, `button "Clicked 1"`) {
		t.Errorf("the replay command: exit %d, stderr %s\n%s", code, stderr, stdout)
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
