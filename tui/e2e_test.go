package tui

import (
	"context"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"domscope/cdpconn/cdptest"
	"domscope/dom/build"
	"domscope/dom/flatten"
)

// The whole program in a real terminal against real Chromium. Find the
// new-todo textbox with search and type a todo with Enter. See it in both
// panes after the automatic re-snapshot. Switch a flatten rule and see
// the flat pane change. Quit and find the terminal restored.
func TestTodoMVCFullProgram(t *testing.T) {
	dir := filepath.Join(cdptest.Shared(t), "corpus", "todomvc")
	base, _ := cdptest.Serve(t, dir)
	tm := startTerm(t, base+"/react/index.html", 140, 44)
	tm.waitFor("the first snapshot", 30*time.Second, func(s string) bool {
		return strings.Contains(s, "snapshot #") && strings.Contains(s, "tokens") && !strings.Contains(s, "first snapshot")
	})
	s := tm.screen()
	if !strings.Contains(s, "● live") {
		t.Fatalf("no connection state on screen:\n%s", s)
	}

	// search for the new-todo textbox
	tm.keys("/")
	tm.text("new-todo")
	tm.keys("Enter")
	s = tm.waitText("match 1 of", 5*time.Second)
	if !strings.Contains(s, "input.new-todo") || !strings.Contains(s, "role textbox") {
		t.Fatalf("search did not select the new-todo textbox:\n%s", s)
	}

	// type a todo and press Enter in the page (alt+enter in the prompt)
	tm.keys("t")
	tm.waitText("type into", 5*time.Second)
	tm.text("buy oat milk")
	tm.keys("M-Enter")
	s = tm.waitFor("the todo in both panes", 30*time.Second, func(s string) bool {
		l, r := columns(s, computeScreen(140, 44).flat.x)
		return strings.Contains(acted(s), "last action: type") && strings.Contains(l, "buy oat milk") && strings.Contains(r, "buy oat milk")
	})
	if !strings.Contains(s, `type "buy oat milk\n" on node_`) || !strings.Contains(s, "→ ok") {
		t.Errorf("details do not show the action result:\n%s", s)
	}
	if !strings.Contains(s, "added") {
		t.Errorf("no change summary after the action:\n%s", s)
	}

	// switch hoist-structural off: the flat view changes with no capture
	before := tokensOf(t, s)
	tm.keys("x")
	tm.waitText("Flatten rules", 5*time.Second)
	downs := len(build.TierRules())
	for i, r := range flatten.FlattenRules() {
		if r.Name == "hoist-structural" {
			downs += i
		}
	}
	for i := 0; i < downs; i++ {
		tm.keys("Down")
	}
	tm.keys("Space")
	s = tm.waitText("[ ] off hoist-structural", 5*time.Second)
	after := tokensOf(t, s)
	if after == before {
		t.Errorf("token count unchanged (%s) after switching hoist-structural off", before)
	}
	tm.keys("Escape")
	tm.quit()
}

