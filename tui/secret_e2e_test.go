package tui

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"domscope/cdpconn/cdptest"
)

// A secret typed into a password field, and into a type=text field marked
// autocomplete=new-password, never reaches the terminal. Not while it is
// typed, not in the details pane after, not in the export. The page gets it.
func TestTypedSecretFullProgram(t *testing.T) {
	dir := t.TempDir()
	page := `<!doctype html><html><head><meta charset="utf-8"><title>Secret form</title></head><body>
<main><h1>Account</h1>
<input id="secretpw" type="password" aria-label="Password">
<input id="showpw" type="text" autocomplete="new-password" aria-label="New password">
</main></body></html>`
	if err := os.WriteFile(filepath.Join(dir, "secret.html"), []byte(page), 0o644); err != nil {
		t.Fatal(err)
	}
	base, _ := cdptest.Serve(t, dir)
	tm := startTerm(t, base+"/secret.html", 140, 44)
	tm.waitFor("the first snapshot", 30*time.Second, func(s string) bool {
		return strings.Contains(s, "“Secret form”") && strings.Contains(s, "snapshot #")
	})
	uniq := time.Now().UnixNano() % 1e6
	secrets := map[string]string{
		"secretpw": fmt.Sprintf("UiPw%06dSecret", uniq),
		"showpw":   fmt.Sprintf("UiNew%06dSecret", uniq),
	}
	var screens []string
	capture := func() string {
		s := tm.screen()
		screens = append(screens, s)
		return s
	}
	for _, id := range []string{"secretpw", "showpw"} {
		secret := secrets[id]
		tm.keys("/", "C-u") // the prompt starts with the last query
		tm.text(id)
		tm.keys("Enter")
		s := tm.waitText("match 1 of", 10*time.Second)
		if !strings.Contains(s, "input#"+id) {
			t.Fatalf("search did not select input#%s:\n%s", id, s)
		}
		tm.keys("t")
		tm.waitText("type into", 5*time.Second)
		half := len(secret) / 2
		tm.text(secret[:half])
		capture()
		tm.waitText("› "+strings.Repeat("•", half), 5*time.Second)
		tm.text(secret[half:])
		s = tm.waitText("› "+strings.Repeat("•", len(secret)), 5*time.Second)
		screens = append(screens, s)
		tm.keys("Enter")
		s = tm.waitFor("the typing to finish", 30*time.Second, func(s string) bool {
			return strings.Contains(acted(s), "last action: type") && strings.Contains(s, "on node_") && strings.Contains(s, "→")
		})
		screens = append(screens, s)
		if !strings.Contains(acted(s), `last action: type "••••" on node_`) || !strings.Contains(s, "→ ok") {
			t.Errorf("details pane does not show the masked typing as done:\n%s", s)
		}
		// look around: the details of the field, the flat pane, its json
		tm.keys("Tab", "f")
		time.Sleep(300 * time.Millisecond)
		capture()
		tm.keys("f", "Tab")
		time.Sleep(300 * time.Millisecond)
		capture()
	}

	exp := filepath.Join(t.TempDir(), "export.json.gz")
	tm.export(exp)
	capture()
	tm.waitText("saved this capture to", 15*time.Second)
	capture()
	tm.closeBox("Capture saved")

	// The page holds what was typed. The masking is in the UI only.
	for id, secret := range secrets {
		if got := pageValue(t, "/secret.html", "document.getElementById('"+id+"').value"); got != secret {
			t.Errorf("#%s holds %q, want the typed secret", id, got)
		}
	}
	tm.quit()

	raw, err := os.ReadFile(tm.raw)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(raw), "Secret form") {
		t.Fatalf("raw output capture did not work (%d bytes)", len(raw))
	}
	b := readExport(t, exp)
	var c struct{ LastActionDesc string }
	if err := json.Unmarshal(b, &c); err != nil || !strings.HasPrefix(c.LastActionDesc, `type "••••" on node_`) {
		t.Errorf("export lastActionDesc %q (%v)", c.LastActionDesc, err)
	}
	for id, secret := range secrets {
		for _, part := range []string{secret, secret[:len(secret)/2], secret[len(secret)/2:]} {
			for i, s := range screens {
				if strings.Contains(s, part) {
					t.Errorf("#%s: screen %d shows %q:\n%s", id, i, part, s)
				}
			}
			if strings.Contains(string(raw), part) {
				t.Errorf("#%s: the program wrote %q to the terminal", id, part)
			}
			if strings.Contains(string(b), part) {
				t.Errorf("#%s: the export holds %q", id, part)
			}
		}
	}
}

// pageValue evaluates expr in the shared browser's tab whose URL ends
// with suffix. It uses a connection of the test's own.
func pageValue(t *testing.T, suffix, expr string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	return evalInTab(ctx, t, cdptest.Browser(t), suffix, expr)
}
