package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"domscope/cdpconn/cdptest"
)

// The pages of these tests: an inbox list that scrolls, a button and a
// password field under a cookie banner (ui-inbox.html), and an aria-modal
// dialog over links (ui-modal.html).
func lookPages(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("..", "testdata", "pages", "mcp", "look"))
	if err != nil {
		t.Fatal(err)
	}
	base, _ := cdptest.Serve(t, dir)
	return base
}

// markRow is the tree pane's row that holds all of want, or "" (split: where the flat pane starts).
func markRow(screen string, split int, want ...string) string {
	tree, _ := columns(screen, split)
	for _, l := range strings.Split(tree, "\n") {
		ok := true
		for _, w := range want {
			ok = ok && strings.Contains(l, w)
		}
		if ok {
			return l
		}
	}
	return ""
}

// rawHas reports whether the program ever wrote s to the terminal.
func (tm *term) rawHas(s string) bool {
	b, err := os.ReadFile(tm.raw)
	if err != nil {
		tm.t.Fatal(err)
	}
	return strings.Contains(ansi.Strip(string(b)), s)
}

// The tree marks what the view says of nodes besides their lines: a
// scroll container where it stands, the page, a control under a cookie
// banner, the items a fold hid. The password under the banner is
// marked covered, and its value never shows.
func TestTreeMarksFullProgram(t *testing.T) {
	base := lookPages(t)
	const w, h, split = 160, 48, 88
	tm := startTerm(t, base+"/ui-inbox.html", w, h)
	s := tm.waitFor("the first snapshot with its marks", time.Minute, func(s string) bool {
		return strings.Contains(s, "snapshot #") && markRow(s, split, `ul#inbox "Messages"`, "scroll 0% ↓") != ""
	})
	if markRow(s, split, "#document", "page scroll 0% ↓") == "" {
		t.Errorf("the page's row does not say where the page stands:\n%s", s)
	}
	// the marks come before the decision and tier columns, which stay put
	if r := markRow(s, split, `ul#inbox "Messages"`); !strings.HasSuffix(strings.TrimRight(r, "│ "), "keep  semantic") {
		t.Errorf("the scroll mark broke the row's columns: %q", r)
	}
	for _, find := range []struct{ search, row, mark string }{
		{"Buy now", `button#under "Buy now"`, "covered by ["},
		{"PIN", `input#pin "PIN"`, "covered by ["},
		{"Message 5", `a "Message 5"`, ""},
	} {
		tm.keys("/")
		tm.waitText("search name, role", 10*time.Second)
		tm.text(find.search)
		tm.keys("Enter")
		s = tm.waitFor(find.row+" selected", time.Minute, func(s string) bool { return markRow(s, split, "▶", find.row) != "" })
		if find.mark == "" {
			// the item holding it was folded away, as the flat pane says
			if markRow(s, split, `li role=listitem`, "folded like [") == "" || !strings.Contains(s, "more listitem like [") {
				t.Errorf("no folded item marked in the tree:\n%s", s)
			}
			continue
		}
		if r := markRow(s, split, find.row); !strings.Contains(r, find.mark) {
			t.Errorf("%s is not marked %q: %q\n%s", find.row, find.mark, r, s)
		}
	}
	if tm.rawHas("s3cr3t-pin") {
		t.Errorf("the password's value reached the terminal")
	}
	tm.quit()
}

// At 80×24 the open modal's row says so, and the start is in the modal.
func TestTreeModalMarkFullProgram(t *testing.T) {
	base := lookPages(t)
	tm := startTerm(t, base+"/ui-modal.html", 80, 24)
	s := tm.waitFor("the first snapshot", time.Minute, func(s string) bool {
		return strings.Contains(s, "snapshot #") && strings.Contains(s, "behind the modal")
	})
	// the selection starts on the modal's first control, not behind it
	if markRow(s, 1000, "▶", `button "Keep it"`) == "" {
		t.Errorf("the start is not in the modal:\n%s", s)
	}
	tm.keys("/")
	tm.waitText("search name, role", 10*time.Second)
	tm.text("Confirm")
	tm.keys("Enter")
	s = tm.waitText(`div#dlg "Confirm"`, time.Minute)
	var row string
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, `div#dlg "Confirm"`) {
			row = l
		}
	}
	if !strings.Contains(row, "open modal") || !strings.Contains(row, "keep  semantic") {
		t.Errorf("the modal's row at 80 columns: %q\n%s", row, s)
	}
	tm.quit()
}

