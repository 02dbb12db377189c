package flatten

import (
	"fmt"
	"sort"
	"strconv"

	"domscope/dom"
)

// A view over its token budget sheds lines before it cuts (issue 33).
// First the lines of nodes that only group (a landmark or wrapper with
// no name): their children take their place, one level up. Then the
// lines out of the viewport, the farthest from it first. Only then does
// it cut at a whole node. Ids never change; a closing line says what was
// shed. A cut after a shed says both in one line.

// Shed counts the lines a budget shed before it cut.
type Shed struct{ Structural, Offscreen int }

// Any: some line was shed.
func (s Shed) Any() bool { return s.Structural+s.Offscreen > 0 }

// phrase is "shed 41 structural and 212 off-screen lines".
func (s Shed) phrase() string {
	var what string
	switch {
	case s.Structural > 0 && s.Offscreen > 0:
		what = strconv.Itoa(s.Structural) + " structural and " + strconv.Itoa(s.Offscreen) + " off-screen"
	case s.Structural > 0:
		what = strconv.Itoa(s.Structural) + " structural"
	default:
		what = strconv.Itoa(s.Offscreen) + " off-screen"
	}
	if s.Structural+s.Offscreen == 1 {
		return "shed " + what + " line"
	}
	return "shed " + what + " lines"
}

// Line is the closing line of a view that fit after the shed:
// "shed 41 structural and 212 off-screen lines to fit 2,000 tokens".
func (s Shed) Line(maxTokens int) string {
	return s.phrase() + " to fit " + thousands(maxTokens) + " tokens"
}

// withCut is a cut's note after a shed: its longer forms say what was
// shed too, its barest stays bare.
func (s Shed) withCut(note Note) Note {
	if !s.Any() {
		return note
	}
	return func(omitted int) []string {
		forms := note(omitted)
		if len(forms) == 0 {
			return forms
		}
		out := make([]string, 0, 2*len(forms))
		for _, f := range forms[:len(forms)-1] {
			out = append(out, f+"; "+s.phrase())
		}
		return append(out, forms...)
	}
}

func thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// keepGroupRoles group nodes whose membership an agent needs (the form a
// button submits, the row a cell is in, the open dialog): never shed.
var keepGroupRoles = map[string]bool{
	"listitem": true, "row": true, "table": true, "grid": true, "treegrid": true, "cell": true, "gridcell": true,
	"columnheader": true, "rowheader": true, "form": true, "dialog": true, "alertdialog": true, "menu": true,
	"menubar": true, "listbox": true, "tablist": true, "tabpanel": true, "tree": true, "radiogroup": true,
	"treeitem": true, "option": true,
}

// structural: n's line only groups its children. It has no name and no
// state of its own and no agent acts on it (a list, an unnamed main, a
// wrapper).
func structural(s *dom.Snapshot, n *dom.SerializedNode) bool {
	if len(n.Children) == 0 || n.Name != "" || n.Text != "" || n.Value != "" || n.Href != "" ||
		n.Scroll != nil || n.CoveredBy != "" || n.Context != "" || n.Role == "text" || n.Role == "more" || keepGroupRoles[n.Role] {
		return false
	}
	return Container(s.ByID[n.ID])
}

// offscreen: n's line is of a node outside the viewport.
func offscreen(s *dom.Snapshot, n *dom.SerializedNode) bool {
	v := s.ByID[n.ID]
	return n.Role != "more" && v != nil && !v.InViewport
}

// without is a copy of sd without the nodes in drop; the children of a
// dropped node take its place. sd is not changed.
func without(sd *dom.SerializedDom, drop map[*dom.SerializedNode]bool) *dom.SerializedDom {
	var keep func(l []*dom.SerializedNode, out []*dom.SerializedNode) []*dom.SerializedNode
	keep = func(l []*dom.SerializedNode, out []*dom.SerializedNode) []*dom.SerializedNode {
		for _, n := range l {
			if n == nil {
				continue
			}
			if drop[n] {
				out = keep(n.Children, out)
				continue
			}
			c := *n
			c.Children = keep(n.Children, nil)
			out = append(out, &c)
		}
		return out
	}
	out := *sd
	out.Nodes = keep(sd.Nodes, []*dom.SerializedNode{})
	out.NodeCount = countSerialized(out.Nodes)
	return &out
}

// ShedStructural is a copy of sd without its structural lines (seed 003
// §3.7.3's container pruning, where landmarks go too and items, rows,
// forms and dialogs stay), and how many it shed. Their children take
// their place. s is the snapshot sd was flattened from.
func ShedStructural(s *dom.Snapshot, sd *dom.SerializedDom) (*dom.SerializedDom, int) {
	drop := map[*dom.SerializedNode]bool{}
	for _, n := range textOrder(sd) {
		if structural(s, n) {
			drop[n] = true
		}
	}
	return without(sd, drop), len(drop)
}

// textOrder lists sd's nodes in the text format's order.
func textOrder(sd *dom.SerializedDom) []*dom.SerializedNode {
	var out []*dom.SerializedNode
	eachTextNode(sd, func(n *dom.SerializedNode, _ int) { out = append(out, n) })
	return out
}

// shedder finds the least to shed for a view to fit; cost is the view's
// tokens with a closing line, or -1 when it cannot be made.
type shedder struct {
	s    *dom.Snapshot
	max  int
	cost func(sd *dom.SerializedDom, closing string) int
}

