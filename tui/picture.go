package tui

import (
	"context"
	"image"
	"os"
	"slices"
	"time"

	tea "charm.land/bubbletea/v2"
	uv "github.com/charmbracelet/ultraviolet"

	"domscope/dom"
	"domscope/dom/flatten"
	"domscope/dom/screenshot"
	"domscope/views"
)

// shooter is what the picture needs of the actor. A live service has it.
type shooter interface {
	Screenshot(ctx context.Context) (*screenshot.Picture, error)
}

// picture is the page's screenshot shown in place of the flat pane. It is
// taken in a command after each snapshot. It is drawn in a command once
// per size, selection and marks. The frame renders it from the cached
// lines.
type picture struct {
	on, marks bool
	gfx       views.Graphics

	shot     *screenshot.Picture
	shotSeq  int // the snapshot the screenshot was taken after
	shotN    int // bumped per screenshot: part of the drawing's key
	fetching bool
	tried    int // the snapshot a screenshot was last asked for
	req      int // the screenshot asked for last; older replies are dropped
	err      string

	key     picKey // what lines show
	want    picKey // what is being drawn
	drawing bool
	lines   []string
	raw     string // escape of the pixel protocols, written after the frame
	base    *image.RGBA
	baseKey picKey
	// the framed pane, drawn again only when its key changes
	box    []string
	boxKey boxKey
	// marks are the numbered marks of the view on screen on shot, made
	// once: making them flattens the snapshot again.
	markCache *markSet
}

// markSet is the numbered marks of one view on one screenshot.
type markSet struct {
	view  *flatten.View
	shot  *screenshot.Picture
	marks []screenshot.Mark
}

type boxKey struct {
	pic          picKey
	r            rect
	title, right string
	err          string
	empty        bool
	dark, plain  bool // the theme the border was drawn in
}

// picKey is everything a drawing depends on.
type picKey struct {
	shot       int
	cols, rows int
	marks      bool
	sel        string
	gfx        views.Graphics
	covered    int // the covered controls outlined (the rule may be toggled)
}

type (
	pictureMsg struct {
		req, seq int
		pic      *screenshot.Picture
		err      error
	}
	pictureDrawnMsg struct {
		key   picKey
		out   views.PictureOutput
		err   error
		marks *markSet // made for this drawing, else nil
	}
	// pictureRawMsg writes a pixel-protocol picture. It waits until the
	// frame that clears its cells is on the terminal.
	pictureRawMsg struct{ key picKey }
)

const (
	// the page's sensitive fields are looked for twice per picture
	shotTimeout = 60 * time.Second
	// an export waits this long for a picture, then saves without
	exportShotTimeout = 20 * time.Second
	kittyImage        = 4242 // the picture's image id in a kitty terminal
	rawDelay          = 80 * time.Millisecond
)

// graphicsProbe detects the terminal's picture protocol from the
// environment. It also asks the terminal itself; its answers come back as
// messages to pictureAfter.
func (m *Model) graphicsProbe() tea.Cmd {
	m.pic.gfx = views.GraphicsFromEnv(os.Getenv)
	if os.Getenv("TMUX") != "" {
		return nil
	}
	return tea.Raw(views.GraphicsQuery)
}

// aspect is the page's width over its height: the screenshot's, else a
// common window's until one is taken.
func (p *picture) aspect() float64 {
	if p.shot != nil && p.shot.Image != nil {
		if b := p.shot.Image.Bounds(); b.Dx() > 0 && b.Dy() > 0 {
			return float64(b.Dx()) / float64(b.Dy())
		}
	}
	return 16.0 / 10
}

// pictureToggle shows the page's picture in place of the flat pane, or
// the flat pane again.
func (m *Model) pictureToggle() tea.Cmd {
	if !m.pic.on && !m.live() && m.pic.shot == nil {
		if m.conn.savedAs != "" {
			m.setFlash("this capture ("+m.conn.savedAs+") was saved with no picture of the page", true)
		} else {
			m.setFlash("no browser attached", true)
		}
		return nil
	}
	m.pic.on = !m.pic.on
	defer m.layout() // on a narrow screen the picture goes beside the tree
	if !m.pic.on {
		m.pic.raw = ""
		if m.pic.gfx == views.Sixel || m.pic.gfx == views.ITerm2 {
			// The image's pixels stay in cells the flat pane leaves
			// blank. Repaint them all.
			return tea.ClearScreen
		}
		return nil
	}
	if m.panes.focus == flatFocus {
		m.panes.focus = treeFocus
	}
	m.setFlash("picture of the page ("+m.pic.gfx.String()+") · m marks · z scrolls the node into view · P back to the flat view", false)
	return nil
}