// ctrl+e scrolls the list holding the selection, not the page, and the
// tree's mark, the flat line and the footer say where it went; ctrl+y
// brings it back. Where nothing can scroll that way, the footer says so.
func TestScrollContainerKeysFullProgram(t *testing.T) {
	base := lookPages(t)
	const split = 88
	tm := startTerm(t, base+"/ui-inbox.html", 160, 48)
	tm.waitFor("the first snapshot with its marks", time.Minute, func(s string) bool {
		return strings.Contains(s, "snapshot #") && markRow(s, split, `ul#inbox "Messages"`, "scroll 0% ↓") != "" &&
			markRow(s, split, "▶", `a "Message 1"`) != ""
	})
	tm.keys("C-e")
	s := tm.waitFor("the list scrolled", time.Minute, func(s string) bool {
		return markRow(s, split, `ul#inbox "Messages"`, "↑↓") != ""
	})
	if !strings.Contains(s, "scrolled node_") || markRow(s, split, "#document", "page scroll 0% ↓") == "" {
		t.Errorf("the footer should say the list scrolled, the page stay where it was:\n%s", s)
	}
	if _, flat := columns(s, split); !strings.Contains(flat, `list "Messages" scroll`) || !strings.Contains(flat, "~ scroll") {
		t.Errorf("the flat line of the list is not marked changed:\n%s", s)
	}
	if !strings.Contains(s, "changes: a scroll only") || markRow(s, split, "~", `ul#inbox "Messages"`) == "" {
		t.Errorf("the details and the tree should say the list scrolled:\n%s", s)
	}
	tm.keys("C-y")
	tm.waitFor("the list back at its top", time.Minute, func(s string) bool {
		return markRow(s, split, `ul#inbox "Messages"`, "scroll 0% ↓") != "" && strings.Contains(s, "last action")
	})
	// the heading is in no list, and the page is at its top
	tm.keys("/")
	tm.waitText("search name, role", 10*time.Second)
	tm.text("Inbox")
	tm.keys("Enter")
	tm.waitFor("the heading selected", time.Minute, func(s string) bool { return markRow(s, split, "▶", `h1 "Inbox"`) != "" })
	tm.keys("C-y")
	tm.waitText("nothing to scroll up: no box holding node_", 30*time.Second)
	tm.quit()
}

