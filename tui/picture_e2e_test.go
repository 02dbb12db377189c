package tui

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"domscope/cdpconn/cdptest"
)

// blocksPage is flat colour only: four quarters of the viewport and a
// button with a solid border (so there is a mark), no text. The viewport
// (the screenshot) is 1280×713 here and the picture 52×28 half-block
// pixels. A pixel averages 1280/52 × 713/28 px. Every edge is put where a
// pixel starts (x = i*1280/52, y = j*713/28, rounded down). So no pixel
// mixes two colours and the map shows the page's own colours.
const blocksPage = `<!doctype html><html><head><meta charset="utf-8"><title>Blocks</title>
<style>
html, body { margin: 0; padding: 0; width: 1280px; height: 713px; overflow: hidden; }
div { position: absolute; }
button { position: absolute; left: 320px; top: 203px; width: 295px; height: 102px; margin: 0; padding: 0;
  box-sizing: border-box; border-style: solid; border-color: #000000; border-width: 26px 25px 25px 24px;
  border-radius: 0; background: #ffffff; outline: none; }
</style></head><body>
<div style="left: 0; top: 0; width: 640px; height: 356px; background: #c81e1e"></div>
<div style="left: 640px; top: 0; width: 640px; height: 356px; background: #1ec81e"></div>
<div style="left: 0; top: 356px; width: 640px; height: 357px; background: #1e1ec8"></div>
<div style="left: 640px; top: 356px; width: 640px; height: 357px; background: #c8c81e"></div>
<button aria-label="Go"></button>
</body></html>`

// The picture pane in tmux (half-blocks) shows the page's colours cell
// by cell. It does so without and with the numbered marks.
func TestPictureHalfBlockFullProgram(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "blocks.html"), []byte(blocksPage), 0o644); err != nil {
		t.Fatal(err)
	}
	base, _ := cdptest.Serve(t, dir)
	const w, h = 120, 40
	// 24-bit colour, as a terminal that says so gets; else the program
	// writes the nearest of 256 colours. No browser highlight: its overlay
	// would tint the screenshot or not depending on timing.
	tm := startTerm(t, base+"/blocks.html", w, h, "COLORTERM=truecolor", "DOMSCOPE_TUI_NOHIGHLIGHT=1")
	tm.waitFor("the first snapshot", 30*time.Second, func(s string) bool {
		return strings.Contains(s, "“Blocks”") && strings.Contains(s, "snapshot #")
	})
	r := computeScreen(w, h).flat
	// The first row (the document, the whole picture) is selected. So its
	// outline stays at the picture's edge, off the button's mark.
	tm.keys("Home")

	tm.keys("P")
	golden(t, fmt.Sprintf("picture-halfblock-%dx%d", w, h), tm.pictureCells(r, false))
	tm.keys("m")
	golden(t, fmt.Sprintf("picture-halfblock-marks-%dx%d", w, h), tm.pictureCells(r, true))
	tm.quit()
}

// pictureCells waits for the picture pane at r to be drawn and stay the
// same. It returns its inside as a readable map (pictureMap).
func (tm *term) pictureCells(r rect, marks bool) string {
	tm.t.Helper()
	ready := func(s string) bool {
		lines := strings.Split(s, "\n")
		if len(lines) <= r.y {
			return false
		}
		top := ansi.Cut(lines[r.y], r.x, r.x+r.w)
		return strings.Contains(top, "Page picture") && !strings.Contains(top, "drawing") &&
			strings.Contains(top, "marks") == marks && strings.Contains(s, "▀")
	}
	var prev string
	deadline := time.Now().Add(30 * time.Second)
	for {
		tm.waitFor("the picture pane", time.Until(deadline), ready)
		// a second look: a redraw (a new screenshot) may be under way
		raw := tm.tmux("capture-pane", "-e", "-p", "-t", "t")
		if raw == prev && ready(tm.screen()) {
			if !strings.Contains(ansi.Strip(raw), "Page picture 1280×713") {
				tm.t.Fatalf("the page's edges are placed for a 1280×713 screenshot:\n%s", ansi.Strip(raw))
			}
			return pictureMap(tm.t, raw, r)
		}
		if time.Now().After(deadline) {
			tm.t.Fatalf("the picture pane never settled:\n%s", tm.screen())
		}
		prev = raw
		time.Sleep(300 * time.Millisecond)
	}
}

// cell is one terminal cell: its character and 24-bit colours. "" is the
// terminal's default colour.
type cell struct {
	ch     string
	fg, bg string
}

// parseCells reads one line of `capture-pane -e` into cells, following
// the SGR colour sequences.
func parseCells(line string) []cell {
	var out []cell
	var fg, bg string
	state := byte(0)
	for len(line) > 0 {
		seq, width, n, newState := ansi.DecodeSequence(line, state, nil)
		state = newState
		line = line[n:]
		switch {
		case strings.HasPrefix(seq, "\x1b[") && strings.HasSuffix(seq, "m"):
			fg, bg = applySGR(seq[2:len(seq)-1], fg, bg)
		case width > 0:
			out = append(out, cell{ch: seq, fg: fg, bg: bg})
			for i := 1; i < width; i++ {
				out = append(out, cell{fg: fg, bg: bg}) // a wide character's second column
			}
		}
	}
	return out
}

