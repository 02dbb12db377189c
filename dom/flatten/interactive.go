package flatten

import (
	"strings"

	"domscope/dom"
	"domscope/dom/internal/textutil"
)

// The interactive view (Options.Interactive, issue 33) keeps the nodes an
// agent acts on, one line each, flat. A line of context (the landmark
// and heading they sit under) comes before them when it changes. Page
// text appears only where it names a control: an unnamed control takes
// its own text, and controls whose role and name repeat say which item
// they sit in ("in" the item's label). Folds and markers stay.

// contextRoles give the interactive view its context lines.
var contextRoles = map[string]bool{
	"navigation": true, "main": true, "banner": true, "contentinfo": true, "search": true,
	"complementary": true, "form": true, "region": true, "dialog": true, "alertdialog": true,
}

// itemRoles are the items a repeated control is told apart by.
var itemRoles = map[string]bool{
	"listitem": true, "row": true, "article": true, "treeitem": true, "option": true,
	"menuitem": true, "gridcell": true, "cell": true,
}

// interactiveOnly replaces the output with the interactive view.
func (f *flat) interactiveOnly() {
	type entry struct {
		n        *dom.SerializedNode
		landmark *dom.SerializedNode
		item     *dom.SerializedNode
	}
	var kept []entry
	heading := map[*dom.SerializedNode]string{} // the heading before each kept node
	// a heading holds until its parent ends: one inside a card is not
	// the heading of the form after the list
	type head struct {
		owner *dom.SerializedNode
		text  string
	}
	var heads []head
	type frame struct {
		n, parent      *dom.SerializedNode
		landmark, item *dom.SerializedNode
		exit           bool
	}
	stack := make([]frame, 0, 64)
	for i := len(f.sd.Nodes) - 1; i >= 0; i-- {
		stack = append(stack, frame{n: f.sd.Nodes[i]})
	}
	for len(stack) > 0 {
		fr := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		n := fr.n
		if fr.exit {
			for len(heads) > 0 && heads[len(heads)-1].owner == n {
				heads = heads[:len(heads)-1]
			}
			continue
		}
		if n == nil {
			continue
		}
		v := f.s.ByID[n.ID]
		switch {
		case n.Role == "more":
			kept = append(kept, entry{n: n})
			continue
		case n.Role == "heading":
			h := "h" + string(rune('0'+max(1, min(n.Level, 9)))) + " " + quote(textutil.Truncate(headingText(n), foldLabelLen))
			heads = append(heads, head{owner: fr.parent, text: h})
		case v != nil && (isInteractive(v) || n.Scroll != nil) && n.Role != "text" && v.Hidden == "":
			c := *n
			c.Children = nil
			if c.Name == "" {
				c.Text = textutil.Truncate(ownText(n), foldLabelLen)
			}
			kept = append(kept, entry{n: &c, landmark: fr.landmark, item: fr.item})
			if len(heads) > 0 {
				heading[&c] = heads[len(heads)-1].text
			}
		}
		landmark, item := fr.landmark, fr.item
		if contextRoles[n.Role] && (n.Name != "" || n.Role != "region") {
			landmark = n
		}
		if itemRoles[n.Role] {
			item = n
		}
		stack = append(stack, frame{n: n, exit: true})
		for i := len(n.Children) - 1; i >= 0; i-- {
			stack = append(stack, frame{n: n.Children[i], parent: n, landmark: landmark, item: item})
		}
	}
	// a control whose role and name repeat says which item holds it
	seen := map[string]int{}
	// within one heading's section: the context line tells sections apart
	key := func(n *dom.SerializedNode) string {
		return heading[n] + "\x00" + n.Role + "\x00" + n.Name + "\x00" + n.Text
	}
	for _, e := range kept {
		if e.n.Role != "more" {
			seen[key(e.n)]++
		}
	}
	out := make([]*dom.SerializedNode, 0, len(kept)+8)
	var lastMark *dom.SerializedNode
	lastHead := ""
	for _, e := range kept {
		if e.n.Role == "more" {
			out = append(out, e.n)
			continue
		}
		if seen[key(e.n)] > 1 && e.item != nil && !headerRoles[e.n.Role] {
			if c := itemContext(e.item, e.n); c != e.n.Name {
				e.n.Context = c
			}
		}
		// the href is in the full view; here it costs more than it tells
		e.n.Href = ""
		h := heading[e.n]
		switch {
		case e.landmark != lastMark && e.landmark != nil:
			out = append(out, contextLine(e.landmark, h))
		case e.landmark != lastMark && h != "" || h != lastHead && h != "":
			out = append(out, &dom.SerializedNode{Role: "text", Tag: "#context", Text: h})
		}
		lastMark, lastHead = e.landmark, h
		out = append(out, e.n)
	}
	f.sd.Nodes = out
}

// headerRoles head a table's columns or rows: the heading before the
// table tells them apart.
var headerRoles = map[string]bool{"columnheader": true, "rowheader": true}

// contextLine names where a control sits: its landmark, then the heading
// before it.
func contextLine(landmark *dom.SerializedNode, heading string) *dom.SerializedNode {
	p := textRole(landmark)
	if landmark.Name != "" {
		p += " " + quote(textutil.Truncate(landmark.Name, foldLabelLen))
	}
	if heading != "" {
		p += " › " + heading
	}
	return &dom.SerializedNode{Role: "text", Tag: "#context", Text: p}
}

// headingText is a heading's name, else its text.
func headingText(n *dom.SerializedNode) string {
	if n.Name != "" {
		return n.Name
	}
	return ownText(n)
}

// ownText is the text below n, joined (controls name themselves by it).
func ownText(n *dom.SerializedNode) string {
	var b strings.Builder
	stack := append([]*dom.SerializedNode(nil), n.Children...)
	for i, j := 0, len(stack)-1; i < j; i, j = i+1, j-1 {
		stack[i], stack[j] = stack[j], stack[i]
	}
	for len(stack) > 0 && b.Len() < 4*foldLabelLen {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if x == nil {
			continue
		}
		if x.Role == "text" && x.Text != "" {
			if b.Len() > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(x.Text)
		}
		for i := len(x.Children) - 1; i >= 0; i-- {
			stack = append(stack, x.Children[i])
		}
	}
	return b.String()
}

// itemContext is the label of the item a repeated control sits in: the
// item's name, else its first text or heading, else any other name.
func itemContext(item, self *dom.SerializedNode) string {
	if item.Role == "row" {
		// a row is told apart by its first cell
		for _, c := range item.Children {
			if c != nil && c.ID != self.ID {
				if l := itemLabel(c); l != "" {
					return textutil.Truncate(l, contextLen)
				}
			}
		}
	}
	if item.Name != "" && item.Name != self.Name {
		return textutil.Truncate(item.Name, contextLen)
	}
	other := ""
	stack := []*dom.SerializedNode{item}
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if x == nil || x.ID == self.ID {
			continue
		}
		switch {
		case x.Role == "text" && x.Text != "":
			return textutil.Truncate(x.Text, contextLen)
		case x.Role == "heading" && headingText(x) != "":
			return textutil.Truncate(headingText(x), contextLen)
		case other == "" && x != item && x.Name != "" && x.Name != self.Name:
			other = x.Name
		}
		for i := len(x.Children) - 1; i >= 0; i-- {
			stack = append(stack, x.Children[i])
		}
	}
	return textutil.Truncate(other, contextLen)
}

// contextLen bounds the label that tells a repeated control apart.
const contextLen = 30