// / in the flat pane keeps the lines holding the words, esc brings all
// back; ctrl+q in the prompt shows the engine's query view of the words.
func TestFlatFilterFullProgram(t *testing.T) {
	base := lookPages(t)
	const split = 88
	tm := startTerm(t, base+"/ui-inbox.html", 160, 48)
	tm.waitFor("the first snapshot", time.Minute, func(s string) bool {
		_, flat := columns(s, split)
		return strings.Contains(s, "snapshot #") && strings.Contains(flat, `link "Message 1"`)
	})
	tm.keys("Tab", "/")
	tm.waitText("filter the flat lines", 10*time.Second)
	tm.text("message 2")
	s := tm.waitFor("the filtered lines", 30*time.Second, func(s string) bool {
		_, flat := columns(s, split)
		return strings.Contains(flat, " of 18 lines") && !strings.Contains(flat, `link "Message 1"`)
	})
	if _, flat := columns(s, split); !strings.Contains(flat, `link "Message 2"`) {
		t.Errorf("the line of Message 2 is filtered out:\n%s", s)
	}
	tm.keys("Escape")
	tm.waitFor("every line again", 30*time.Second, func(s string) bool {
		_, flat := columns(s, split)
		return strings.Contains(flat, `link "Message 1"`) && !strings.Contains(flat, " lines ·")
	})
	tm.keys("/")
	tm.waitText("filter the flat lines", 10*time.Second)
	tm.text("cookies accept")
	tm.keys("C-q")
	s = tm.waitFor("the query view", time.Minute, func(s string) bool {
		_, flat := columns(s, split)
		return strings.Contains(flat, "Query view") && strings.Contains(flat, `button "Accept all"`)
	})
	if _, flat := columns(s, split); strings.Contains(flat, `link "Message 1"`) || !strings.Contains(flat, "more chunks left out") {
		t.Errorf("the query view should hold the banner's part only:\n%s", s)
	}
	// its best part is selected in both panes
	if markRow(s, split, "▷", `region "Cookies"`) == "" && markRow(s, split, "▷", `div#cookie "Cookies"`) == "" {
		t.Errorf("the tree does not follow the query view's best part:\n%s", s)
	}
	tm.keys("Escape")
	tm.waitFor("the whole view again", 30*time.Second, func(s string) bool {
		_, flat := columns(s, split)
		return strings.Contains(flat, `link "Message 1"`) && !strings.Contains(flat, "Query view")
	})
	// the password's part: its value masked, as in every view
	tm.keys("/")
	tm.waitText("filter the flat lines", 10*time.Second)
	tm.text("pin password")
	tm.keys("C-q")
	tm.waitFor("the query view of the field", time.Minute, func(s string) bool {
		_, flat := columns(s, split)
		return strings.Contains(flat, "Query view") && strings.Contains(flat, `textbox "PIN" type=password`) && strings.Contains(flat, "••••")
	})
	if tm.rawHas("s3cr3t-pin") {
		t.Errorf("the password's value reached the terminal")
	}
	tm.quit()
}

// The picture outlines covered controls dashed, in a colour of their own.
func TestPictureCoveredFullProgram(t *testing.T) {
	base := lookPages(t)
	const w, h = 120, 40
	tm := startTerm(t, base+"/ui-inbox.html", w, h, "COLORTERM=truecolor", "DOMSCOPE_TUI_NOHIGHLIGHT=1")
	tm.waitFor("the first snapshot with its marks", time.Minute, func(s string) bool {
		return strings.Contains(s, "snapshot #") && strings.Contains(s, "covered by [")
	})
	tm.keys("Home", "P")
	r := computeScreen(w, h).flat
	var raw string
	tm.waitFor("the picture drawn and still", time.Minute, func(s string) bool {
		lines := strings.Split(s, "\n")
		if len(lines) <= r.y || !strings.Contains(s, "▀") {
			return false
		}
		top := ansi.Cut(lines[r.y], r.x, r.x+r.w)
		if !strings.Contains(top, "Page picture") || strings.Contains(top, "drawing") {
			return false
		}
		now := tm.tmux("capture-pane", "-e", "-p", "-t", "t")
		same := now == raw
		raw = now
		return same
	})
	// the pixel rows (two per cell) holding the covered outline's colour
	const cyan = "#00c8ff" // views.CoveredColor
	var hits []int
	lines := strings.Split(raw, "\n")
	for y := 1; y < r.h-1; y++ {
		cells := parseCells(lines[r.y+y])
		for x := r.x + 1; x < min(r.x+r.w-1, len(cells)); x++ {
			if c := cells[x]; c.ch == "▀" && c.fg == cyan {
				hits = append(hits, 2*(y-1))
			} else if c.ch == "▀" && c.bg == cyan {
				hits = append(hits, 2*(y-1)+1)
			}
		}
	}
	if len(hits) == 0 {
		t.Fatalf("no covered outline on the picture:\n%s", ansi.Strip(raw))
	}
	// the covered button and field sit 40 to 80 px above the bottom:
	// their outlines are in the picture's last quarter, and only there
	// (not the links scrolled out of the inbox list: they are clipped)
	pxRows := 0 // the picture's height: it keeps the page's shape
	for y := 1; y < r.h-1; y++ {
		if strings.Contains(lines[r.y+y], "▀") {
			pxRows = 2 * y
		}
	}
	for _, y := range hits {
		if y < pxRows*3/4 {
			t.Errorf("a covered outline at pixel row %d of %d, above the banner (%v):\n%s", y, pxRows, hits, ansi.Strip(raw))
			break
		}
	}
	tm.quit()
}