// marksToggle switches the numbered marks on the picture.
func (m *Model) marksToggle() tea.Cmd {
	m.pic.marks = !m.pic.marks
	if !m.pic.on {
		m.setFlash("marks are drawn on the picture: P shows it", false)
	}
	return nil
}

// revealKey scrolls the selected node into the page's view.
func (m *Model) revealKey() tea.Cmd {
	if n := m.selectedOr("scroll into view"); n != nil {
		return m.act(dom.Action{Kind: dom.KindScroll, ID: n.ID})
	}
	return nil
}

// pictureAfter runs after every message. It takes the picture's replies
// and the terminal's answers. It takes a new screenshot when the snapshot
// changed, and draws again when what the pane shows changed.
func (m *Model) pictureAfter(msg tea.Msg) tea.Cmd {
	var cmds []tea.Cmd
	switch msg := msg.(type) {
	case uv.KittyGraphicsEvent:
		if msg.Options.ID == views.KittyQueryID && string(msg.Payload) == "OK" {
			m.pic.gfx = views.Kitty
		}
	case uv.PrimaryDeviceAttributesEvent:
		for _, a := range msg {
			if a == 4 && m.pic.gfx == views.HalfBlocks {
				m.pic.gfx = views.Sixel
			}
		}
	case pictureMsg:
		if msg.req != m.pic.req {
			return nil
		}
		m.pic.fetching = false
		if msg.err != nil {
			m.pic.err = "no picture: " + msg.err.Error()
		} else {
			m.pic.err = ""
			m.pic.shot, m.pic.shotSeq = msg.pic, msg.seq
			m.pic.shotN++
			m.layout() // a page of another shape takes another width
		}
	case pictureDrawnMsg:
		if ms := msg.marks; ms != nil && ms.view == m.doc.view && ms.shot == m.pic.shot {
			m.pic.markCache = ms
		}
		if msg.key != m.pic.want {
			m.pic.drawing = false
			break // something changed meanwhile: draw again below
		}
		m.pic.drawing = false
		if msg.err != nil {
			m.pic.err = "cannot draw the picture: " + msg.err.Error()
			break
		}
		m.pic.key, m.pic.lines, m.pic.raw = msg.key, msg.out.Lines, msg.out.Raw
		if msg.out.Base != nil {
			m.pic.base, m.pic.baseKey = msg.out.Base, picKey{shot: msg.key.shot, cols: msg.key.cols, rows: msg.key.rows}
		}
		if m.pic.raw != "" {
			k := msg.key
			cmds = append(cmds, tea.Tick(rawDelay, func(time.Time) tea.Msg { return pictureRawMsg{k} }))
		}
	case pictureRawMsg:
		if m.pic.on && msg.key == m.pic.key && m.pic.raw != "" && len(m.layers) == 0 {
			r := m.pictureRect()
			raw := m.pic.raw
			if m.pic.gfx != views.Kitty {
				raw = views.At(r.x+1, r.y+1, raw)
			}
			return tea.Raw(raw)
		}
		return nil
	}
	if !m.pic.on || m.doc.snap == nil {
		return tea.Batch(cmds...)
	}
	if !m.pic.fetching && m.live() && m.op.busy == nil && m.pic.tried != m.doc.snap.Seq {
		cmds = append(cmds, m.fetchPicture())
	}
	if k := m.pictureWant(); m.pic.shot != nil && !m.pic.drawing && k != m.pic.key {
		cmds = append(cmds, m.drawPicture(k))
	}
	return tea.Batch(cmds...)
}

// fetchPicture takes a screenshot in a command.
func (m *Model) fetchPicture() tea.Cmd {
	s, ok := m.conn.actor.(shooter)
	if !ok {
		m.pic.err = "this connection cannot take screenshots"
		return nil
	}
	m.pic.fetching = true
	m.pic.tried = m.doc.snap.Seq
	m.pic.req++
	req, seq, ctx := m.pic.req, m.doc.snap.Seq, m.ctx
	return safe(func() tea.Msg {
		c, cancel := ctxTimeout(ctx, shotTimeout)
		defer cancel()
		p, err := s.Screenshot(c)
		return pictureMsg{req: req, seq: seq, pic: p, err: err}
	})
}

