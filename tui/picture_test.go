package tui

import (
	"context"
	"image"
	"image/color"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"
	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"

	"domscope/dom"
	"domscope/dom/export"
	"domscope/dom/screenshot"
	"domscope/views"
)

// shotActor is a testActor that also takes screenshots. The picture is a
// synthetic page, white with a blue box where the fixture's email field is.
type shotActor struct {
	*testActor
	pic   *screenshot.Picture
	shots int
}

func (a *shotActor) Screenshot(ctx context.Context) (*screenshot.Picture, error) {
	a.mu.Lock()
	a.shots++
	a.mu.Unlock()
	return a.pic, nil
}

func syntheticPicture() *screenshot.Picture {
	img := image.NewRGBA(image.Rect(0, 0, 800, 500))
	for i := range img.Pix {
		img.Pix[i] = 255
	}
	for y := 340; y < 368; y++ {
		for x := 120; x < 420; x++ {
			img.SetRGBA(x, y, color.RGBA{0, 0, 200, 255})
		}
	}
	return &screenshot.Picture{Image: img, Zoom: 1, DeviceScale: 1}
}

func pictureModel(t testing.TB, w, h int) (*Model, *shotActor) {
	a := &shotActor{testActor: newTestActor(formPage("Sign up")), pic: syntheticPicture()}
	m := newModel(context.Background(), Config{Actor: a, Theme: "dark", NoHighlight: true, Now: func() time.Time { return fixedNow }})
	m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	return m, a
}

// settleRaw is settle that also returns what the model asked to write to
// the terminal as it is (tea.Raw).
func settleRaw(t *testing.T, m *Model, cmd tea.Cmd) []string {
	t.Helper()
	var raw []string
	for i := 0; i < 20 && cmd != nil; i++ {
		var next []tea.Cmd
		for _, msg := range runCmd(cmd, 5*time.Second) {
			switch msg := msg.(type) {
			case tea.RawMsg:
				raw = append(raw, msg.Msg.(string))
				continue
			case spinner.TickMsg, clockMsg, hlTickMsg:
				continue
			}
			_, c := m.Update(msg)
			next = append(next, c)
		}
		cmd = tea.Batch(next...)
	}
	return raw
}

// terminalSays decodes a terminal's answer as the program's input reader
// does. It gives the events to the model.
func terminalSays(t *testing.T, m *Model, answer string) {
	t.Helper()
	var d uv.EventDecoder
	buf := []byte(answer)
	for len(buf) > 0 {
		n, ev := d.Decode(buf)
		if n == 0 {
			t.Fatalf("cannot decode %q", buf)
		}
		buf = buf[n:]
		settle(t, m, func() tea.Msg { return ev })
	}
}

// P shows the picture in place of the flat pane: half-blocks by default,
// the selected node outlined. The screenshot is taken in a command once
// per snapshot. P again brings the flat pane back.
func TestPicturePaneHalfBlocks(t *testing.T) {
	m, a := pictureModel(t, 120, 40)
	settle(t, m, m.refresh(false, "first snapshot"))
	m.panes.tree.Select("node_10") // the email field, at 120,340 300×28
	press(t, m, k('P'))
	if a.shots != 1 || m.pic.lines == nil {
		t.Fatalf("no picture after P (%d screenshots)", a.shots)
	}
	s := m.render()
	if !strings.Contains(s, "Page picture 800×500") || !strings.Contains(s, "half-blocks") || strings.Contains(s, "Flattened for the LLM") {
		t.Fatalf("the picture is not in place of the flat pane:\n%s", s)
	}
	// the field is blue with the selection's outline around it
	if !strings.Contains(s, "38;2;255;200;0") || !strings.Contains(s, ";0;0;200m") {
		t.Errorf("no outlined blue box on the picture:\n%q", s)
	}
	// a move redraws (other outline) but takes no new screenshot
	press(t, m, upKey)
	if a.shots != 1 {
		t.Errorf("moving took another screenshot (%d)", a.shots)
	}
	press(t, m, k('m'))
	s = m.render()
	if !strings.Contains(ansiStrip(s), "marks · half-blocks") {
		t.Errorf("m does not say marks are on")
	}
	// the field's mark: [10] of the text format, on the mark colour
	if !strings.Contains(s, "48;2;230;0;126m1\x1b[38;2;255;255;255;48;2;230;0;126m0") {
		t.Errorf("no mark 10 on the picture:\n%q", s)
	}
	press(t, m, k('P'))
	if !strings.Contains(plainScreen(m), "Flattened for the LLM") {
		t.Errorf("P again does not bring the flat pane back")
	}
}

