package tui

import (
	"encoding/base64"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"domscope/cdpconn/cdptest"
	"domscope/dom"
)

// A step-through session in a real terminal, as `domscope run --ui FILE
// --record FILE` runs it:
//   - a step runs.
//   - a withheld password is asked for in a masked prompt.
//   - a step with a wrong target fails with its near misses.
//   - its line is copied through OSC 52.
//   - the person signs in by hand, skips the broken step and runs the
//     last one.
//
// The script that comes out is the steps run plus the manual click, in
// order. The page signed in. The password is in no output.
func TestStepThroughFullProgram(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "signin.html"), []byte(signInPage), 0o644); err != nil {
		t.Fatal(err)
	}
	base, _ := cdptest.Serve(t, dir)
	work := t.TempDir()
	scriptPath := filepath.Join(work, "agent.jsonl")
	steps := []string{
		`{"action":"type","target":{"role":"textbox","name":"Username"},"text":"alice"}`,
		`{"action":"type","target":{"role":"textbox","name":"Password"},"text":"` + dom.Mask + `","comment":"value withheld"}`,
		`{"action":"click","target":{"role":"button","name":"Log in"}}`,
		`{"action":"wait","for":{"text":"signed in as alice"}}`,
	}
	if err := os.WriteFile(scriptPath, []byte("# an agent's log\n"+strings.Join(steps, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	recPath := filepath.Join(work, "session.jsonl")
	outDir := filepath.Join(work, "out")
	if err := os.Mkdir(outDir, 0o755); err != nil {
		t.Fatal(err)
	}
	secret := fmt.Sprintf("StepPw%06dSecret", time.Now().UnixNano()%1e6)

	tm := startTerm(t, base+"/signin.html", 150, 46, "DOMSCOPE_TUI_SCRIPT="+scriptPath, "DOMSCOPE_TUI_RECORD="+recPath, "DOMSCOPE_TUI_OUTDIR="+outDir)
	var screens []string
	seen := func(s string) string { screens = append(screens, s); return s }
	s := seen(tm.waitFor("step 1 and its target", 30*time.Second, func(s string) bool {
		return strings.Contains(s, "step 1/4") && strings.Contains(s, `target → node_`) && strings.Contains(s, `textbox "Username"`)
	}))
	if !strings.Contains(s, "Script agent.jsonl") || !strings.Contains(s, `▶ {"action":"type"`) {
		t.Fatalf("no step panel:\n%s", s)
	}

	tm.keys("a")
	seen(tm.waitFor("step 2", 30*time.Second, func(s string) bool {
		return strings.Contains(s, "step 2/4") && strings.Contains(s, "withheld when recorded")
	}))
	tm.keys("a")
	seen(tm.waitText("the value withheld when recorded", 5*time.Second))
	tm.text(secret)
	seen(tm.waitText("› "+strings.Repeat("•", len(secret)), 5*time.Second))
	tm.keys("Enter")

	// Step 3 aims at a button that is not there. The panel says so and
	// names what is, before and after running it.
	s = seen(tm.waitFor("step 3 with no target", 30*time.Second, func(s string) bool {
		return strings.Contains(s, "step 3/4") && strings.Contains(s, "target → nothing")
	}))
	if !strings.Contains(s, `button "Sign in"`) {
		t.Errorf("the near misses do not name the Sign in button:\n%s", s)
	}
	tm.keys("a")
	seen(tm.waitText("step 3 failed", 30*time.Second))

	// copy the current step (Y, its last item)
	tm.keys("Y")
	seen(tm.waitText("the script's current step", 5*time.Second))
	tm.keys("Down", "Down", "Down", "Down", "Enter")
	seen(tm.waitText("sent the step", 5*time.Second))

	// fix it by hand: select the real button and click it
	tm.keys("/", "C-u")
	tm.text("signin-btn")
	tm.keys("Enter")
	seen(tm.waitText("match 1 of", 10*time.Second))
	tm.keys("c")
	seen(tm.waitFor("the manual click", 30*time.Second, func(s string) bool {
		return strings.Contains(acted(s), "last action: click") && strings.Contains(s, "signed in as alice") && strings.Contains(s, "1 by hand")
	}))
	tm.keys("S")
	seen(tm.waitText("step 4/4", 10*time.Second))
	tm.keys("a")
	seen(tm.waitText("the script is done: 3 of 4 steps run, 1 skipped", 30*time.Second))
	tm.keys("w")
	seen(tm.waitText("wrote 5 steps to", 10*time.Second))
	tm.closeBox("Script written")

	// the page's own state, through a second connection
	if got := pageValue(t, base+"/signin.html", "document.getElementById('out').textContent"); got != "signed in as alice" {
		t.Errorf("the page says %q, want signed in as alice", got)
	}
	if got := pageValue(t, base+"/signin.html", "document.getElementById('pw').value"); got != secret {
		t.Errorf("the password field holds %q, want the value typed in the prompt", got)
	}
	tm.quit()

	rec, err := os.ReadFile(recPath)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(rec), "\n"), "\n")
	want := []string{
		"# recorded by domscope on " + base + "/signin.html (replay on a fresh load of it: domscope run --url URL FILE)",
		steps[0],
		steps[1],
		"# failed with NODE_NOT_FOUND: ",
		`{"action":"click","target":{"role":"button","name":"Sign in"}}`,
		steps[3],
	}
	if len(lines) != len(want) {
		t.Fatalf("the recorded script has %d lines, want %d:\n%s", len(lines), len(want), rec)
	}
	for i, w := range want {
		if i == 3 {
			if !strings.HasPrefix(lines[i], w) || !strings.HasSuffix(lines[i], "when recorded: "+steps[2]) {
				t.Errorf("line %d is %q, want the failed step as a comment", i+1, lines[i])
			}
			continue
		}
		if lines[i] != w {
			t.Errorf("line %d is\n%s\nwant\n%s", i+1, lines[i], w)
		}
	}
	written := []byte(writtenScript(t, outDir))
	if string(written) != string(rec) {
		t.Errorf("w and --record differ:\n%s\n---\n%s", written, rec)
	}

	raw, err := os.ReadFile(tm.raw)
	if err != nil {
		t.Fatal(err)
	}
	seqs := regexp.MustCompile(`\x1b\]52;c;([A-Za-z0-9+/=]*)(?:\x07|\x1b\\)`).FindAllSubmatch(raw, -1)
	if len(seqs) != 1 {
		t.Fatalf("%d OSC 52 sequences in the terminal output, want 1", len(seqs))
	}
	if got, err := base64.StdEncoding.DecodeString(string(seqs[0][1])); err != nil || string(got) != steps[2] {
		t.Errorf("copied %q (%v), want the step's line %s", got, err, steps[2])
	}
	for name, b := range map[string][]byte{"terminal output": raw, "--record": rec, "w's script": written} {
		if strings.Contains(string(b), secret) || strings.Contains(string(b), secret[:len(secret)/2]) {
			t.Errorf("the %s holds the password", name)
		}
	}
	for i, s := range screens {
		if strings.Contains(s, secret[:len(secret)/2]) {
			t.Errorf("screen %d shows the password:\n%s", i, s)
		}
	}
}
