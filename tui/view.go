package tui

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"domscope/dom"
	"domscope/views"
)

// View draws the whole screen. It renders only the rows on screen.
func (m *Model) View() tea.View {
	v := tea.NewView(m.render())
	v.AltScreen = true
	v.MouseMode = tea.MouseModeCellMotion
	title := "domscope"
	if m.doc.snap != nil && m.doc.snap.Title != "" {
		title += " · " + views.Trunc(views.Clean(m.doc.snap.Title), 60)
	}
	v.WindowTitle = title
	if m.op.busy != nil || m.op.bg != nil {
		// The terminal's own progress indicator, where it has one. Long
		// work has no known end, so it is indeterminate.
		v.ProgressBar = tea.NewProgressBar(tea.ProgressBarIndeterminate, 0)
	}
	return v
}

func (m *Model) render() string {
	s := m.screen()
	if s.tooSmall {
		return tooSmall(m.w, m.h)
	}
	lines := make([]string, 0, m.h)
	lines = append(lines, views.Header(m.st, m.headerData(), m.w))

	var body []string
	switch {
	case m.panes.zoomed && s.flat.w == 0:
		body = m.treeBox(s.tree)
	case m.panes.zoomed:
		body = m.flatBox(s.flat)
	case s.stacked:
		tree, flat := m.treeBox(s.tree), m.flatBox(s.flat)
		body = append(tree, flat...)
	default:
		body = views.SideBySide(m.treeBox(s.tree), m.flatBox(s.flat))
	}
	lines = append(lines, body...)
	if m.step != nil && s.step.h > 0 {
		lines = append(lines, m.step.box(m.stepCtx(), s.step)...)
	}
	lines = append(lines, views.Box(m.st, "Details", m.detailsRight(), m.detailsBody(s.details), s.details.w, s.details.h, false)...)
	lines = append(lines, m.footer())
	// the layers, bottom first
	c := m.layerCtx()
	for _, l := range m.layers {
		d := l.render(c, s)
		lines = views.Place(lines, d.lines, d.x, d.y, m.w)
	}
	return strings.Join(lines, "\n")
}

func (m *Model) headerData() views.HeaderData {
	d := views.HeaderData{State: m.conn.state, Offline: m.conn.savedAs, Stale: m.status.stale, Highlight: m.hl.on, Viewport: viewportLabel(m.viewport()),
		Follow: m.followLabel(), Agent: m.agentLabel()}
	if m.doc.snap != nil {
		d.URL, d.Title, d.Target = m.doc.snap.URL, m.doc.snap.Title, m.doc.snap.TargetID
		d.HasSnap = true
		d.Seq = m.doc.snap.Seq
		d.Capture = m.doc.snap.CaptureTime
		if !m.doc.snap.Taken.IsZero() {
			// From when the capture ended: Taken is when it started. A 10 s
			// capture of a big page is not 10 s old when it appears.
			d.Age = max(m.now().Sub(m.doc.snap.Taken.Add(m.doc.snap.CaptureTime)), 0)
		}
	}
	return d
}

// rowContext is what the panes read from the model to draw their rows.
func (m *Model) rowContext(p pane) rowContext {
	return rowContext{st: m.st, snap: m.doc.snap, dec: m.doc.decisions(), view: m.doc.view, marks: m.doc.marks, notes: m.doc.notes, matches: m.search.set,
		focused: p == m.panes.focused(), selID: m.panes.tree.SelectedID()}
}

// paneFocused reports whether a pane's border shows it has the keyboard.
func (m *Model) paneFocused(p pane) bool { return p == m.panes.focused() && !m.covered() }

func (m *Model) treeBox(r rect) []string {
	t := &m.panes.tree
	body := t.Rows(m.rowContext(t))
	if len(body) == 0 {
		body = append(body, m.st.Dim.Render(m.emptyTreeText()))
	}
	title := "VirtualNode tree"
	if m.doc.snap != nil {
		title += " (" + commas(len(m.doc.snap.ByID)) + " nodes)"
	}
	right := ""
	if len(t.rows) > t.height {
		right = commas(t.cursor+1) + "/" + commas(len(t.rows))
	}
	if t.interactiveOnly {
		right = "interactive only · " + commas(len(t.rows)) + " rows"
	}
	if m.search.query != "" {
		if right != "" {
			right += " · "
		}
		right += fmt.Sprintf("/%s: %d", views.Trunc(views.Clean(m.search.query), 16), len(m.search.matches))
	}
	return views.Box(m.st, title, right, body, r.w, r.h, m.paneFocused(t))
}

func (m *Model) emptyTreeText() string {
	if m.op.busy != nil {
		return "waiting for the first snapshot…"
	}
	if m.doc.snap == nil {
		return "no snapshot (r takes one)"
	}
	return "nothing to show (i shows all nodes)"
}

