package tui

import (
	"fmt"
	"strings"

	"domscope/dom"
	"domscope/views"
)

type overlayKind int

const (
	overlayHelp overlayKind = iota
	overlayRules
	overlayDiff
	overlayTargets
)

// overlay is a list drawn over the panes: help, rules, diff, tabs.
type overlay struct {
	kind    overlayKind
	title   string
	foot    string
	items   []views.ListItem
	keys    []string // per item: "tier:<rule>", "flatten:<rule>", a node ID, a target ID
	targets []dom.TargetInfo
	cursor  int
	offset  int
	height  int
	width   int // the box's width; 0: the usual width
}

func (o *overlay) add(text, key string) {
	o.items = append(o.items, views.ListItem{Text: text})
	o.keys = append(o.keys, key)
}

func (o *overlay) header(text string) {
	o.items = append(o.items, views.ListItem{Text: text, Header: true})
	o.keys = append(o.keys, "")
}

// move moves the cursor by delta, skipping headers. Help has no cursor:
// it scrolls.
func (o *overlay) move(delta int) {
	if o.kind == overlayHelp {
		o.offset += delta
		o.scroll()
		return
	}
	if len(o.items) == 0 {
		return
	}
	step := 1
	if delta < 0 {
		step = -1
	}
	c := o.cursor
	for n := 0; n < abs(delta); n++ {
		next := c + step
		for next >= 0 && next < len(o.items) && o.items[next].Header {
			next += step
		}
		if next < 0 || next >= len(o.items) {
			break
		}
		c = next
	}
	o.cursor = c
	o.scroll()
}

func (o *overlay) first() {
	if o.kind == overlayHelp {
		o.offset = 0
		return
	}
	o.cursor = -1
	o.move(1)
	if o.cursor < 0 {
		o.cursor = 0
	}
	o.offset = 0
}

func (o *overlay) scroll() {
	rows := max(o.height, 1)
	if o.kind == overlayHelp {
		o.offset = max(min(o.offset, len(o.items)-rows), 0)
		return
	}
	if o.cursor < o.offset {
		o.offset = o.cursor
		// show the section header above the first item
		if o.offset > 0 && o.items[o.offset-1].Header {
			o.offset--
		}
	}
	if o.cursor >= o.offset+rows {
		o.offset = o.cursor - rows + 1
	}
}

func (o *overlay) key() string {
	if o.cursor >= 0 && o.cursor < len(o.keys) {
		return o.keys[o.cursor]
	}
	return ""
}

func abs(i int) int {
	if i < 0 {
		return -i
	}
	return i
}

// helpOverlay shows every binding, generated from the keymap, and the
// tier legend, in columns that fit the screen. It scrolls without a cursor.
func (m *Model) helpOverlay() *overlay {
	o := &overlay{kind: overlayHelp, title: "Help · every key", foot: "↑↓ scroll · esc close"}
	maxW := computeScreen(m.w, m.h).body.w - 4
	width := 0
	for _, l := range views.Help(m.st, m.km.Groups(), maxW-4) {
		o.add(l, "")
		width = max(width, views.Width(l))
	}
	o.width = min(width+4, maxW)
	o.cursor = -1
	return o
}

// rulesOverlay lists tier and flatten rules with their state.
func (m *Model) rulesOverlay(cursorKey string) *overlay {
	o := &overlay{kind: overlayRules, title: "Rules · toggle to see the flat view change",
		foot: fmt.Sprintf("space toggles · flat view now %s tokens · esc close", commas(m.flat.tokens))}
	box := func(off bool) string {
		if off {
			return m.st.Error.Render("[ ] off")
		}
		return m.st.OK.Render("[x] on ")
	}
	// how many nodes each rule decided on this page: what a toggle will move
	used := map[string]int{}
	if m.snap != nil {
		for _, n := range m.snap.ByID {
			used["tier:"+n.Why]++
		}
	}
	for _, d := range m.dec {
		used["flatten:"+d.Rule]++
	}
	count := func(k string) string {
		if n := used[k]; n > 0 {
			return views.Pad(commas(n), 7)
		}
		return views.Pad("·", 7)
	}
	o.header("Tier rules (rebuild the tree from the same capture) · nodes")
	for _, r := range dom.TierRules() {
		k := "tier:" + r.Name
		o.add(box(m.tierOff[r.Name])+" "+views.Pad(r.Name, 26)+" "+count(k)+m.st.Dim.Render(r.Doc), k)
	}
	o.header("Flatten rules (re-flatten at once) · nodes")
	for _, r := range dom.FlattenRules() {
		k := "flatten:" + r.Name
		o.add(box(m.flatOpts.Disabled[r.Name])+" "+views.Pad(r.Name, 26)+" "+count(k)+m.st.Dim.Render(r.Doc), k)
	}
	o.first()
	for i, k := range o.keys {
		if k == cursorKey && k != "" {
			o.cursor = i
		}
	}
	return o
}

// diffOverlay lists what changed between the last two snapshots.
func (m *Model) diffOverlay() *overlay {
	o := &overlay{kind: overlayDiff, title: "Changes since the previous snapshot", foot: "enter jumps to the node · esc close"}
	if m.newDoc {
		o.header("The page is a new document (navigation or reload): every node is new.")
		return o
	}
	if !m.hasDiff {
		o.header("No previous snapshot of this tab to compare with yet.")
		return o
	}
	d := m.diff
	o.header(fmt.Sprintf("Added (%d)", len(d.Added)))
	for _, id := range d.Added {
		o.add(m.st.Added.Render("+ ")+m.nodeName(id), id)
	}
	o.header(fmt.Sprintf("Renamed (%d)", len(d.Renamed)))
	for _, id := range d.Renamed {
		was := ""
		if p := m.prev.Node(id); p != nil {
			was = " (was " + views.Quote(p.Name, 30) + ")"
		}
		o.add(m.st.Renamed.Render("~ ")+m.nodeName(id)+m.st.Dim.Render(was), id)
	}
	o.header(fmt.Sprintf("Removed (%d)", len(d.Removed)))
	for _, id := range d.Removed {
		name := id
		if p := m.prev.Node(id); p != nil {
			name = id + " " + views.Clean(p.Tag)
			if p.Name != "" {
				name += " " + views.Quote(p.Name, 30)
			}
		}
		o.add(m.st.Removed.Render("- ")+name, "")
	}
	o.first()
	return o
}

// targetsOverlay lists the browser's tabs.
func (m *Model) targetsOverlay(ts []dom.TargetInfo) *overlay {
	o := &overlay{kind: overlayTargets, title: "Tabs · pick one to attach", foot: "enter attaches · esc close", targets: ts}
	for _, t := range ts {
		if t.Type != "" && t.Type != "page" {
			continue
		}
		cur := "  "
		if m.snap != nil && t.ID == m.snap.TargetID {
			cur = m.st.OK.Render("● ")
		}
		title := views.Trunc(views.Clean(t.Title), 40)
		o.add(cur+views.Pad(title, 40)+" "+m.st.Dim.Render(views.Trunc(views.Clean(t.URL), 60)), t.ID)
	}
	if len(o.items) == 0 {
		o.header("The browser has no page tabs.")
	}
	o.first()
	return o
}

// commas writes 12345 as "12,345".
func commas(n int) string {
	s := itoa(n)
	if n < 0 {
		return s
	}
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}