// A hostile page's title, names, text and attributes carry escape
// sequences and control characters. None of them reaches the terminal.
func TestHostilePageFullProgram(t *testing.T) {
	dir := t.TempDir()
	page := `<!doctype html><html><head><meta charset="utf-8"><title>x</title></head><body>
<button id="b" data-evil="">Press</button><p id="p">para</p><a href="#" id="a">link</a>
<script>
const E = "\x1b]52;c;SE9TVElMRQ==\x07\x1b[2J\x1b[38;5;199mPINK\u009b1m\x07B\x08\x00\r\n\u202eRTL";
document.title = "HostileTitle" + E;
const b = document.getElementById("b");
b.textContent = "HostileButton" + E;
b.setAttribute("data-evil", E);
b.setAttribute("aria-label", "HostileLabel" + E);
document.getElementById("p").textContent = "HostileText wide 日本語 e\u0301" + E;
document.getElementById("a").textContent = "Link" + E;
</script></body></html>`
	if err := os.WriteFile(filepath.Join(dir, "hostile.html"), []byte(page), 0o644); err != nil {
		t.Fatal(err)
	}
	base, _ := cdptest.Serve(t, dir)
	tm := startTerm(t, base+"/hostile.html", 140, 44)
	s := tm.waitFor("the hostile page", 30*time.Second, func(s string) bool {
		return strings.Contains(s, "HostileLabel") && strings.Contains(s, "tokens")
	})
	if !strings.Contains(s, "日本語") {
		t.Errorf("wide text lost:\n%s", s)
	}
	// move around, open the details of every node, switch formats
	for i := 0; i < 12; i++ {
		tm.keys("Down")
	}
	tm.keys("f", "Tab", "Down", "Down", "Tab", "?", "Escape", "d", "Escape")
	time.Sleep(300 * time.Millisecond)
	s = tm.screen()
	if !strings.Contains(s, "HostileTitle") {
		t.Errorf("the title is not shown at all:\n%s", s)
	}
	if buf, err := osexec(tm.socket, "show-buffer"); err == nil && strings.Contains(buf, "HOSTILE") {
		t.Errorf("the page set the clipboard through OSC 52: %q", buf)
	}
	if title := tm.format("#{pane_title}"); strings.ContainsAny(title, "\x1b\x07") {
		t.Errorf("pane title carries controls: %q", title)
	}
	tm.quit()
	raw, err := os.ReadFile(tm.raw)
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"\x1b]52;", "\x1b[38;5;199m", "\xc2\x9b", "\x07B\x08", "\u202e", "SE9TVElMRQ==\x07"} {
		if strings.Contains(string(raw), bad) {
			t.Errorf("the program wrote the page's %q to the terminal", bad)
		}
	}
	if !strings.Contains(string(raw), "HostileButton") {
		t.Errorf("raw output capture did not work (no page text in %d bytes)", len(raw))
	}
}

// A click opens a JavaScript confirm. The dialog shows its text, y
// accepts it, and the page's answer shows in the next snapshot.
func TestDialogFullProgram(t *testing.T) {
	dir := t.TempDir()
	page := `<!doctype html><html><head><meta charset="utf-8"><title>waiting</title></head><body>
<button onclick="document.title = 'answer: ' + confirm('Delete everything?')">Delete all</button>
</body></html>`
	if err := os.WriteFile(filepath.Join(dir, "dialog.html"), []byte(page), 0o644); err != nil {
		t.Fatal(err)
	}
	base, _ := cdptest.Serve(t, dir)
	tm := startTerm(t, base+"/dialog.html", 120, 40)
	tm.waitText("“waiting”", 30*time.Second)
	tm.waitText(`button "Delete all"`, 10*time.Second)
	tm.keys("c")
	s := tm.waitText("JavaScript confirm", 15*time.Second)
	if !strings.Contains(s, "Delete everything?") {
		t.Fatalf("dialog text not shown:\n%s", s)
	}
	tm.keys("y")
	tm.waitText("“answer: true”", 15*time.Second)
	tm.quit()
}

