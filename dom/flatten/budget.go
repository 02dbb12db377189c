package flatten

import (
	"sort"
	"strings"

	"domscope/dom"
)

// A token budget cuts a view so it fits an agent's context. It cuts at a
// whole line (a whole node in json), never inside one. A closing line
// says how much was left out. The callers word that line, since only they
// know how to ask for the rest (a flag, a tool argument).

// Note words the closing line of a cut for omitted nodes: its forms,
// longest first (the advice, then barer ones). A cut uses the longest
// form that fits the budget with the view.
type Note func(omitted int) []string

// CutText keeps the first lines of a text view that fit in maxTokens
// (o200k) with the closing line. omitted is how many lines (each one
// node) were left out; closing is "… " and the note's longest form that
// fits beside at least one line (else beside none), or "" when none does. maxTokens <= 0 keeps everything.
func CutText(lines []Line, maxTokens int, note Note) (kept []Line, omitted int, closing string) {
	if maxTokens <= 0 {
		return lines, 0, ""
	}
	// cost[i] is the tokens of the first i lines.
	cost := make([]int, len(lines)+1)
	for i, l := range lines {
		cost[i+1] = cost[i] + CountTokens(l.Text) + 1 // the newline
	}
	if cost[len(lines)] <= maxTokens {
		return lines, 0, ""
	}
	// A form that leaves room for some of the view comes first: a view
	// of nothing but advice helps no one. Else the longest that fits.
	for _, least := range []int{1, 0} {
		for fi, form := range note(len(lines)) {
			room := maxTokens - CountTokens("… "+form) - 1
			if room < 0 {
				continue
			}
			// the most lines that fit beside this form; its count changes
			// with the cut, and so may its cost, by a token or two
			i := sort.Search(len(lines)+1, func(i int) bool { return cost[i] > room }) - 1
			for ; i >= least; i-- {
				c := "… " + note(len(lines) - i)[fi]
				if cost[i]+CountTokens(c)+1 <= maxTokens {
					return lines[:i], len(lines) - i, c
				}
			}
		}
	}
	return nil, len(lines), ""
}

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
// json fits in maxTokens (o200k), with a marker node whose text is the
// longest form of note that fits. When no form fits beside the json's own
// frame, the barest is used. maxTokens <= 0 keeps everything.
func CutJSON(sd *dom.SerializedDom, maxTokens int, note Note) ([]byte, int, error) {
	full, err := FormatJSON(sd)
	if err != nil || maxTokens <= 0 || CountTokens(string(full)) <= maxTokens {
		return full, 0, err
	}
	total := countSerialized(sd.Nodes)
	forms := note(total)
	var b []byte
	omitted := total
	for fi := range forms {
		fits := func(k int) ([]byte, int, bool) {
			c, omitted := CutNodes(sd, k)
			c.Nodes = append(c.Nodes, &dom.SerializedNode{Role: "more", Tag: "#marker", Text: note(omitted)[fi]})
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
		var ok bool
		b, omitted, ok = fits(lo)
		if ok {
			break
		}
	}
	return b, omitted, nil
}