func (m *Model) flatBox(r rect) []string {
	if m.pic.on {
		return m.pictureBox(r)
	}
	format := "text"
	if m.panes.flat.json {
		format = "json"
	}
	title := "Flattened for the LLM (" + format + ")"
	right := commas(m.panes.flat.tokens) + " tokens"
	if m.doc.view != nil && r.w >= 70 {
		right += " · " + commas(m.doc.view.NodeCount) + " nodes"
	}
	f := &m.panes.flat
	if f.query != "" {
		title = "Query view “" + views.Trunc(views.Clean(f.query), 24) + "”"
	}
	if n, of, ok := f.Filtered(); ok {
		right = commas(n) + " of " + commas(of) + " lines · " + right
	}
	if r.w < views.Width(title)+views.Width(right)+8 {
		title = "Flat (" + format + ")"
		if f.query != "" {
			title = "Query “" + views.Trunc(views.Clean(f.query), 12) + "”"
		}
	}
	if x := f.Column(); x > 0 {
		right = "col " + commas(x+1) + " · " + right
	}
	body := f.Rows(m.rowContext(f))
	if len(m.panes.flat.lines) == 0 {
		body = append(body, m.st.Dim.Render("(empty)"))
	}
	return views.Box(m.st, title, right, body, r.w, r.h, m.paneFocused(f))
}

func (m *Model) detailsRight() string {
	if m.panes.tree.Selected() == nil {
		return ""
	}
	return "tab switches pane · enter jumps to counterpart"
}

func (m *Model) detailsBody(r rect) []string {
	d := views.DetailsData{Node: m.panes.tree.Selected(), Last: m.status.last, LastDesc: views.Clean(m.status.lastDesc), ReadOnly: m.conn.savedAs}
	if m.doc.snap != nil {
		d.Origin = views.Origin(m.doc.snap.URL)
	}
	if n := d.Node; n != nil {
		if dec, ok := m.doc.decisions().Lookup(n.ID); ok {
			d.Decision, d.Decided = dec, true
			if dec.Into != "" {
				d.IntoName = m.nodeName(dec.Into)
			}
		}
		d.Frame = m.frameOf(n)
	}
	if m.doc.newDoc {
		d.Changes = m.st.Dim.Render("changes: a new document (navigation or reload): every node is new")
	}
	if m.doc.hasDiff {
		dd := m.doc.diff
		if !dd.Empty() {
			changed := len(m.doc.marks) - len(dd.Added) // renamed, or a state, visibility or place changed
			d.Changes = fmt.Sprintf("changes: %s added · %s changed · %s removed (d lists them)",
				m.st.Added.Render("+"+itoa(len(dd.Added))), m.st.Renamed.Render("~"+itoa(changed)), m.st.Removed.Render("-"+itoa(len(dd.Removed))))
		} else if len(m.doc.marks) > 0 {
			// markScrolled: only scroll marks moved, which no node diff sees
			d.Changes = m.st.Dim.Render("changes: a scroll only (") + m.st.Renamed.Render("~") + m.st.Dim.Render(" marks the boxes that moved)")
		} else {
			d.Changes = m.st.Dim.Render("changes: none since the previous snapshot")
		}
	}
	return views.Details(m.st, d, r.w-2, r.h-2)
}

// frameOf names the frame holding a node: "main" or its URL.
func (m *Model) frameOf(n *dom.VirtualNode) string {
	if m.doc.snap == nil || n.FrameID == "" {
		return ""
	}
	for i, f := range m.doc.snap.Frames {
		if f.FrameID == n.FrameID {
			if i == 0 || f.Host == "" {
				return "main"
			}
			s := f.URL
			if f.OutOfProcess {
				s += " (out-of-process)"
			}
			return s
		}
	}
	return n.FrameID
}

func (m *Model) footer() string {
	if m.op.busy != nil {
		label := m.op.busy.label
		if p := m.op.busy.phase; p != "" {
			label += " · " + p
		}
		return views.Busy(m.st, m.op.spin.View(), label, m.now().Sub(m.op.busy.start), m.w)
	}
	if bg := m.op.bg; bg != nil {
		return views.Pad(m.st.Accent.Render(m.op.spin.View())+" "+bg.label+" "+
			m.st.Dim.Render(fmt.Sprintf("%.1f s", m.now().Sub(bg.start).Seconds()))+m.st.Dim.Render("  ·  keys still work"), m.w)
	}
	if m.status.flash != "" {
		st := m.st.Accent
		if m.status.flashBad {
			st = m.st.Error
		}
		msg := views.Clean(m.status.flash)
		if views.Width(msg) > m.w {
			// the whole message is in the log
			msg = views.Trunc(msg, max(m.w-12, 10)) + " (L: all)"
		}
		return views.Pad(st.Render(msg), m.w)
	}
	hints := m.km.Hints(m.mode())
	if l := m.top(); l != nil {
		hints = l.hints(m.km)
	}
	return m.hints.Render(m.st, hints, m.w)
}

// commas writes 12345 as "12,345".
func commas(n int) string {
	s := itoa(n)
	if n < 0 {
		return s
	}
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// tooSmall is the whole screen when the terminal is below 40×14. It shows
// the message in as many lines as fit, in whatever width there is.
func tooSmall(w, h int) string {
	msg := "domscope needs at least 40×14; this terminal is " + itoa(w) + "×" + itoa(h)
	if w < 1 || h < 1 {
		return ""
	}
	lines := views.Wrap(msg, w)
	if len(lines) > h {
		lines = views.Wrap("need 40×14", w)
	}
	out := make([]string, h)
	for i := range out {
		if i < len(lines) {
			out[i] = views.Pad(views.Trunc(lines[i], w), w)
		} else {
			out[i] = views.Pad("", w)
		}
	}
	return strings.Join(out, "\n")
}
