package flatten

import (
	"strings"

	"domscope/dom"
)

// A token budget cuts a view so it fits an agent's context. It cuts at a
// whole line (a whole node in json), never inside one. A closing line
// says how much was left out. The callers word that line, since only they
// know how to ask for the rest (a flag, a tool argument).

// CutTextLines keeps the first lines of a text view that fit in maxTokens
// (o200k), leaving room for the closing line. omitted is how many lines
// (each one node) were left out. maxTokens <= 0 keeps everything.
func CutTextLines(lines []Line, maxTokens int) (kept []Line, omitted int) {
	if maxTokens <= 0 {
		return lines, 0
	}
	budget := maxTokens - closingLineTokens
	used := 0
	for i, l := range lines {
		used += CountTokens(l.Text) + 1 // the newline
		if used > budget {
			return lines[:i], len(lines) - i
		}
	}
	return lines, 0
}

// closingLineTokens is room kept for the line that says what was cut.
const closingLineTokens = 40

// JoinLines is the text of lines, each ending in a newline.
func JoinLines(lines []Line) string {
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(l.Text)
		b.WriteByte('\n')
	}
	return b.String()
}

// CutNodes returns a copy of sd with only its first keep nodes in text
// order (parents before children), and how many were left out. sd is
// not changed.
func CutNodes(sd *dom.SerializedDom, keep int) (*dom.SerializedDom, int) {
	if sd == nil {
		return sd, 0
	}
	out := *sd
	left := keep
	var cut func(l []*dom.SerializedNode) []*dom.SerializedNode
	omitted := 0
	cut = func(l []*dom.SerializedNode) []*dom.SerializedNode {
		var res []*dom.SerializedNode
		for _, n := range l {
			if left <= 0 {
				omitted += countSerialized([]*dom.SerializedNode{n})
				continue
			}
			left--
			c := *n
			c.Children = cut(n.Children)
			res = append(res, &c)
		}
		return res
	}
	out.Nodes = cut(sd.Nodes)
	if out.Nodes == nil {
		out.Nodes = []*dom.SerializedNode{}
	}
	return &out, omitted
}

// CutJSON is FormatJSON of sd cut to the most nodes (in text order) whose
// json fits in maxTokens (o200k). It leaves room for the marker node more
// adds (more gets the count left out and returns its text). maxTokens <= 0
// keeps everything.
func CutJSON(sd *dom.SerializedDom, maxTokens int, more func(omitted int) string) ([]byte, int, error) {
	full, err := FormatJSON(sd)
	if err != nil || maxTokens <= 0 || CountTokens(string(full)) <= maxTokens {
		return full, 0, err
	}
	total := countSerialized(sd.Nodes)
	fits := func(k int) ([]byte, int, bool) {
		c, omitted := CutNodes(sd, k)
		c.Nodes = append(c.Nodes, &dom.SerializedNode{Role: "more", Tag: "#marker", Text: more(omitted)})
		b, err := FormatJSON(c)
		return b, omitted, err == nil && CountTokens(string(b)) <= maxTokens
	}
	// the most nodes that fit: the cost grows with k
	lo, hi := 0, total
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if _, _, ok := fits(mid); ok {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	b, omitted, _ := fits(lo)
	return b, omitted, nil
}
