package tui

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"domscope/cdpconn/cdptest"
	"domscope/dom/export"
	"domscope/dom/flatten"
)

// followPage grows a list above the "Keep me" button each time "Add" is
// clicked. It counts the clicks.
const followPage = `<!doctype html><html><head><meta charset="utf-8"><title>Follow me</title></head><body>
<main><h1>Shared page</h1>
<ul id="list"></ul>
<button id="keep">Keep me</button>
<p id="status">clicks: 0</p>
<button id="add" onclick="const n = document.querySelectorAll('#list li').length + 1;
  const li = document.createElement('li'); li.textContent = 'Item ' + n; document.getElementById('list').append(li);
  document.getElementById('status').textContent = 'clicks: ' + n;">Add</button>
</main></body></html>`

// Another client drives the page over its own CDP connection while the UI
// is attached. The UI shows the change by itself, marked. The cursor
// stays on its node and the header says live. Paused (F), the screen
// stays as it is; resumed, it catches up.
func TestFollowFullProgram(t *testing.T) {
	tm := startFollowPage(t)
	s := tm.waitFor("the first snapshot", 30*time.Second, func(s string) bool {
		return strings.Contains(s, "“Follow me”") && strings.Contains(s, "snapshot #") && strings.Contains(s, "tokens")
	})
	if !strings.Contains(s, "● live") {
		t.Fatalf("the header does not say live:\n%s", s)
	}
	if l := cursorRow(s); !strings.Contains(l, `"Keep me"`) {
		t.Fatalf("the cursor does not start on the Keep me button: %q\n%s", l, s)
	}

	// a real mouse click from the other connection
	clickInTab(t, "/follow.html", "add")
	s = tm.waitFor("the other client's change", 15*time.Second, func(s string) bool {
		return strings.Contains(s, "Item 1") && strings.Contains(s, "clicks: 1")
	})
	if !markedRow(s, "Item 1") {
		t.Errorf("the new item has no change mark:\n%s", s)
	}
	if !strings.Contains(s, "added") || !strings.Contains(s, "the page changed by itself") {
		t.Errorf("the update is not reported as changes:\n%s", s)
	}
	if l := cursorRow(s); !strings.Contains(l, `"Keep me"`) {
		t.Errorf("the cursor left its node: %q\n%s", l, s)
	}
	if !strings.Contains(s, "● live") {
		t.Errorf("the header does not say live:\n%s", s)
	}

	// paused: the page changes, the screen does not
	tm.keys("F")
	paused := tm.waitText("● paused", 5*time.Second)
	if got := pageValue(t, "/follow.html", "(document.getElementById('add').click(), document.getElementById('status').textContent)"); got != "clicks: 2" {
		t.Fatalf("the page says %q after the second click", got)
	}
	time.Sleep(2 * time.Second) // well past the service's quiet window
	s = tm.screen()
	if strings.Contains(s, "Item 2") || strings.Contains(s, "clicks: 2") || !strings.Contains(s, "● paused") {
		t.Errorf("paused, yet the screen changed:\n%s", s)
	}
	if body(s) != body(paused) {
		t.Errorf("paused, yet the panes changed:\n--- before\n%s\n--- after\n%s", paused, s)
	}

	// resumed: the change made meanwhile shows
	tm.keys("F")
	s = tm.waitFor("the change made while paused", 15*time.Second, func(s string) bool {
		return strings.Contains(s, "Item 2") && strings.Contains(s, "clicks: 2") && strings.Contains(s, "● live")
	})
	if !markedRow(s, "Item 2") {
		t.Errorf("the item added while paused has no change mark:\n%s", s)
	}
	if l := cursorRow(s); !strings.Contains(l, `"Keep me"`) {
		t.Errorf("the cursor left its node: %q\n%s", l, s)
	}
	// A change while the user types in a prompt leaves the prompt be.
	tm.keys("t")
	tm.waitText("type into", 5*time.Second)
	tm.text("hello")
	pageValue(t, "/follow.html", "(document.getElementById('add').click(), '')")
	s = tm.waitFor("the change under the prompt", 15*time.Second, func(s string) bool { return strings.Contains(s, "Item 3") })
	if !strings.Contains(s, "› hello") {
		t.Errorf("the prompt lost its text:\n%s", s)
	}
	tm.text(" there")
	tm.waitText("› hello there", 5*time.Second)
	tm.keys("Escape")
	tm.quit()
}

// startFollowPage runs the UI on followPage, served on loopback.
func startFollowPage(t *testing.T) *term {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "follow.html"), []byte(followPage), 0o644); err != nil {
		t.Fatal(err)
	}
	base, _ := cdptest.Serve(t, dir)
	return startTerm(t, base+"/follow.html", 160, 48)
}

// cursorRow is the tree pane's row under the cursor (focused: ▶).
func cursorRow(screen string) string {
	for _, l := range strings.Split(screen, "\n") {
		if strings.HasPrefix(l, "│▶") {
			return l
		}
	}
	return ""
}

// markedRow reports whether a tree row holding text carries the "added"
// mark.
func markedRow(screen, text string) bool {
	for _, l := range strings.Split(screen, "\n") {
		if strings.HasPrefix(l, "│+") && strings.Contains(l, text) {
			return true
		}
	}
	return false
}

