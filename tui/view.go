package tui

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"domscope/dom"
	"domscope/keymap"
	"domscope/views"
)

// View draws the whole screen. It renders only the rows on screen.
func (m *Model) View() tea.View {
	v := tea.NewView(m.render())
	v.AltScreen = true
	v.MouseMode = tea.MouseModeCellMotion
	title := "domscope"
	if m.snap != nil && m.snap.Title != "" {
		title += " · " + views.Trunc(views.Clean(m.snap.Title), 60)
	}
	v.WindowTitle = title
	return v
}

func (m *Model) render() string {
	s := computeScreen(m.w, m.h)
	if s.tooSmall {
		return views.Pad("domscope needs at least 40×14 (this terminal is "+itoa(m.w)+"×"+itoa(m.h)+")", m.w)
	}
	lines := make([]string, 0, m.h)
	lines = append(lines, views.Header(m.st, m.headerData(), m.w))

	tree := m.treeBox(s.tree)
	flat := m.flatBox(s.flat)
	var body []string
	if s.stacked {
		body = append(tree, flat...)
	} else {
		body = views.SideBySide(tree, flat)
	}
	if box := m.overlayBox(s); box != nil {
		body = views.Overlay(body, box, m.w)
	}
	lines = append(lines, body...)
	lines = append(lines, views.Box(m.st, "Details", m.detailsRight(), m.detailsBody(s.details), s.details.w, s.details.h, false)...)
	lines = append(lines, m.footer())
	return strings.Join(lines, "\n")
}

func (m *Model) headerData() views.HeaderData {
	d := views.HeaderData{State: m.conn, Offline: m.savedAs, Stale: m.stale, Highlight: m.highlight}
	if m.snap != nil {
		d.URL, d.Title, d.Target = m.snap.URL, m.snap.Title, m.snap.TargetID
		d.HasSnap = true
		d.Seq = m.snap.Seq
		d.Capture = m.snap.CaptureTime
		if !m.snap.Taken.IsZero() {
			d.Age = m.now().Sub(m.snap.Taken)
		}
	}
	return d
}

func (m *Model) treeBox(r rect) []string {
	inner := r.w - 2
	if m.cacheW != inner || m.cacheTreeV != m.tree.version {
		m.clearCache()
		m.cacheW, m.cacheTreeV = inner, m.tree.version
	}
	rows := m.tree.Visible()
	body := make([]string, 0, len(rows))
	for i, row := range rows {
		idx := m.tree.offset + i
		sel := views.NotSelected
		if idx == m.tree.cursor {
			sel = views.Blurred
			if m.focus == treeFocus {
				sel = views.Focused
			}
		}
		if sel == views.NotSelected {
			if l, ok := m.rowCache[row.node]; ok {
				body = append(body, l)
				continue
			}
		}
		tr := views.TreeRow{Node: row.node, Depth: row.depth, Open: len(row.node.Children) > 0 && m.tree.IsOpen(row.node),
			Mark: m.marks[row.node.ID], Match: m.matchSet[row.node]}
		if d, ok := m.dec[row.node.ID]; ok {
			tr.Decision, tr.Decided = d, true
		}
		l := views.TreeLine(m.st, tr, inner, sel)
		if sel == views.NotSelected {
			m.rowCache[row.node] = l
		}
		body = append(body, l)
	}
	if len(rows) == 0 {
		body = append(body, m.st.Dim.Render(m.emptyTreeText()))
	}
	title := "VirtualNode tree"
	if m.snap != nil {
		title += " (" + commas(len(m.snap.ByID)) + " nodes)"
	}
	right := ""
	if len(m.tree.rows) > m.tree.height {
		right = commas(m.tree.cursor+1) + "/" + commas(len(m.tree.rows))
	}
	if m.tree.interactiveOnly {
		right = "interactive only · " + commas(len(m.tree.rows)) + " rows"
	}
	if m.query != "" {
		if right != "" {
			right += " · "
		}
		right += fmt.Sprintf("/%s: %d", views.Trunc(views.Clean(m.query), 16), len(m.matches))
	}
	return views.Box(m.st, title, right, body, r.w, r.h, m.focus == treeFocus && m.overlay == nil)
}

func (m *Model) emptyTreeText() string {
	if m.busy != nil {
		return "waiting for the first snapshot…"
	}
	if m.snap == nil {
		return "no snapshot (r takes one)"
	}
	return "nothing to show (i shows all nodes)"
}