// When the terminal answers the kitty graphics query with OK, the picture
// goes to it with the kitty protocol. That is a virtual placement shown
// by Unicode placeholders in the pane's cells. When its device attributes
// say sixel (4), it goes as one sixel image written at the pane's corner.
func TestPictureGraphicsProtocols(t *testing.T) {
	t.Setenv("TMUX", "")
	t.Setenv("TERM", "xterm-256color")
	t.Setenv("TERM_PROGRAM", "")
	t.Setenv("KITTY_WINDOW_ID", "")
	t.Setenv("LC_TERMINAL", "")

	m, _ := pictureModel(t, 120, 40)
	raw := settleRaw(t, m, m.Init())
	if len(raw) != 1 || raw[0] != views.GraphicsQuery {
		t.Fatalf("Init wrote %q, want the graphics query", raw)
	}
	terminalSays(t, m, "\x1b_Gi=31;OK\x1b\\")
	if m.pic.gfx != views.Kitty {
		t.Fatalf("after the kitty answer the picture uses %v", m.pic.gfx)
	}
	m.panes.tree.Select("node_10")
	raw = settleRaw(t, m, func() tea.Msg { return k('P') })
	if len(raw) != 1 || !strings.HasPrefix(raw[0], "\x1b_Gq=2,i=4242,") || !strings.Contains(raw[0], ",U=1,c=") || !strings.Contains(raw[0], ",a=T") || !strings.Contains(raw[0], ";eJ") || !strings.HasSuffix(raw[0], "\x1b\\") {
		t.Fatalf("the kitty transmission is %.200q", raw)
	}
	s := m.render()
	if !strings.Contains(s, "\x1b[38;2;0;16;146m\U0010EEEE") || !strings.Contains(s, "kitty") {
		t.Errorf("the pane has no kitty placeholders for image 4242:\n%.400q", s)
	}

	m2, _ := pictureModel(t, 120, 40)
	settleRaw(t, m2, m2.Init())
	terminalSays(t, m2, "\x1b[?62;4;22c")
	if m2.pic.gfx != views.Sixel {
		t.Fatalf("after device attributes with 4 the picture uses %v", m2.pic.gfx)
	}
	raw = settleRaw(t, m2, func() tea.Msg { return k('P') })
	r := computeScreen(120, 40).flat
	at := "\x1b7\x1b[" + itoa(r.y+2) + ";" + itoa(r.x+2) + "H\x1bP0;1q\"1;1;"
	if len(raw) != 1 || !strings.HasPrefix(raw[0], at) || !strings.HasSuffix(raw[0], "\x1b\\\x1b8") {
		t.Fatalf("the sixel picture is %.120q, want it to start %q", raw, at)
	}
}

func ansiStrip(s string) string { return ansi.Strip(s) }

// BenchmarkPictureFrame: a full 200×60 frame with the picture pane shown,
// as while moving around the tree. The half-blocks are drawn and cached.
func BenchmarkPictureFrame(b *testing.B) {
	m, _ := pictureModel(b, 200, 60)
	m.setSnapshot(formPage("Sign up"), false)
	m.pic.on = true
	m.pic.shot, m.pic.shotN = syntheticPicture(), 1
	k := m.pictureWant()
	msg := runCmd(m.drawPicture(k), 5*time.Second)
	m.pictureAfter(msg[0])
	if m.pic.key != k {
		b.Fatal("not drawn")
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		m.View()
	}
}

// BenchmarkPictureDraw draws the picture once for a new size or selection:
// scale from the cached base, outline, half-blocks. That runs in a
// command, not in the frame.
func BenchmarkPictureDraw(b *testing.B) {
	pic := syntheticPicture()
	sel := dom.Rect{X: 120, Y: 340, W: 300, H: 28}
	out, _ := views.DrawPicture(views.PictureInput{Pic: pic, Cols: 88, Rows: 50, Selected: &sel})
	b.ReportAllocs()
	for b.Loop() {
		views.DrawPicture(views.PictureInput{Pic: pic, Cols: 88, Rows: 50, Selected: &sel, Base: out.Base})
	}
}

