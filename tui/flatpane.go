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
	json   bool // format: json (true) or text
	lines  []string
	ids    []string       // node ID per line ("" for none)
	first  map[string]int // node ID -> its first line
	tokens int
	dec    dom.Decisions // where hoisted and dropped nodes went
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

func (p *FlatPane) setLines(lines []flatten.Line) {
	if len(lines) == 0 {
		lines = []flatten.Line{{}} // one empty line, as an empty output splits into
	}
	p.lines = make([]string, len(lines))
	p.ids = make([]string, len(lines))
	p.first = make(map[string]int, len(lines))
	for i, l := range lines {
		p.lines[i] = cleanIndented(l.Text)
		p.ids[i] = l.ID
		if _, ok := p.first[l.ID]; !ok && l.ID != "" {
			p.first[l.ID] = i
		}
	}
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
		if ln == "" && n != nil && (i == 0 || p.ids[i-1] != n.ID) {
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
