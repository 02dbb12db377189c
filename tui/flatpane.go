package tui

import (
	"strings"

	"domscope/dom"
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
	viewport
}

// SetOutput replaces the content from a new flatten result. The token
// count is of the exact string the LLM would receive (compact JSON or
// text), not of the indented display.
func (p *FlatPane) SetOutput(sd *dom.SerializedDom) error {
	sel := p.SelectedID()
	var out string
	var lines []dom.Line
	if p.json {
		b, err := dom.FormatJSON(sd)
		if err != nil {
			return err
		}
		out = string(b)
		if lines, err = dom.FormatJSONLines(sd); err != nil {
			return err
		}
	} else {
		out = dom.FormatText(sd)
		lines = dom.FormatTextLines(sd)
	}
	p.setLines(lines)
	p.tokens = dom.CountTokens(out)
	if sel != "" && !p.Select(sel) {
		p.clamp()
	}
	return nil
}

func (p *FlatPane) setLines(lines []dom.Line) {
	if len(lines) == 0 {
		lines = []dom.Line{{}} // one empty line, as an empty output splits into
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
	return l[:len(l)-len(rest)] + views.Clean(rest)
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

func (p *FlatPane) Move(delta int) { p.cursor += delta; p.clamp() }
func (p *FlatPane) Top()           { p.cursor = 0; p.clamp() }
func (p *FlatPane) Bottom()        { p.cursor = len(p.lines) - 1; p.clamp() }

func (p *FlatPane) clamp() { p.viewport.clamp(len(p.lines)) }

func (p *FlatPane) SetHeight(h int) { p.setHeight(h, len(p.lines)) }

func (p *FlatPane) scrollToCursor() { p.follow(len(p.lines)) }

// Scroll moves the view (mouse wheel), dragging the cursor along.
func (p *FlatPane) Scroll(delta int) { p.scroll(delta, len(p.lines)) }

// ShowLine scrolls so line i is visible without moving the cursor.
func (p *FlatPane) ShowLine(i int) {
	if i < 0 {
		return
	}
	h := max(p.height, 1)
	if i < p.offset {
		p.offset = i
	} else if i >= p.offset+h {
		p.offset = i - h + 1
	}
}