// pictureRect is where the picture pane is: the flat pane's place.
func (m *Model) pictureRect() rect {
	if r := m.screen().flat; r.w > 0 {
		return r // the flat pane's place, maximised or not
	}
	return computeScreen(m.w, m.h).flat
}

func (m *Model) pictureWant() picKey {
	r := m.pictureRect()
	return picKey{shot: m.pic.shotN, cols: max(r.w-2, 1), rows: max(r.h-2, 1), marks: m.pic.marks,
		sel: m.panes.tree.SelectedID(), gfx: m.pic.gfx, covered: m.coveredCount()}
}

// drawPicture draws the picture for k in a command.
func (m *Model) drawPicture(k picKey) tea.Cmd {
	in := views.PictureInput{Pic: m.pic.shot, Cols: k.cols, Rows: k.rows, Gfx: k.gfx, NoColor: m.noColor, KittyID: kittyImage}
	if n := m.doc.snap.Node(k.sel); n != nil && n.Bounds.W > 0 && n.Bounds.H > 0 {
		b := n.Bounds
		in.Selected = &b
	}
	in.Covered = m.coveredBoxes()
	var made *markSet // marks to make in the command
	if v := m.doc.view; k.marks && v != nil {
		if ms := m.pic.markCache; ms != nil && ms.view == v && ms.shot == m.pic.shot {
			in.Marks = ms.marks
		} else {
			made = &markSet{view: v, shot: m.pic.shot}
		}
	}
	if m.pic.baseKey == (picKey{shot: k.shot, cols: k.cols, rows: k.rows}) {
		in.Base = m.pic.base
	}
	m.pic.drawing, m.pic.want = true, k
	return safe(func() tea.Msg {
		if made != nil {
			made.marks = screenshot.Marks(made.view.Snap, made.view.Serialized(), made.shot)
			in.Marks = made.marks
		}
		out, err := views.DrawPicture(in)
		return pictureDrawnMsg{key: k, out: out, err: err, marks: made}
	})
}

func (m *Model) coveredCount() int {
	if v := m.doc.view; v != nil && v.Snap == m.doc.snap {
		return len(v.Marks.Covered)
	}
	return 0
}

// coveredBoxes are the boxes of the controls the view on screen marks
// covered, in document order of their IDs' numbers: the picture outlines
// them.
func (m *Model) coveredBoxes() []dom.Rect {
	v := m.doc.view
	if v == nil || v.Snap != m.doc.snap || len(v.Marks.Covered) == 0 {
		return nil
	}
	ids := make([]string, 0, len(v.Marks.Covered))
	for id := range v.Marks.Covered {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	var out []dom.Rect
	for _, id := range ids {
		if n := v.Snap.Node(id); n != nil && n.Bounds.W > 0 && n.Bounds.H > 0 {
			out = append(out, n.Bounds)
		}
	}
	return out
}

// pictureBox renders the picture pane from the cached drawing.
func (m *Model) pictureBox(r rect) []string {
	title := "Page picture"
	if m.pic.shot != nil {
		b := m.pic.shot.Image.Bounds()
		title += " " + itoa(b.Dx()) + "×" + itoa(b.Dy())
	}
	right := m.pic.gfx.String()
	if m.pic.marks {
		right = "marks · " + right
	}
	k := boxKey{pic: m.pic.key, r: r, title: title, err: m.pic.err, empty: m.pic.lines == nil, dark: m.dark, plain: m.noColor}
	if m.pic.lines != nil && m.pic.key != m.pictureWant() {
		right = "drawing… · " + right
	}
	k.right = right
	if m.pic.box != nil && k == m.pic.boxKey {
		return m.pic.box
	}
	var body []string
	switch {
	case m.pic.err != "":
		body = []string{m.st.Error.Render(views.Trunc(views.Clean(m.pic.err), r.w-2))}
	case m.pic.lines == nil:
		body = []string{m.st.Dim.Render("taking a screenshot…")}
	default:
		body = m.pic.lines
	}
	m.pic.box, m.pic.boxKey = views.Box(m.st, title, right, body, r.w, r.h, false), k
	return m.pic.box
}
