package flatten

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"domscope/dom"
)

// FormatJSON writes the json format agents receive; only non-default values appear.
func FormatJSON(sd *dom.SerializedDom) ([]byte, error) {
	work.format.Add(1)
	if sd == nil {
		sd = &dom.SerializedDom{}
	}
	if sd.Nodes == nil || sd.Frames == nil {
		c := *sd
		if c.Nodes == nil {
			c.Nodes = []*dom.SerializedNode{}
		}
		if c.Frames == nil {
			c.Frames = []dom.FrameInfo{}
		}
		sd = &c
	}
	// no HTML escaping: "&" in a URL stays one character (and fewer tokens)
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(sd); err != nil {
		return nil, err
	}
	return EscapeJSON(bytes.TrimSuffix(b.Bytes(), []byte("\n"))), nil
}

// FormatText writes the flattened tree for an LLM, one node per line.
// Lines are indented one space per level. It spends as few tokens as
// reads well:
//
//	[12] button "Submit" disabled
//	[14] link "Docs" href=/docs
//	[15] searchbox "Search" focused: typed value
//	 Some paragraph text
//
// Lines of nodes start with "[N]" (N is the number of node_N, which every
// action accepts). A field's current value ends its line after ": ".
// Any other line is text; one that would start with "[" gets a backslash. Page strings are escaped (newlines, control characters,
// quotes in names), so a node is always exactly one line.
func FormatText(sd *dom.SerializedDom) string {
	if sd == nil {
		return ""
	}
	work.format.Add(1)
	var b strings.Builder
	eachTextNode(sd, func(n *dom.SerializedNode, depth int) { writeTextLine(&b, n, depth) })
	return b.String()
}

// eachTextNode calls f for every node of sd in the text format's order
// (depth first, document order) with its depth. It works iteratively,
// since flattened trees can be as deep as the page.
func eachTextNode(sd *dom.SerializedDom, f func(n *dom.SerializedNode, depth int)) {
	type entry struct {
		n     *dom.SerializedNode
		depth int
	}
	stack := make([]entry, 0, 64)
	for i := len(sd.Nodes) - 1; i >= 0; i-- {
		stack = append(stack, entry{sd.Nodes[i], 0})
	}
	for len(stack) > 0 {
		e := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if e.n == nil {
			continue
		}
		f(e.n, e.depth)
		for i := len(e.n.Children) - 1; i >= 0; i-- {
			stack = append(stack, entry{e.n.Children[i], e.depth + 1})
		}
	}
}

func writeTextLine(b *strings.Builder, n *dom.SerializedNode, depth int) {
	writeIndent(b, depth)
	switch n.Role {
	case "text":
		t := escapeLine(n.Text)
		if strings.HasPrefix(t, "[") {
			b.WriteByte('\\')
		}
		b.WriteString(t)
		b.WriteByte('\n')
		return
	case "more":
		b.WriteString("… ")
		b.WriteString(escapeLine(n.Text))
		b.WriteByte('\n')
		return
	}
	b.WriteByte('[')
	b.WriteString(shortID(n.ID))
	b.WriteString("] ")
	b.WriteString(escapeLine(textRole(n)))
	if n.Name != "" {
		b.WriteByte(' ')
		b.WriteString(quote(n.Name))
	}
	if n.Text != "" {
		b.WriteByte(' ')
		b.WriteString(quote(n.Text))
	}
	if n.Context != "" {
		b.WriteString(" in ")
		b.WriteString(quote(n.Context))
	}
	if n.InputType != "" && impliedType[n.Role] != n.InputType && n.InputType != n.Role {
		b.WriteString(" type=")
		b.WriteString(escapeLine(n.InputType))
	}
	if n.Href != "" {
		b.WriteString(" href=")
		b.WriteString(bareOrQuoted(n.Href))
	}
	if n.Placeholder != "" {
		b.WriteString(" placeholder=")
		b.WriteString(quote(n.Placeholder))
	}
	if n.TestID != "" && n.Name == "" {
		b.WriteString(" testid=")
		b.WriteString(bareOrQuoted(n.TestID))
	}
	writeTriState(b, n.Checked, "checked", "unchecked")
	writeTriState(b, n.Pressed, "pressed", "unpressed")
	if n.Role != "combobox" {
		writeTriState(b, n.Expanded, "expanded", "collapsed")
	} else if n.Expanded == "true" {
		b.WriteString(" expanded")
	}
	if n.Selected {
		b.WriteString(" selected")
	}
	if n.Disabled {
		b.WriteString(" disabled")
	}
	if n.Required {
		b.WriteString(" required")
	}
	if n.Focused {
		b.WriteString(" focused")
	}
	if n.Scroll != nil {
		b.WriteString(scrollText(n.Scroll))
	}
	if n.CoveredBy != "" {
		b.WriteString(" covered by [" + shortID(n.CoveredBy) + "]")
	}
	if r := n.Bounds; r != nil {
		// page coordinates in CSS pixels: @x,y width x height
		fmt.Fprintf(b, " @%.0f,%.0f %.0fx%.0f", r.X, r.Y, r.W, r.H)
	}
	if n.Value != "" {
		// last, as Playwright writes it: `textbox "Search": typed value`
		b.WriteString(": ")
		b.WriteString(lineValue(n.Value))
	}
	b.WriteByte('\n')
}

// lineValue writes a field's value at the end of a line. It is bare
// (escaped) where that reads back exactly. It is quoted where white space
// at either end or a leading quote would otherwise be lost or misread.
func lineValue(s string) string {
	if s[0] == '"' || strings.TrimSpace(s) != s {
		return quote(s)
	}
	return escapeLine(s)
}

func writeTriState(b *strings.Builder, v, yes, no string) {
	switch v {
	case "":
	case "true":
		b.WriteString(" " + yes)
	case "false":
		b.WriteString(" " + no)
	default:
		b.WriteString(" " + yes + "=" + escapeLine(v))
	}
}

// impliedType is the input type a role already says.
var impliedType = map[string]string{
	"checkbox": "checkbox", "radio": "radio", "slider": "range", "spinbutton": "number",
	"searchbox": "search", "button": "submit", "textbox": "text",
}

// textRole is the role word of the text format: headings as h1..h6, the
// tag where the role is generic, Chrome's internal names made plain.
func textRole(n *dom.SerializedNode) string {
	switch n.Role {
	case "heading":
		if n.Level >= 1 && n.Level <= 9 {
			return "h" + string(rune('0'+n.Level))
		}
	case "generic", "none", "presentation", "":
		if n.Tag != "" {
			return n.Tag
		}
	case "group":
		if n.Tag == "details" || n.Tag == "fieldset" {
			return n.Tag
		}
	case "DisclosureTriangle":
		return "summary"
	case "MenuListOption":
		return "option"
	case "ToggleButton", "PopUpButton":
		return "button"
	case "LabelText":
		return "label"
	}
	return n.Role
}

func shortID(id string) string { return strings.TrimPrefix(id, "node_") }

// bareOrQuoted leaves a value without spaces or quotes bare, else quotes it.
func bareOrQuoted(s string) string {
	if s != "" && !strings.ContainsAny(s, " \t\"") && safeRun(s, true) {
		return s
	}
	return quote(s)
}