// fit sheds sd's structural lines, then as few off-screen lines as it
// must, farthest from the viewport first. It returns the view that fits
// with its closing line, or with everything shed and ok false.
func (h shedder) fit(sd *dom.SerializedDom) (out *dom.SerializedDom, shed Shed, ok bool) {
	out, shed.Structural = ShedStructural(h.s, sd)
	if shed.Any() && h.fits(out, shed) {
		return out, shed, true
	}
	far := farthestOffscreen(h.s, textOrder(out))
	if len(far) == 0 {
		return out, shed, false
	}
	base := out
	try := func(k int) (*dom.SerializedDom, Shed) {
		d := make(map[*dom.SerializedNode]bool, k)
		for _, n := range far[:k] {
			d[n] = true
		}
		return without(base, d), Shed{shed.Structural, k}
	}
	// the fewest that fit: the cost falls as lines go
	k := sort.Search(len(far)+1, func(k int) bool {
		v, sh := try(k)
		return k > 0 && h.fits(v, sh)
	})
	if k > len(far) {
		out, shed = try(len(far))
		return out, shed, false
	}
	out, shed = try(k)
	return out, shed, true
}

func (h shedder) fits(sd *dom.SerializedDom, shed Shed) bool {
	c := h.cost(sd, shed.Line(h.max))
	return c >= 0 && c <= h.max
}

// farthestOffscreen are the off-screen nodes of order (a view in text
// order), the farthest in lines from one in the viewport first; among
// equals the later first. With none in the viewport there is nothing to
// keep them nearer to: none.
func farthestOffscreen(s *dom.Snapshot, order []*dom.SerializedNode) []*dom.SerializedNode {
	inView := func(n *dom.SerializedNode) bool {
		v := s.ByID[n.ID]
		return n.Role != "more" && v != nil && v.InViewport
	}
	dist := make([]int, len(order))
	last := -1
	for i, n := range order {
		if inView(n) {
			last = i
		}
		dist[i] = len(order)
		if last >= 0 {
			dist[i] = i - last
		}
	}
	if last < 0 {
		return nil
	}
	last = -1
	var far []int
	for i := len(order) - 1; i >= 0; i-- {
		if inView(order[i]) {
			last = i
		}
		if last >= 0 {
			dist[i] = min(dist[i], last-i)
		}
		if offscreen(s, order[i]) {
			far = append(far, i)
		}
	}
	sort.SliceStable(far, func(a, b int) bool { return dist[far[a]] > dist[far[b]] })
	out := make([]*dom.SerializedNode, len(far))
	for i, j := range far {
		out[i] = order[j]
	}
	return out
}

// FitText is the text view of sd in maxTokens (o200k): it sheds, then
// cuts (CutText) with note. closing is the line that ends it ("…
// shed …", or the cut's), "" when it was not cut. s, the snapshot sd
// was flattened from, tells the lines that only group and those off
// screen. maxTokens <= 0 keeps everything.
func FitText(s *dom.Snapshot, sd *dom.SerializedDom, maxTokens int, note Note) (kept []Line, closing string) {
	lines := FormatTextLines(sd)
	if maxTokens <= 0 || s == nil {
		kept, _, closing = CutText(lines, maxTokens, note)
		return kept, closing
	}
	count := chunkCounter{}
	if count.text(JoinLines(lines)) <= maxTokens {
		return lines, ""
	}
	h := shedder{s: s, max: maxTokens, cost: func(v *dom.SerializedDom, closing string) int {
		return count.text(FormatText(v) + "… " + closing + "\n")
	}}
	v, shed, ok := h.fit(sd)
	lines = FormatTextLines(v)
	if ok {
		return lines, "… " + shed.Line(maxTokens)
	}
	kept, _, closing = CutText(lines, maxTokens, shed.withCut(note))
	return kept, closing
}

// chunkCounter counts a text view's tokens exactly, by the chunks of
// linetokens.go, each counted once: the views a shed tries share most of
// their lines.
type chunkCounter map[string]int

func (m chunkCounter) text(text string) int {
	c, err := o200k()
	n, _ := countChunks(text, nil, func(chunk string) int {
		k, ok := m[chunk]
		if ok {
			return k
		}
		k = (len(chunk) + 3) / 4
		if err == nil {
			if x, err := c.Count(chunk); err == nil {
				k = x
			}
		}
		m[chunk] = k
		return k
	})
	return n
}

// FitJSON is FormatJSON of sd in maxTokens (o200k): it sheds as FitText
// does, then cuts (CutJSON). A marker node ends it, as the closing line
// ends the text.
func FitJSON(s *dom.Snapshot, sd *dom.SerializedDom, maxTokens int, note Note) ([]byte, error) {
	if s == nil {
		b, _, err := CutJSON(sd, maxTokens, note)
		return b, err
	}
	full, err := FormatJSON(sd)
	if err != nil || maxTokens <= 0 || CountTokens(string(full)) <= maxTokens {
		return full, err
	}
	withMarker := func(v *dom.SerializedDom, text string) *dom.SerializedDom {
		c := *v
		c.Nodes = append(append([]*dom.SerializedNode(nil), v.Nodes...), &dom.SerializedNode{Role: "more", Tag: "#marker", Text: text})
		return &c
	}
	h := shedder{s: s, max: maxTokens, cost: func(v *dom.SerializedDom, closing string) int {
		b, err := FormatJSON(withMarker(v, closing))
		if err != nil {
			return -1
		}
		return CountTokens(string(b))
	}}
	v, shed, ok := h.fit(sd)
	if ok {
		return FormatJSON(withMarker(v, shed.Line(maxTokens)))
	}
	b, _, err := CutJSON(v, maxTokens, shed.withCut(note))
	if err != nil {
		return nil, fmt.Errorf("cutting the view to %d tokens: %w", maxTokens, err)
	}
	return b, nil
}