// applySGR returns the colours after the SGR parameters p.
func applySGR(p string, fg, bg string) (string, string) {
	ps := strings.FieldsFunc(p, func(r rune) bool { return r == ';' || r == ':' })
	if len(ps) == 0 {
		return "", ""
	}
	for i := 0; i < len(ps); i++ {
		switch v, _ := strconv.Atoi(ps[i]); {
		case v == 0:
			fg, bg = "", ""
		case v == 39:
			fg = ""
		case v == 49:
			bg = ""
		case (v == 38 || v == 48) && i+1 < len(ps):
			var c string
			switch ps[i+1] {
			case "2":
				if i+4 < len(ps) {
					r, _ := strconv.Atoi(ps[i+2])
					g, _ := strconv.Atoi(ps[i+3])
					b, _ := strconv.Atoi(ps[i+4])
					c = fmt.Sprintf("#%02x%02x%02x", r, g, b)
				}
				i += 4
			case "5":
				if i+2 < len(ps) {
					c = "idx" + ps[i+2]
				}
				i += 2
			}
			if v == 38 {
				fg = c
			} else {
				bg = c
			}
		case v >= 30 && v <= 37, v >= 90 && v <= 97:
			fg = "idx" + strconv.Itoa(v)
		case v >= 40 && v <= 47, v >= 100 && v <= 107:
			bg = "idx" + strconv.Itoa(v)
		}
	}
	return fg, bg
}

// pictureMap cuts the inside of the pane at r out of a coloured capture
// and writes it as a pixel map. Each cell row is two lines: a ▀ cell's
// upper pixel is its foreground, the lower its background. There is one
// letter per colour, with the colours listed after the map. A cell that
// is not ▀ (a mark's number, the blank beside a narrow picture) is its
// character on both lines ('.' for a blank). It is listed with its
// colours.
func pictureMap(t *testing.T, capture string, r rect) string {
	t.Helper()
	lines := strings.Split(capture, "\n")
	if len(lines) < r.y+r.h {
		t.Fatalf("capture has %d lines, the pane ends at %d", len(lines), r.y+r.h)
	}
	rows := make([][]cell, r.h)
	for i := range rows {
		rows[i] = parseCells(lines[r.y+i])
		if len(rows[i]) < r.x+r.w {
			t.Fatalf("line %d has %d cells, the pane ends at column %d:\n%s", r.y+i, len(rows[i]), r.x+r.w, ansi.Strip(capture))
		}
		rows[i] = rows[i][r.x : r.x+r.w]
	}
	// the border is where the pane is said to be
	last := r.h - 1
	for _, c := range []struct {
		row, col int
		want     string
	}{{0, 0, "┌"}, {0, r.w - 1, "┐"}, {last, 0, "└"}, {last, r.w - 1, "┘"}} {
		if got := rows[c.row][c.col].ch; got != c.want {
			t.Fatalf("no border corner at row %d col %d of the pane (%q):\n%s", c.row, c.col, got, ansi.Strip(capture))
		}
	}
	const letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
	letter := map[string]byte{}
	var order []string
	name := func(c string) byte {
		if c == "" {
			c = "default"
		}
		l, ok := letter[c]
		if !ok {
			if len(order) >= len(letters) {
				t.Fatalf("more than %d colours in the picture", len(letters))
			}
			l = letters[len(order)]
			letter[c] = l
			order = append(order, c)
		}
		return l
	}
	var sb, other strings.Builder
	for y := 1; y < r.h-1; y++ {
		var up, down strings.Builder
		for x := 1; x < r.w-1; x++ {
			c := rows[y][x]
			if c.ch == "▀" {
				up.WriteByte(name(c.fg))
				down.WriteByte(name(c.bg))
				continue
			}
			ch := c.ch
			if ch == " " || ch == "" {
				ch = "."
			}
			up.WriteString(ch)
			down.WriteString(ch)
			if ch != "." || c.bg != "" {
				fmt.Fprintf(&other, "row %d col %d %q fg %s bg %s\n", y-1, x-1, c.ch, orDefault(c.fg), orDefault(c.bg))
			}
		}
		sb.WriteString(up.String() + "\n" + down.String() + "\n")
	}
	sb.WriteString("\ncolours:\n")
	for _, c := range order {
		fmt.Fprintf(&sb, "%c %s\n", letter[c], c)
	}
	if other.Len() > 0 {
		sb.WriteString("\nother cells:\n" + other.String())
	}
	return sb.String()
}

func orDefault(c string) string {
	if c == "" {
		return "default"
	}
	return c
}
