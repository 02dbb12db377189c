package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"domscope/cdpconn/cdptest"
)

// A prompt() is answered with the user's own text, and the page gets it.
// The page writes it into a heading that the next snapshot shows.
func TestPromptAnsweredWithTypedTextFullProgram(t *testing.T) {
	dir := t.TempDir()
	page := `<!doctype html><html><head><meta charset="utf-8"><title>Ask</title></head><body>
<button id="ask" onclick="const a = prompt('Your name?', 'anonymous'); document.getElementById('out').textContent = 'Hello, ' + a + '!'">Ask my name</button>
<h1 id="out">nobody yet</h1></body></html>`
	if err := os.WriteFile(filepath.Join(dir, "ask.html"), []byte(page), 0o644); err != nil {
		t.Fatal(err)
	}
	base, _ := cdptest.Serve(t, dir)
	tm := startTerm(t, base+"/ask.html", 140, 44)
	tm.waitFor("the first snapshot", 30*time.Second, func(s string) bool {
		return strings.Contains(s, "“Ask”") && strings.Contains(s, "snapshot #")
	})
	tm.keys("/")
	tm.text("Ask my")
	tm.keys("Enter")
	s := tm.waitText("match 1 of", 10*time.Second)
	if !strings.Contains(s, `▶`) {
		t.Fatalf("no selection:\n%s", s)
	}
	tm.keys("c")
	s = tm.waitText("The page opened a JavaScript prompt", 20*time.Second)
	if !strings.Contains(s, "› anonymous") {
		t.Fatalf("the prompt's input does not start with the page's default:\n%s", s)
	}
	tm.keys("C-u") // clear the default, as in a browser's own prompt box
	tm.text("Ada Lovelace")
	tm.waitText("› Ada Lovelace", 5*time.Second)
	tm.keys("Enter")
	s = tm.waitText(`"Hello, Ada Lovelace!"`, 30*time.Second)
	if strings.Contains(s, "JavaScript prompt") {
		t.Errorf("the dialog stayed open:\n%s", s)
	}
	tm.quit()
}
