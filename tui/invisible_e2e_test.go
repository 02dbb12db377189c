package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"domscope/cdpconn/cdptest"
)

// invisibles are the runes issue 20 saw reach the terminal raw.
var invisibles = []string{"\u200b", "\u202e", "\u2028", "\ufeff"}

// A page has bidi and invisible characters in its title, a node's name
// and a prompt()'s default text. The header, the terminal title, the tree
// rows and the dialog's input show them as escapes, as the flat view
// does. None reaches the terminal raw. Accepting the prompt as it came
// gives the page its own default back, character for character.
func TestInvisibleCharactersFullProgram(t *testing.T) {
	dir := t.TempDir()
	page := `<!doctype html><html><head><meta charset="utf-8"><title>t</title></head><body>
<button id="ask">Ask</button><h1 id="out">nothing yet</h1>
<script>
document.title = "Zero\u200bWidth";
const b = document.getElementById("ask");
b.textContent = "Ask\u200bme";
b.onclick = () => {
  const a = prompt("Name?", "a\u202eb\u2028c\ufeffd");
  document.getElementById("out").textContent = "got " + [...a].map(c => c.codePointAt(0).toString(16)).join(" ");
};
</script></body></html>`
	if err := os.WriteFile(filepath.Join(dir, "invisible.html"), []byte(page), 0o644); err != nil {
		t.Fatal(err)
	}
	base, _ := cdptest.Serve(t, dir)
	tm := startTerm(t, base+"/invisible.html", 140, 44)
	s := tm.waitFor("the first snapshot", 30*time.Second, func(s string) bool {
		return strings.Contains(s, "snapshot #") && strings.Contains(s, "tokens")
	})
	header := strings.SplitN(s, "\n", 2)[0]
	if !strings.Contains(header, `“Zero\u200bWidth”`) {
		t.Errorf("the header does not show the title's U+200B as an escape: %+q", header)
	}
	left, _ := columns(s, 70)
	if !strings.Contains(left, `button#ask "Ask\u200bme"`) {
		t.Errorf("the tree row does not show the name's U+200B as an escape:\n%s", left)
	}
	if title := tm.format("#{pane_title}"); !strings.Contains(title, `Zero\u200bWidth`) {
		t.Errorf("terminal title %+q: want the title with U+200B written as an escape", title)
	}

	tm.keys("/")
	tm.text("Ask")
	tm.keys("Enter")
	tm.waitText("match 1 of", 10*time.Second)
	tm.keys("c")
	s = tm.waitText("The page opened a JavaScript prompt", 20*time.Second)
	if !strings.Contains(s, `› a\u202eb\u2028c\ufeffd`) {
		t.Errorf("the prompt's input does not show its default's invisible characters as escapes:\n%s", s)
	}
	tm.keys("Enter")
	s = tm.waitText("got 61 202e 62 2028 63 feff 64", 30*time.Second)
	if strings.Contains(s, "JavaScript prompt") {
		t.Errorf("the dialog stayed open:\n%s", s)
	}
	tm.quit()

	raw, err := os.ReadFile(tm.raw)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(raw), "Zero") {
		t.Fatalf("raw output capture did not work (%d bytes)", len(raw))
	}
	for _, r := range invisibles {
		if strings.Contains(string(raw), r) {
			t.Errorf("the program wrote %+q raw to the terminal", r)
		}
	}
}