// At 80×24 the panes stack, and the picture had the flat pane's five
// rows: 17×5 cells. Now it stands beside the tree at the body's height,
// as wide as the page's shape asks. Z maximises the picture, not the
// tree that has the keyboard.
func TestPictureUsesTheRoomAt80x24(t *testing.T) {
	m, _ := pictureModel(t, 80, 24)
	settle(t, m, m.refresh(false, "first snapshot"))
	flat := computeScreen(80, 24).flat
	press(t, m, k('P'))
	if m.pic.lines == nil {
		t.Fatal("no picture after P")
	}
	w, h := drawnSize(m.pic.lines)
	if w*h < (flat.w-2)*(flat.h-2) || h < 12 || w < 36 {
		t.Errorf("the picture is drawn in %d×%d cells; the flat pane had %d×%d:\n%s", w, h, flat.w-2, flat.h-2, plainScreen(m))
	}
	s := plainScreen(m)
	if !strings.Contains(s, "VirtualNode tree") || !strings.Contains(s, "Page picture") {
		t.Errorf("the tree and the picture are not both on screen:\n%s", s)
	}
	for i, l := range strings.Split(m.render(), "\n") {
		if widthOf(l) != 80 {
			t.Errorf("line %d is %d wide", i, widthOf(l))
		}
	}

	press(t, m, k('Z'))
	s = plainScreen(m)
	if !strings.Contains(s, "Page picture") || strings.Contains(s, "VirtualNode tree") {
		t.Errorf("Z did not maximise the picture:\n%s", s)
	}
	// at 80×24 the height bounds the picture: maximised it is as large
	if r := m.pictureRect(); r.w != 80 {
		t.Errorf("maximised, the picture's pane is %d wide", r.w)
	}
	w2, h2 := drawnSize(m.pic.lines)
	if w2*h2 < w*h*9/10 {
		t.Errorf("maximised, the picture is %d×%d cells, beside the tree %d×%d", w2, h2, w, h)
	}
	press(t, m, k('Z'), k('P'))
	if s := plainScreen(m); !strings.Contains(s, "Flattened for the LLM") || !strings.Contains(s, "VirtualNode tree") {
		t.Errorf("P after Z does not bring back both panes:\n%s", s)
	}
}

// drawnSize is the size of a half-block drawing: its rows, and the widest
// run of cells that are not blank.
func drawnSize(lines []string) (w, h int) {
	for _, l := range lines {
		p := strings.TrimRight(ansiStrip(l), " ")
		if p == "" {
			continue
		}
		h++
		w = max(w, widthOf(p))
	}
	return w, h
}

// e keeps the page's last picture in the export, and open shows it with
// P, with no browser. (dom/export tests that it stays masked.)
func TestExportKeepsThePictureForOpen(t *testing.T) {
	a := &shotActor{testActor: newTestActor(recorded(t, "semantic"), recorded(t, "semantic")), pic: syntheticPicture()}
	m := newModel(context.Background(), Config{Actor: a, Theme: "dark", NoHighlight: true, Now: func() time.Time { return fixedNow }})
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	settle(t, m, m.refresh(false, "first snapshot"))
	press(t, m, k('P'))
	if m.pic.shot == nil {
		t.Fatal("no picture after P")
	}
	path := filepath.Join(t.TempDir(), "cap.json.gz")
	press(t, m, k('e'))
	m.prompt().input.SetValue(path)
	press(t, m, enterKey)
	if a.shots != 1 {
		t.Errorf("the export took another screenshot (%d): it keeps the last one", a.shots)
	}
	c, err := export.ReadCaptureFile(path)
	if err != nil {
		t.Fatal(err)
	}
	om := newModel(context.Background(), Config{Saved: path, Theme: "dark", Now: func() time.Time { return fixedNow }})
	if err := om.openSaved("cap.json.gz", c); err != nil {
		t.Fatal(err)
	}
	om.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	press(t, om, k('P'))
	if s := ansiStrip(om.render()); !strings.Contains(s, "Page picture 800×500") || om.pic.lines == nil {
		t.Fatalf("open does not show the saved picture with P (flash %q):\n%s", om.status.flash, s)
	}
}
