package tui

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"domscope/cdpconn/cdptest"
	"domscope/dom/demo"
)

// / lands on the node a person means. On Vue's TodoMVC, /Active selects
// the filter link named "Active". It does not select a.router-link-active
// (the link named "todos") through its class. The footer says how it
// matched.
func TestSearchRankingTodoMVCFullProgram(t *testing.T) {
	dir := filepath.Join(cdptest.Shared(t), "corpus", "todomvc")
	base, _ := cdptest.Serve(t, dir)
	tm := startTerm(t, base+"/vue/index.html", 140, 44)
	tm.waitFor("the first snapshot", 30*time.Second, func(s string) bool {
		return strings.Contains(s, "textbox") && strings.Contains(s, "snapshot #")
	})
	tm.keys("/")
	tm.text("What needs")
	tm.keys("Enter")
	tm.waitText("· name prefix · “What needs”", 10*time.Second)
	tm.keys("t")
	tm.waitText("type into", 5*time.Second)
	tm.text("Buy milk")
	tm.keys("M-Enter")
	tm.waitFor("the todo and its filters", 30*time.Second, func(s string) bool {
		return strings.Contains(acted(s), "last action: type") && strings.Contains(s, `link "Active"`)
	})

	tm.keys("/", "C-u")
	tm.text("Active")
	tm.keys("Enter")
	s := tm.waitText("match 1 of", 10*time.Second)
	if !strings.Contains(s, "· name · “Active”") {
		t.Errorf("the footer does not say the match is by name:\n%s", s)
	}
	if !detailsHave(s, "· a · role link · \"Active\"") {
		t.Errorf("/Active did not select the link named Active:\n%s", s)
	}
	tm.quit()
}

// On a sign-in page /Email selects the textbox at its first match. Typing
// on a <label> types into its control, as Playwright's fill does. The
// page's own fields hold the text. A label of a password field masks what
// is typed on it everywhere. That covers the prompt, the screen, the
// terminal and the recording. The page gets it.
func TestSearchAndTypeOnLabelFullProgram(t *testing.T) {
	base, stop, err := demo.Serve()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stop)
	record := filepath.Join(t.TempDir(), "session.jsonl")
	tm := startTerm(t, base+"/signin.html", 140, 44, "DOMSCOPE_TUI_RECORD="+record)
	tm.waitFor("the sign-in page", 30*time.Second, func(s string) bool {
		return strings.Contains(s, "“Sign in · Acme”") && strings.Contains(s, "snapshot #")
	})
	var screens []string
	capture := func(s string) string { screens = append(screens, s); return s }

	tm.keys("/")
	tm.text("Email")
	tm.keys("Enter")
	s := tm.waitText("match 1 of", 10*time.Second)
	if !strings.Contains(s, "· name · “Email”") || !detailsHave(s, "input#email type=email · role textbox") {
		t.Errorf("/Email did not land on the textbox at its first match:\n%s", s)
	}

	// the labels with a for attribute, in document order: Email, Password
	tm.keys("/", "C-u")
	tm.text("LabelText")
	tm.keys("Enter")
	s = tm.waitText("match 1 of 2 · role", 10*time.Second)
	if !detailsHave(s, `for="email"`) {
		t.Fatalf("the first label is not the Email one:\n%s", s)
	}
	tm.keys("t")
	s = tm.waitText("type into", 5*time.Second)
	if strings.Contains(s, "sensitive") {
		t.Errorf("the Email label's prompt is masked:\n%s", s)
	}
	tm.text("ada@example.com")
	tm.keys("Enter")
	s = tm.waitFor("the typing", 30*time.Second, func(s string) bool { return strings.Contains(acted(s), "last action: type") })
	if !strings.Contains(s, "→ ok") {
		t.Errorf("typing on the Email label failed:\n%s", s)
	}
	if got := pageValue(t, "/signin.html", "document.getElementById('email').value"); got != "ada@example.com" {
		t.Errorf("typed on the Email label, the email field holds %q", got)
	}

	secret := fmt.Sprintf("LabelPw%06dSecret", time.Now().UnixNano()%1e6)
	tm.keys("n")
	s = tm.waitText("match 2 of 2 · role", 10*time.Second)
	if !detailsHave(s, `for="password"`) {
		t.Fatalf("the second label is not the Password one:\n%s", s)
	}
	tm.keys("t")
	capture(tm.waitText("(sensitive: masked)", 5*time.Second))
	tm.text(secret)
	capture(tm.waitText("› "+strings.Repeat("•", len(secret)), 5*time.Second))
	tm.keys("Enter")
	s = capture(tm.waitFor("the masked typing", 30*time.Second, func(s string) bool {
		return strings.Contains(acted(s), `last action: type "••••" on node_`) && strings.Contains(s, "→")
	}))
	if !strings.Contains(s, "→ ok") {
		t.Errorf("typing on the Password label failed:\n%s", s)
	}
	if got := pageValue(t, "/signin.html", "document.getElementById('password').value"); got != secret {
		t.Errorf("typed on the Password label, the password field holds %q", got)
	}
	tm.keys("H")
	capture(tm.waitText("••••", 5*time.Second))
	tm.keys("Escape")
	tm.quit()

	raw, err := os.ReadFile(tm.raw)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := os.ReadFile(record)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(rec), "ada@example.com") || !strings.Contains(string(rec), `"text":"••••"`) {
		t.Errorf("the recording lacks the two typings, the secret one masked:\n%s", rec)
	}
	for _, part := range []string{secret, secret[:len(secret)/2], secret[len(secret)/2:]} {
		for i, s := range screens {
			if strings.Contains(s, part) {
				t.Errorf("screen %d shows %q:\n%s", i, part, s)
			}
		}
		if strings.Contains(string(raw), part) {
			t.Errorf("the program wrote %q to the terminal", part)
		}
		if strings.Contains(string(rec), part) {
			t.Errorf("the recording holds %q", part)
		}
	}
}

// detailsHave reports whether the details pane of screen s holds text.
func detailsHave(s, text string) bool {
	_, details, ok := strings.Cut(s, "┌ Details")
	return ok && strings.Contains(details, text)
}
