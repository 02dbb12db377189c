package tui

import (
	"strings"

	"charm.land/bubbles/v2/viewport"

	"domscope/dom"
	"domscope/dom/flatten"
	"domscope/views"
)

// FlatPane is the state of the flattened view: exactly what the LLM
// receives, split in lines, each line knowing the node it belongs to.
type FlatPane struct {
	json  bool // format: json (true) or text
	lines []string
	ids   []string       // node ID per line ("" for none)
	first map[string]int // node ID -> its first line
	// all are the lines before the filter (/ in the pane); lines and
	// ids are the ones it lets through. lower is all in lower case,
	// made at the first filter of these lines.
	allLines, allIDs, lower []string
	filter                  []string // the filter's words, lower case
	filterText              string
	// query: the pane shows the query view of these words (ctrl+q),
	// made of queryOf; queryBusy: one is being made
	query     string
	queryOf   *flatten.View
	queryBusy bool
	tokens    int
	dec       dom.Decisions // where hoisted and dropped nodes went
	rowView
	// side is the sideways scroll: the bubbles viewport keeps the width,
	// the longest line and the column offset. Rows are still cut here, one
	// visible line at a time, because the viewport renders its whole block
	// through lipgloss and has no cursor.
	side viewport.Model
	w    int
	step int // columns per sideways step
}

// flatOutput is a flat view formatted for the pane: made off the Update
// path (a format switch at 100k nodes takes most of a second), applied on it.
type flatOutput struct {
	src    *flatten.View // the view it was formatted from
	json   bool
	lines  []flatten.Line
	tokens int
}

// formatFlat formats src's tree as json or text lines and counts its
// tokens. It flattens src's snapshot again, so it runs in a command.
func formatFlat(src *flatten.View, asJSON bool) (flatOutput, error) {
	o := flatOutput{src: src, json: asJSON}
	sd := src.Serialized()
	var out string
	if asJSON {
		b, err := flatten.FormatJSON(sd)
		if err != nil {
			return o, err
		}
		out = string(b)
		if o.lines, err = flatten.FormatJSONLines(sd); err != nil {
			return o, err
		}
	} else {
		out = flatten.FormatText(sd)
		o.lines = flatten.FormatTextLines(sd)
	}
	o.tokens = flatten.CountTokens(out)
	return o, nil
}

// apply shows a formatted output, keeping the selection.
func (p *FlatPane) apply(o flatOutput, dec dom.Decisions) {
	p.dec = dec
	p.json = o.json
	sel := p.SelectedID()
	p.setLines(o.lines)
	p.side.SetContentLines(p.lines)
	p.side.SetXOffset(p.side.XOffset())
	p.tokens = o.tokens
	if sel != "" && !p.Select(sel) {
		p.clamp()
	}
}

// applyQuery shows a query view in place of the view: text lines,
// whatever the format (the query view has no json form).
func (p *FlatPane) applyQuery(o flatOutput, dec dom.Decisions) {
	json := p.json
	p.apply(o, dec)
	p.json = json
}

func (p *FlatPane) setLines(lines []flatten.Line) {
	if len(lines) == 0 {
		lines = []flatten.Line{{}} // one empty line, as an empty output splits into
	}
	p.allLines = make([]string, len(lines))
	p.allIDs = make([]string, len(lines))
	p.lower = nil
	for i, l := range lines {
		p.allLines[i] = cleanIndented(l.Text)
		p.allIDs[i] = l.ID
	}
	p.refilter()
}

// refilter makes the lines shown: those holding every word of the
// filter (all of them without one).
func (p *FlatPane) refilter() {
	if len(p.filter) == 0 {
		p.lines, p.ids = p.allLines, p.allIDs
	} else {
		if p.lower == nil {
			p.lower = make([]string, len(p.allLines))
			for i, l := range p.allLines {
				p.lower[i] = strings.ToLower(l)
			}
		}
		p.lines, p.ids = nil, nil
	next:
		for i, l := range p.lower {
			for _, w := range p.filter {
				if !strings.Contains(l, w) {
					continue next
				}
			}
			p.lines, p.ids = append(p.lines, p.allLines[i]), append(p.ids, p.allIDs[i])
		}
	}
	p.first = make(map[string]int, len(p.lines))
	for i, id := range p.ids {
		if _, ok := p.first[id]; !ok && id != "" {
			p.first[id] = i
		}
	}
}

// SetFilter shows only the lines holding every word of text (any case);
// "" shows them all. The cursor stays on its node when it is let through.
func (p *FlatPane) SetFilter(text string) {
	sel := p.SelectedID()
	p.filterText = strings.TrimSpace(text)
	p.filter = strings.Fields(strings.ToLower(p.filterText))
	p.refilter()
	p.side.SetContentLines(p.lines)
	if sel == "" || !p.Select(sel) {
		p.clamp()
		p.scrollToCursor()
	}
}

// Filtered is how many lines the filter lets through, of how many; ok
// is false without a filter.
func (p *FlatPane) Filtered() (shown, of int, ok bool) {
	return len(p.lines), len(p.allLines), len(p.filter) > 0
}