func (m *Model) flatBox(r rect) []string {
	inner := r.w - 2
	format := "text"
	if m.flat.json {
		format = "json"
	}
	title := "Flattened for the LLM (" + format + ")"
	right := commas(m.flat.tokens) + " tokens"
	if m.sd != nil && r.w >= 70 {
		right += " · " + commas(m.sd.NodeCount) + " nodes"
	}
	if r.w < views.Width(title)+views.Width(right)+8 {
		title = "Flat (" + format + ")"
	}
	selID := m.tree.SelectedID()
	target := m.counterpartLine(selID)
	note := ""
	if target >= 0 {
		note = "◄ selected"
		if m.flat.Line(selID) < 0 {
			if d, ok := m.dec[selID]; ok {
				note = "◄ " + d.Kind.String() + "ed " + selID + " goes here"
				if d.Kind == dom.Drop {
					note = "◄ " + selID + " dropped (" + d.Rule + "), would be here"
				}
			}
		}
	}
	end := min(m.flat.offset+max(m.flat.height, 1), len(m.flat.lines))
	body := make([]string, 0, end-m.flat.offset)
	for i := m.flat.offset; i < end; i++ {
		sel, n := views.NotSelected, m.snap.Node(m.flat.ids[i])
		ln := ""
		if i == m.flat.cursor {
			if m.focus == flatFocus {
				sel = views.Focused
			} else if i == target {
				sel = views.Blurred
			}
			if i == target || m.focus == flatFocus {
				ln = note
			}
		}
		if ln == "" && n != nil && (i == 0 || m.flat.ids[i-1] != n.ID) {
			switch m.marks[n.ID] {
			case views.Added:
				ln = "+ new"
			case views.Renamed:
				ln = "~ renamed"
			}
		}
		body = append(body, views.FlatLine(m.st, m.flat.lines[i], n, inner, sel, ln))
	}
	if len(m.flat.lines) == 0 {
		body = append(body, m.st.Dim.Render("(empty)"))
	}
	return views.Box(m.st, title, right, body, r.w, r.h, m.focus == flatFocus && m.overlay == nil)
}

func (m *Model) detailsRight() string {
	if m.tree.Selected() == nil {
		return ""
	}
	return "tab switches pane · enter jumps to counterpart"
}

func (m *Model) detailsBody(r rect) []string {
	d := views.DetailsData{Node: m.tree.Selected(), Last: m.last, LastDesc: views.Clean(m.lastDesc), ReadOnly: m.savedAs}
	if n := d.Node; n != nil {
		if dec, ok := m.dec[n.ID]; ok {
			d.Decision, d.Decided = dec, true
			if dec.Into != "" {
				d.IntoName = m.nodeName(dec.Into)
			}
		}
		d.Frame = m.frameOf(n)
	}
	if m.newDoc {
		d.Changes = m.st.Dim.Render("changes: a new document (navigation or reload): every node is new")
	}
	if m.hasDiff {
		dd := m.diff
		if len(dd.Added)+len(dd.Removed)+len(dd.Renamed) > 0 {
			d.Changes = fmt.Sprintf("changes: %s added · %s renamed · %s removed (d lists them)",
				m.st.Added.Render("+"+itoa(len(dd.Added))), m.st.Renamed.Render("~"+itoa(len(dd.Renamed))), m.st.Removed.Render("-"+itoa(len(dd.Removed))))
		} else {
			d.Changes = m.st.Dim.Render("changes: none since the previous snapshot")
		}
	}
	return views.Details(m.st, d, r.w-2, r.h-2)
}

// frameOf names the frame holding a node: "main" or its URL.
func (m *Model) frameOf(n *dom.VirtualNode) string {
	if m.snap == nil || n.FrameID == "" {
		return ""
	}
	for i, f := range m.snap.Frames {
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
	if m.prompt != nil {
		p := m.prompt
		t := m.st.Title.Render(views.Trunc(p.title, m.w/2)) + " "
		return views.Pad(t+p.input.View(), m.w)
	}
	if m.busy != nil {
		return views.Busy(m.st, m.spin.View(), m.busy.label, m.now().Sub(m.busy.start), m.w)
	}
	if m.flash != "" {
		st := m.st.Accent
		if m.flashBad {
			st = m.st.Error
		}
		return views.Pad(st.Render(views.Clean(m.flash)), m.w)
	}
	return m.hints.Render(m.st, m.km.Hints(m.mode()), m.w)
}

func (m *Model) overlayBox(s screen) []string {
	if m.dialog != nil {
		return m.dialogBox(s)
	}
	o := m.overlay
	if o == nil {
		return nil
	}
	w := min(s.body.w-4, 110)
	if o.width > 0 {
		w = min(s.body.w-4, o.width)
	}
	h := min(max(s.body.h-2, 5), len(o.items)+3)
	o.height = h - 3
	return views.List(m.st, o.title, o.items, o.cursor, o.offset, w, h, o.foot)
}

func (m *Model) dialogBox(s screen) []string {
	d := m.dialog
	w := min(s.body.w-4, 70)
	inner := w - 2
	var body []string
	body = append(body, m.st.Warn.Render("The page opened a JavaScript "+views.Clean(d.Type)+":"), "")
	msg := views.Clean(d.Message)
	for len(msg) > 0 && len(body) < 8 {
		line := views.Trunc(msg, inner)
		cut := len(strings.TrimSuffix(line, "…"))
		body = append(body, strings.TrimSuffix(line, "…"))
		msg = strings.TrimLeft(msg[cut:], " ")
	}
	if d.DefaultPrompt != "" {
		body = append(body, "", "answer: "+views.Quote(d.DefaultPrompt, inner-10))
	}
	body = append(body, "", views.Hints(m.st, m.km.Hints(keymap.Dialog), inner))
	return views.Box(m.st, "Dialog", "", body, w, len(body)+2, true)
}