// T lists the browser's tabs and attaches to the one picked.
func TestTabPickerFullProgram(t *testing.T) {
	dir := t.TempDir()
	for name, title := range map[string]string{"one.html": "First tab", "two.html": "Second tab"} {
		page := `<!doctype html><html><head><title>` + title + `</title></head><body><button>` + title + ` button</button></body></html>`
		if err := os.WriteFile(filepath.Join(dir, name), []byte(page), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	base, _ := cdptest.Serve(t, dir)
	cdptest.Page(t, base+"/two.html") // another tab of the same browser
	tm := startTerm(t, base+"/one.html", 120, 40)
	tm.waitText("“First tab”", 30*time.Second)
	tm.keys("T")
	s := tm.waitText("Tabs · pick one", 10*time.Second)
	if !strings.Contains(s, "Second tab") {
		t.Fatalf("tab list lacks the other tab:\n%s", s)
	}
	// the picker opens on the tab shown now
	if cur := lineWith(s, "▶"); !strings.Contains(cur, "First tab") {
		t.Fatalf("the picker does not start on the current tab: %q\n%s", cur, s)
	}
	// Move the cursor toward the second tab's row one step at a time;
	// other tests' tabs may be listed too. Each step is confirmed on
	// screen, since a loaded machine draws late.
	down := true
	for i := 0; i < 60; i++ {
		s := tm.screen()
		cur := lineWith(s, "▶")
		if strings.Contains(cur, "Second tab") {
			break
		}
		// Toward the second tab when it is on screen. Else down, and up
		// once the cursor stops at the last row.
		if target := rowWith(s, "Second tab"); target >= 0 {
			down = target > rowWith(s, "▶")
		}
		step := "Up"
		if down {
			step = "Down"
		}
		tm.keys(step)
		moved := false
		for end := time.Now().Add(5 * time.Second); time.Now().Before(end) && !moved; time.Sleep(100 * time.Millisecond) {
			moved = lineWith(tm.screen(), "▶") != cur
		}
		if !moved {
			down = !down
		}
	}
	if cur := lineWith(tm.screen(), "▶"); !strings.Contains(cur, "Second tab") {
		t.Fatalf("cursor not on the second tab: %q\n%s", cur, tm.screen())
	}
	tm.keys("Enter")
	tm.waitText("“Second tab”", 15*time.Second)
	tm.waitText(`button "Second tab button"`, 15*time.Second)
	tm.quit()
}

// isTabRow tells a tab picker's row from a pane's; it shows the tab's
// URL. Another test's blank tab is listed as about:blank.
func isTabRow(l string) bool {
	return strings.Contains(l, "http") || strings.Contains(l, "about:")
}

// rowWith is the row of lineWith's line, -1 when there is none.
func rowWith(screen, mark string) int {
	for i, l := range strings.Split(screen, "\n") {
		if strings.Contains(l, mark) && isTabRow(l) {
			return i
		}
	}
	return -1
}

func lineWith(screen, mark string) string {
	for _, l := range strings.Split(screen, "\n") {
		if strings.Contains(l, mark) && isTabRow(l) {
			return l
		}
	}
	return ""
}

// When the tab goes away under the UI, the header says so. Actions fail
// with a clear message instead of hanging.
func TestLostTabFullProgram(t *testing.T) {
	dir := t.TempDir()
	page := `<!doctype html><html><head><title>Doomed tab</title></head><body><button>Press</button></body></html>`
	if err := os.WriteFile(filepath.Join(dir, "doomed.html"), []byte(page), 0o644); err != nil {
		t.Fatal(err)
	}
	base, _ := cdptest.Serve(t, dir)
	tm := startTerm(t, base+"/doomed.html", 120, 40)
	tm.waitText("“Doomed tab”", 30*time.Second)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	ts, err := cdptest.Browser(t).Targets(ctx)
	if err != nil {
		t.Fatal(err)
	}
	closed := false
	for _, tg := range ts {
		if strings.HasSuffix(tg.URL, "/doomed.html") {
			// close it the way a user would, from outside our connection
			u, err := url.Parse(cdptest.Browser(t).WebSocketURL())
			if err != nil {
				t.Fatal(err)
			}
			resp, err := http.Get("http://" + u.Host + "/json/close/" + tg.ID)
			if err != nil {
				t.Fatalf("closing the tab: %v", err)
			}
			resp.Body.Close()
			closed = true
		}
	}
	if !closed {
		t.Fatal("the UI's tab is not in the browser's target list")
	}
	tm.waitFor("the lost state", 20*time.Second, func(s string) bool {
		return strings.Contains(s, "page lost") || strings.Contains(s, "reconnecting")
	})
	tm.keys("c")
	s := tm.waitFor("the click to fail clearly", 20*time.Second, func(s string) bool {
		return strings.Contains(acted(s), "last action: click") && !strings.Contains(s, "→ ok")
	})
	if !strings.Contains(s, "NOT_ATTACHED") && !strings.Contains(s, "TARGET_NOT_FOUND") && !strings.Contains(s, "CDP_ERROR") {
		t.Errorf("no error code for the click on a closed tab:\n%s", s)
	}
	tm.quit()
}