// cleanIndented cleans a page-controlled line but keeps its indentation.
func cleanIndented(l string) string {
	rest := strings.TrimLeft(l, " ")
	c := views.Clean(rest)
	if c == rest {
		return l // no copy: the line stays a slice of the view's text
	}
	return l[:len(l)-len(rest)] + c
}

// SelectedID is the node of the line under the cursor.
func (p *FlatPane) SelectedID() string {
	if p.cursor >= 0 && p.cursor < len(p.ids) {
		return p.ids[p.cursor]
	}
	return ""
}

// Select moves the cursor to the first line of a node.
func (p *FlatPane) Select(id string) bool {
	i, ok := p.first[id]
	if ok {
		p.cursor = i
		p.scrollToCursor()
	}
	return ok
}

// Line returns the first line of a node, or -1.
func (p *FlatPane) Line(id string) int {
	if i, ok := p.first[id]; ok {
		return i
	}
	return -1
}

// Move moves the cursor by delta lines.
func (p *FlatPane) Move(delta int) { p.move(delta, len(p.lines)) }

// Page moves a screen down (1) or up (-1).
func (p *FlatPane) Page(dir int) { p.page(dir, len(p.lines)) }

func (p *FlatPane) Top()    { p.to(0, len(p.lines)) }
func (p *FlatPane) Bottom() { p.to(len(p.lines)-1, len(p.lines)) }

func (p *FlatPane) clamp() { p.rowView.clamp(len(p.lines)) }

// SetSize sets the width of a line and the number of lines on screen.
func (p *FlatPane) SetSize(w, h int) {
	p.w = w
	p.setHeight(h, len(p.lines))
	p.side.SetWidth(w)
	p.side.SetHeight(max(h, 1))
	p.step = max(w/4, 4)
	p.side.SetHorizontalStep(p.step)
	p.side.SetXOffset(p.side.XOffset())
}

func (p *FlatPane) SetHeight(h int) { p.SetSize(p.w, h) }

func (p *FlatPane) scrollToCursor() { p.follow(len(p.lines)) }

// Scroll moves the view (mouse wheel), dragging the cursor along.
func (p *FlatPane) Scroll(delta int) { p.scroll(delta, len(p.lines)) }

// Pan scrolls long lines sideways by a step.
func (p *FlatPane) Pan(dir int) bool {
	x := p.side.XOffset()
	if dir > 0 {
		p.side.ScrollRight(p.step)
	} else {
		p.side.ScrollLeft(p.step)
	}
	return p.side.XOffset() != x
}

// Column is the first column shown (0 unless scrolled sideways).
func (p *FlatPane) Column() int { return p.side.XOffset() }

// Follow puts the cursor on the line that stands for a node: its own
// line when kept, else the line of the kept ancestor its children went to.
func (p *FlatPane) Follow(id string) bool {
	if l := p.Counterpart(id); l >= 0 {
		p.to(l, len(p.lines))
		return true
	}
	return false
}

// Counterpart is the line that stands for a node, or -1.
func (p *FlatPane) Counterpart(id string) int {
	if l := p.Line(id); l >= 0 {
		return l
	}
	if d, ok := p.dec.Lookup(id); ok && d.Into != "" {
		return p.Line(d.Into)
	}
	return -1
}

// RowAt is the line shown y lines below the first.
func (p *FlatPane) RowAt(y int) (int, bool) { return p.rowAt(y, len(p.lines)) }

// SetCursor puts the cursor on a line.
func (p *FlatPane) SetCursor(row int) { p.to(row, len(p.lines)) }

// Rows renders the lines on screen, cut at the sideways scroll.
func (p *FlatPane) Rows(c rowContext) []string {
	target := p.Counterpart(c.selID)
	note := ""
	if target >= 0 {
		note = "◄ selected"
		if p.Line(c.selID) < 0 {
			if d, ok := p.dec.Lookup(c.selID); ok {
				note = "◄ " + d.Kind.String() + "ed " + c.selID + " goes here"
				if d.Kind == dom.Drop {
					note = "◄ " + c.selID + " dropped (" + d.Rule + "), would be here"
				}
			}
		}
	}
	x := p.side.XOffset()
	end := min(p.offset+max(p.height, 1), len(p.lines))
	body := make([]string, 0, max(end-p.offset, 0))
	for i := p.offset; i < end; i++ {
		sel, n := views.NotSelected, c.snap.Node(p.ids[i])
		ln := ""
		if i == p.cursor {
			if c.focused {
				sel = views.Focused
			} else if i == target {
				sel = views.Blurred
			}
			if i == target || c.focused {
				ln = note
			}
		}
		if ln == "" && n != nil && p.first[n.ID] == i {
			switch c.marks[n.ID] {
			case views.Added:
				ln = "+ new"
			case views.Renamed:
				ln = c.notes[n.ID]
			}
		}
		body = append(body, views.FlatLineAt(c.st, p.lines[i], n, p.w, x, sel, ln))
	}
	return body
}
