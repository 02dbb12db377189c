package flatten

import (
	"math"
	"slices"
	"strconv"
	"strings"

	"domscope/dom"
)

// scrollOf is where v stands as a scroll container other than the page
// itself, from the view's Look; nil for any other node.
func (f *flat) scrollOf(v *dom.VirtualNode) *dom.Scroll {
	if v.Tag == "html" || v.Tag == "body" {
		return nil
	}
	return f.opts.Look.ScrollOf(v)
}

// scrollState is where a node standing at s is, for the output; rows
// estimates the rows of a virtual list (v nil: the page).
func scrollState(v *dom.VirtualNode, s *dom.Scroll) *dom.ScrollState {
	if s == nil {
		return nil
	}
	st := &dom.ScrollState{Top: round1(s.Top), Height: round1(s.Height), Client: round1(s.ClientHeight),
		MoreAbove: s.MoreAbove(), MoreBelow: s.MoreBelow()}
	if s.Width > s.ClientWidth+1 {
		st.Left, st.Width, st.ClientWidth = round1(s.Left), round1(s.Width), round1(s.ClientWidth)
		st.MoreLeft, st.MoreRight = s.MoreLeft(), s.MoreRight()
	}
	if v != nil {
		st.Rows = EstimateRows(v, s)
	}
	return st
}

func round1(f float64) float64 { return math.Round(f) }

// EstimateRows guesses how many rows a list v standing at s holds from
// its scroll height and the height of the rows it has drawn. It says 0
// when the drawn rows are all there are (no virtual list).
func EstimateRows(v *dom.VirtualNode, s *dom.Scroll) int {
	if v == nil || s == nil || s.Height <= s.ClientHeight+1 {
		return 0
	}
	// rows are the children of the container, or of its one wrapper
	holder := v
	for range 3 {
		kids := elementKids(holder)
		if len(kids) != 1 {
			break
		}
		holder = kids[0]
	}
	kids := elementKids(holder)
	var hs []float64
	for _, k := range kids {
		if k.Bounds.H >= 1 && k.Hidden == "" {
			hs = append(hs, k.Bounds.H)
		}
	}
	if len(hs) < 5 {
		return 0
	}
	slices.Sort(hs)
	rowH := hs[len(hs)/2]
	if hs[len(hs)/4] < rowH*0.8 || hs[len(hs)*3/4] > rowH*1.25 {
		return 0 // rows of a list are of one height; these are not rows
	}
	est := int(math.Round(s.Height / rowH))
	if est <= len(hs)*3/2 {
		return 0 // every row is drawn: not a virtual list
	}
	return est
}

func elementKids(v *dom.VirtualNode) []*dom.VirtualNode {
	var out []*dom.VirtualNode
	for _, c := range v.Children {
		if c.NodeType == dom.ElementNode {
			out = append(out, c)
		}
	}
	return out
}

// scrollText is a scroll container's mark in the text format:
// "scroll 40% ↑↓", with "~10000 rows" for a virtual list.
func scrollText(st *dom.ScrollState) string {
	var b strings.Builder
	b.WriteString(" scroll")
	if st.Height > st.Client {
		pct := 0
		if span := st.Height - st.Client; span > 0 {
			pct = int(math.Round(100 * st.Top / span))
		}
		b.WriteString(" " + strconv.Itoa(min(100, max(0, pct))) + "%")
	}
	arrows := ""
	if st.MoreAbove {
		arrows += "↑"
	}
	if st.MoreBelow {
		arrows += "↓"
	}
	if st.MoreLeft {
		arrows += "←"
	}
	if st.MoreRight {
		arrows += "→"
	}
	if arrows != "" {
		b.WriteString(" " + arrows)
	}
	if st.Rows > 0 {
		b.WriteString(" ~" + strconv.Itoa(st.Rows) + " rows")
	}
	return b.String()
}

// PageScroll is where the page itself stands, or nil when it does not
// scroll (or the view read no Look).
func PageScroll(l *dom.Look) *dom.ScrollState {
	if l == nil || l.Page == nil {
		return nil
	}
	return scrollState(nil, l.Page)
}

// PageScrollText is the page's mark for a page line: " scroll 0% ↓".
func PageScrollText(sd *dom.SerializedDom) string {
	if sd == nil || sd.Scroll == nil {
		return ""
	}
	return scrollText(sd.Scroll)
}

// ScrollMarks are the marks of every scroll container look read, by
// node ID ("scroll 40% ↑↓ ~10000 rows"), and the page's under the
// root's ID: for a view that marks nodes outside its lines (the UI's
// tree). Nil without a look.
func ScrollMarks(s *dom.Snapshot, l *dom.Look) map[string]string {
	if l == nil || s == nil {
		return nil
	}
	out := make(map[string]string, len(l.Scroll)+1)
	for v, sc := range l.Scroll {
		if v.Tag != "html" && v.Tag != "body" {
			out[v.ID] = strings.TrimSpace(scrollText(scrollState(v, sc)))
		}
	}
	if l.Page != nil && s.Root != nil {
		out[s.Root.ID] = "page" + scrollText(scrollState(nil, l.Page))
	}
	return out
}