// body is the screen without its first line and its last. The header's
// snapshot age ticks; the last line is the footer.
func body(screen string) string {
	lines := strings.Split(strings.TrimRight(screen, "\n"), "\n")
	if len(lines) < 3 {
		return screen
	}
	return strings.Join(lines[1:len(lines)-1], "\n")
}

// clickInTab clicks the element with id as a user would (mouse events at
// its centre). It acts in the shared browser's tab whose URL ends with
// suffix, over a CDP connection of the test's own.
func clickInTab(t *testing.T, suffix, id string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	p := tabBySuffix(ctx, t, cdptest.Browser(t), suffix)
	defer p.Detach()
	var res struct {
		Result struct{ Value []float64 } `json:"result"`
	}
	expr := `(() => { const r = document.getElementById(` + "'" + id + "'" + `).getBoundingClientRect(); return [r.x + r.width/2, r.y + r.height/2]; })()`
	if err := p.Call(ctx, "Runtime.evaluate", map[string]any{"expression": expr, "returnByValue": true}, &res); err != nil || len(res.Result.Value) != 2 {
		t.Fatalf("the centre of #%s: %v %v", id, err, res.Result.Value)
	}
	x, y := res.Result.Value[0], res.Result.Value[1]
	for _, typ := range []string{"mouseMoved", "mousePressed", "mouseReleased"} {
		if err := p.Call(ctx, "Input.dispatchMouseEvent", map[string]any{"type": typ, "x": x, "y": y, "button": "left", "clickCount": 1}, nil); err != nil {
			t.Fatal(err)
		}
	}
}

// e on a page that moved on since the shown snapshot saves the page as it
// is now. (Follow is paused, and another client clicked.) It says so and
// shows that snapshot. The file opens to the same page.
func TestExportAfterThePageMovedOn(t *testing.T) {
	tm := startFollowPage(t)
	tm.waitFor("the first snapshot", 30*time.Second, func(s string) bool {
		return strings.Contains(s, "“Follow me”") && strings.Contains(s, "snapshot #") && strings.Contains(s, "tokens")
	})
	tm.keys("F")
	tm.waitText("● paused", 5*time.Second)
	if got := pageValue(t, "/follow.html", "(document.getElementById('add').click(), document.getElementById('status').textContent)"); got != "clicks: 1" {
		t.Fatalf("the page says %q after the click", got)
	}
	time.Sleep(time.Second) // the service applies the click's DOM events to its model
	if s := tm.screen(); strings.Contains(s, "Item 1") {
		t.Fatalf("paused, yet the screen shows the change:\n%s", s)
	}

	exp := filepath.Join(t.TempDir(), "moved.json.gz")
	tm.export(exp)
	s := tm.waitText("the page had changed: saved it as it is now to", 30*time.Second)
	if !strings.Contains(s, "Item 1") || !strings.Contains(s, "clicks: 1") {
		t.Errorf("the snapshot that was saved is not the one shown:\n%s", s)
	}
	tm.closeBox("Capture saved")
	tm.quit()

	c, err := export.ReadCaptureFile(exp)
	if err != nil {
		t.Fatal(err)
	}
	snap, err := c.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	sd, _ := flatten.Flatten(snap, c.FlattenOptions())
	text := flatten.FormatText(sd)
	for _, want := range []string{"Item 1", "clicks: 1", `"Keep me"`} {
		if !strings.Contains(text, want) {
			t.Errorf("the saved capture lacks %q:\n%s", want, text)
		}
	}
}

// A page that never goes quiet: a clock every 30 ms, a status line every
// 70 ms, a feed every 110 ms. The UI still follows it, snapshot after
// snapshot. The header says the page keeps changing. Every snapshot shows
// the clock's number and the status line.
func TestFollowBusyPageFullProgram(t *testing.T) {
	base, _ := cdptest.Serve(t, filepath.Join("..", "testdata", "pages", "actions"))
	tm := startTerm(t, base+"/churn.html", 160, 48)
	seqRE := regexp.MustCompile(`snapshot #(\d+)`)
	seq := func(s string) int {
		m := seqRE.FindStringSubmatch(s)
		if m == nil {
			return 0
		}
		n, _ := strconv.Atoi(m[1])
		return n
	}
	s := tm.waitFor("the first snapshot", 30*time.Second, func(s string) bool { return seq(s) > 0 })
	first := seq(s)
	seen := map[int]bool{}
	busy, last := 0, ""
	// a hang guard, not a timing: the page changes every 30 ms
	tm.waitFor("five snapshots of the busy page", 60*time.Second, func(s string) bool {
		n := seq(s)
		if n > first && !seen[n] {
			seen[n] = true
			// A machine under load may hold the page's timers back.
			// Then the page may seem quiet once in a while.
			if strings.Contains(s, "● live · busy") {
				busy++
			} else {
				last = s
			}
			if !regexp.MustCompile(`Time:\s+\d{6}`).MatchString(s) || !regexp.MustCompile(`status \d{6}`).MatchString(s) {
				t.Errorf("snapshot #%d lacks the clock's number or the status line:\n%s", n, s)
			}
		}
		return len(seen) >= 5 || t.Failed()
	})
	if busy < len(seen)/2+1 {
		t.Errorf("%d of %d snapshots said the page keeps changing; the last that did not:\n%s", busy, len(seen), last)
	}
	tm.quit()
}
