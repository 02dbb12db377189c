// Package flatten turns the VirtualNode tree into the view an LLM gets,
// with a decision per node. It writes that view in the json, text and tree
// formats. It also diffs two snapshots and counts tokens.
package flatten

import (
	"slices"
	"strconv"
	"strings"
	"unicode"

	"domscope/dom"
	"domscope/dom/internal/textutil"
	"domscope/dom/urls"
)

// flat is the state of one Flatten.
type flat struct {
	s     *dom.Snapshot
	opts  dom.Options
	off   map[string]bool
	order []*dom.VirtualNode // preorder
	size  []int32            // subtree sizes (node included)
	// actsBelow: some descendant (outside user-agent internals) is kept on
	// its own merits (Semantic or NonSemantic and not hidden for good).
	actsBelow []bool
	dec       dom.Decisions
	sd        *dom.SerializedDom
	recs      []rec
	nInter    int
	capped    int
	cappedID  string
	// outside counts the nodes left out for lying outside the viewport
	// (IncludeOffscreen false), outsideInter the interactive ones.
	outside, outsideInter int
	// covered maps covered controls to what covers them (covered.go).
	covered map[*dom.VirtualNode]*dom.VirtualNode
}

// rec is one emitted node and where it sits, for the collapse pass.
type rec struct {
	sn     *dom.SerializedNode
	v      *dom.VirtualNode
	parent int32 // index in recs, -1 for top level
	pos    int   // index in the parent's children (or sd.Nodes)
	i      int32 // v's place in order
	group  bool  // a container that may collapse
}

// Flatten turns a snapshot into the view an LLM receives, plus the decision
// taken for every VirtualNode. It is pure and iterative; on a 50,000-node
// tree it takes milliseconds, so the UI re-runs it on every rule toggle.
func Flatten(s *dom.Snapshot, opts dom.Options) (*dom.SerializedDom, dom.Decisions) {
	work.flatten.Add(1)
	sd := &dom.SerializedDom{Nodes: []*dom.SerializedNode{}, Frames: []dom.FrameInfo{}}
	if s == nil || s.Root == nil {
		return sd, dom.Decisions{}
	}
	header(sd, s)
	sd.Scroll = PageScroll(opts.Look)
	f := &flat{s: s, opts: opts, off: opts.Disabled, sd: sd}
	f.index()
	f.dec = dom.NewDecisions(f.order)
	if f.opts.Covered && f.opts.Look != nil && f.on(FlatMarkCovered) {
		f.covered = f.coveredBy()
		sd.Marks.Covered = make(map[string]string, len(f.covered))
		for v, by := range f.covered {
			sd.Marks.Covered[v.ID] = by.ID
		}
	}
	f.walk()
	f.dedupeLabels()
	f.mergeTexts()
	f.collapse()
	f.modalScope()
	if f.folding() {
		f.fold()
	}
	if f.opts.Interactive {
		f.interactiveOnly()
	}
	if f.capped > 0 {
		sd.Nodes = append(sd.Nodes, &dom.SerializedNode{ID: f.cappedID, Role: "more", Tag: "#marker",
			Text: strconv.Itoa(f.capped) + " more interactive elements not shown (maxInteractive " + strconv.Itoa(opts.MaxInteractive) + ")"})
	}
	if f.outside > 0 {
		sd.Outside = f.outside
		sd.Nodes = append(sd.Nodes, &dom.SerializedNode{Role: "more", Tag: "#marker",
			Text: strconv.Itoa(f.outside) + " more nodes outside the viewport (" + strconv.Itoa(f.outsideInter) + " interactive) not shown: scroll, or include offscreen nodes"})
	}
	sd.TotalInteractiveElements = f.nInter
	sd.NodeCount = countSerialized(sd.Nodes)
	return sd, f.dec
}

// header gives sd what it says of s as a whole: URL, title, time and
// frames. The rest comes from s's tree alone.
func header(sd *dom.SerializedDom, s *dom.Snapshot) {
	sd.URL, sd.Title = s.URL, s.Title
	sd.Timestamp = s.Stamp
	if s.Raw != nil {
		sd.Timestamp = s.Raw.Timestamp
	}
	if sd.Timestamp == "" && !s.Taken.IsZero() {
		sd.Timestamp = s.Taken.UTC().Format("2006-01-02T15:04:05Z07:00")
	}
	sd.Frames = append(sd.Frames[:0:0], s.Frames...)
}

func (f *flat) on(rule string) bool { return !f.off[rule] }

// index lays the tree out in preorder with subtree sizes, and marks nodes
// with something kept below them.
func (f *flat) index() {
	n := len(f.s.ByID)
	f.order = make([]*dom.VirtualNode, 0, n)
	parent := make([]int32, 0, n)
	type e struct {
		v *dom.VirtualNode
		p int32
	}
	stack := []e{{f.s.Root, -1}}
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		idx := int32(len(f.order))
		f.order = append(f.order, x.v)
		parent = append(parent, x.p)
		for i := len(x.v.Children) - 1; i >= 0; i-- {
			stack = append(stack, e{x.v.Children[i], idx})
		}
	}
	f.size = make([]int32, len(f.order))
	f.actsBelow = make([]bool, len(f.order))
	for i := len(f.order) - 1; i >= 0; i-- {
		f.size[i]++
		v := f.order[i]
		if p := parent[i]; p >= 0 {
			f.size[p] += f.size[i]
			if v.ShadowType == "user-agent" {
				continue
			}
			if f.actsBelow[i] || (v.Tier != dom.Structural && !(v.Hidden != "" && dropReason(v.Hidden))) {
				f.actsBelow[p] = true
			}
		}
	}
}

// frame is a pending node of the walk: where its output goes.
type frame struct {
	i        int32
	parent   int32  // rec index of the nearest kept ancestor, -1 top level
	depth    int    // output depth a kept node here would have
	into     int32  // place of the nearest kept ancestor, -1 for none
	keptName string // name of the nearest kept ancestor
}

func (f *flat) walk() {
	maxDepth := f.opts.MaxDepth
	if maxDepth <= 0 {
		maxDepth = 100
	}
	stack := f.starts()
	for len(stack) > 0 {
		fr := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		v := f.order[fr.i]
		kind, rule := f.decide(fr)
		if kind == dom.Keep && f.on(FlatMaxDepth) && fr.depth >= maxDepth {
			f.emitMarker(fr, v)
			f.dropSubtree(fr.i, FlatMaxDepth, fr.into)
			continue
		}
		if kind == dom.Keep && f.on(FlatMaxInteractive) && f.opts.MaxInteractive > 0 && isInteractive(v) && rule != FlatTextBlock {
			if f.nInter >= f.opts.MaxInteractive {
				if f.capped == 0 {
					f.cappedID = v.ID
				}
				f.capped++
				kind, rule = dom.Hoist, FlatMaxInteractive
			}
		}
		switch kind {
		case dom.Drop:
			f.dropSubtree(fr.i, rule, fr.into)
		case dom.Hoist:
			f.dec.Set(int(fr.i), dom.Hoist, rule, int(fr.into))
			f.pushChildren(&stack, fr, fr.parent, fr.depth, fr.into, fr.keptName)
		case dom.Keep:
			f.dec.Set(int(fr.i), dom.Keep, rule, int(fr.into))
			r := f.emit(fr, v, rule)
			switch {
			case rule == FlatTextBlock || rule == FlatTextRun:
				f.dropDescendants(fr.i, FlatMergedIntoBlock, fr.i)
			case f.on(FlatAtomicLeaf) && isAtomic(v):
				f.dropDescendants(fr.i, FlatAtomicLeaf, fr.i)
			default:
				f.pushChildren(&stack, fr, r, fr.depth+1, fr.i, v.Name)
			}
		}
	}
}

func (f *flat) pushChildren(stack *[]frame, fr frame, parent int32, depth int, into int32, name string) {
	i := fr.i
	end := i + f.size[i]
	// children are the subtrees that follow i; collect then push reversed
	start := len(*stack)
	for c := i + 1; c < end; c += f.size[c] {
		*stack = append(*stack, frame{i: c, parent: parent, depth: depth, into: into, keptName: name})
	}
	s := *stack
	for a, b := start, len(s)-1; a < b; a, b = a+1, b-1 {
		s[a], s[b] = s[b], s[a]
	}
}

func (f *flat) dropSubtree(i int32, rule string, into int32) {
	end := i + f.size[i]
	for j := i; j < end; j++ {
		f.dec.Set(int(j), dom.Drop, rule, int(into))
	}
}

func (f *flat) dropDescendants(i int32, rule string, into int32) {
	end := i + f.size[i]
	for j := i + 1; j < end; j++ {
		f.dec.Set(int(j), dom.Drop, rule, int(into))
	}
}

// decide picks Keep, Hoist or Drop for one node and names the rule. A
// node that would be kept but lies outside the viewport is left out and
// counted when offscreen nodes are not wanted.
func (f *flat) decide(fr frame) (dom.DecisionKind, string) {
	kind, rule := f.decideShown(fr)
	v := f.order[fr.i]
	if kind != dom.Keep || f.opts.IncludeOffscreen || f.inView(v) || (v.NodeType != dom.ElementNode && v.NodeType != dom.TextNode) {
		return kind, rule
	}
	f.outside++
	if isInteractive(v) {
		f.outsideInter++
	}
	if v.NodeType == dom.TextNode || rule == FlatTextBlock || (f.on(FlatAtomicLeaf) && isAtomic(v)) {
		return dom.Drop, FlatHoistOffscreen // its text is part of it: not counted again
	}
	return dom.Hoist, FlatHoistOffscreen
}

// inView: v lies in the viewport; with MinVisible, at least that part
// of its area.
func (f *flat) inView(v *dom.VirtualNode) bool {
	if !v.InViewport || f.opts.MinVisible <= 0 || f.opts.Look == nil || f.opts.Look.Viewport.W <= 0 {
		return v.InViewport
	}
	b, vp := v.Bounds, f.opts.Look.Viewport
	if b.W <= 0 || b.H <= 0 {
		return true
	}
	w := min(b.X+b.W, vp.X+vp.W) - max(b.X, vp.X)
	h := min(b.Y+b.H, vp.Y+vp.H) - max(b.Y, vp.Y)
	return w > 0 && h > 0 && w*h >= f.opts.MinVisible*b.W*b.H
}

// starts are the walk's first frames: the root, or the nodes
// Options.Roots names (those inside another one left out), in document
// order.
func (f *flat) starts() []frame {
	if len(f.opts.Roots) == 0 {
		return []frame{{i: 0, parent: -1, into: -1}}
	}
	want := make(map[string]bool, len(f.opts.Roots))
	for _, id := range f.opts.Roots {
		want[dom.NormalizeID(id)] = true
	}
	var out []frame
	for i, end := int32(0), int32(-1); i < int32(len(f.order)); i++ {
		if i < end || !want[f.order[i].ID] {
			continue
		}
		out = append(out, frame{i: i, parent: -1, into: -1})
		end = i + f.size[i] // nested roots are already inside this one
	}
	slices.Reverse(out) // a stack: the first root is walked first
	return out
}

// decideShown is decide for a node as if the whole page were in view.
func (f *flat) decideShown(fr frame) (dom.DecisionKind, string) {
	v := f.order[fr.i]
	if f.on(FlatDropTag) && droppedTags[v.Tag] {
		return dom.Drop, FlatDropTag
	}
	if v.ShadowType == "user-agent" && f.on(FlatDropUAShadow) {
		return dom.Drop, FlatDropUAShadow
	}
	if v.Hidden != "" && !f.opts.IncludeHidden && f.on(FlatDropInvisible) {
		if dropReason(v.Hidden) || len(v.Children) == 0 {
			return dom.Drop, FlatDropInvisible
		}
		return dom.Hoist, FlatHoistInvisible
	}
	switch v.NodeType {
	case dom.TextNode:
		return f.decideText(fr, v)
	case dom.DocumentNode, dom.FragmentNode:
		if f.on(FlatHoistFrame) {
			return dom.Hoist, FlatHoistFrame
		}
		return dom.Keep, FlatKeepStructural
	case dom.ElementNode:
	default:
		return dom.Drop, FlatDropTag
	}
	switch {
	case f.on(FlatKeepGroup) && isGroup(v):
		return dom.Keep, FlatKeepGroup
	case f.on(FlatKeepHeading) && isHeading(v):
		return dom.Keep, FlatKeepHeading
	case f.on(FlatKeepSemantic) && v.Tier == dom.Semantic:
		return dom.Keep, FlatKeepSemantic
	case f.on(FlatKeepNonSemantic) && v.Tier == dom.NonSemantic:
		return dom.Keep, FlatKeepNonSemantic
	case f.on(FlatKeepScroller) && f.scrollOf(v) != nil:
		return dom.Keep, FlatKeepScroller
	}
	if f.on(FlatTextBlock) && !f.actsBelow[fr.i] && f.hasOwnText(fr.i) {
		t := f.blockText(v)
		if !meaningful(t) {
			return dom.Hoist, FlatHoistStructural
		}
		if f.on(FlatTextInName) && fr.keptName != "" && strings.Contains(fr.keptName, t) {
			return dom.Drop, FlatTextInName
		}
		return dom.Keep, FlatTextBlock
	}
	if f.on(FlatHoistStructural) {
		return dom.Hoist, FlatHoistStructural
	}
	return dom.Keep, FlatKeepStructural
}

func (f *flat) decideText(fr frame, v *dom.VirtualNode) (dom.DecisionKind, string) {
	t := textutil.Collapse(v.Text)
	if !meaningful(t) {
		return dom.Drop, FlatDropShortText
	}
	if f.on(FlatTextInName) && fr.keptName != "" && strings.Contains(fr.keptName, t) {
		return dom.Drop, FlatTextInName
	}
	if f.on(FlatTextRun) {
		return dom.Keep, FlatTextRun
	}
	return dom.Drop, FlatDropText
}

// hasOwnText reports whether element i has a direct, shown, meaningful text child.
func (f *flat) hasOwnText(i int32) bool {
	end := i + f.size[i]
	for c := i + 1; c < end; c += f.size[c] {
		v := f.order[c]
		if v.NodeType == dom.TextNode && (v.Hidden == "" || f.opts.IncludeHidden) && meaningful(textutil.Collapse(v.Text)) {
			return true
		}
	}
	return false
}

// blockText is the shown text of a subtree, collapsed, cut at MaxTextLen.
func (f *flat) blockText(v *dom.VirtualNode) string {
	var b strings.Builder
	stack := []*dom.VirtualNode{v}
	for len(stack) > 0 && b.Len() < dom.MaxTextLen*4 {
		c := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if (c.Hidden != "" && !f.opts.IncludeHidden) || droppedTags[c.Tag] || c.ShadowType == "user-agent" {
			continue
		}
		if c.NodeType == dom.TextNode {
			if b.Len() > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(c.Text)
			continue
		}
		for i := len(c.Children) - 1; i >= 0; i-- {
			stack = append(stack, c.Children[i])
		}
	}
	return textutil.Truncate(textutil.Collapse(b.String()), dom.MaxTextLen)
}

// meaningful: at least two characters and a letter or digit.
func meaningful(t string) bool {
	if len(t) < 2 {
		return false
	}
	for _, r := range t {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return true
		}
	}
	return false
}

// emit adds the serialized form of v under the frame's parent.
func (f *flat) emit(fr frame, v *dom.VirtualNode, rule string) int32 {
	var sn *dom.SerializedNode
	switch rule {
	case FlatTextRun:
		sn = &dom.SerializedNode{ID: v.ID, Role: "text", Tag: "#text", Text: textutil.Truncate(textutil.Collapse(v.Text), dom.MaxTextLen)}
	case FlatTextBlock:
		sn = &dom.SerializedNode{ID: v.ID, Role: "text", Tag: v.Tag, Text: f.blockText(v)}
	default:
		sn = f.serialize(v)
		if isInteractive(v) {
			f.nInter++
		}
	}
	if f.opts.IncludeBackendIDs {
		sn.BackendNodeID = v.BackendID
	}
	r := rec{sn: sn, v: v, i: fr.i, parent: fr.parent, group: (rule == FlatKeepGroup || rule == FlatKeepSemantic) && !isInteractive(v) && !isAtomic(v)}
	if fr.parent < 0 {
		r.pos = len(f.sd.Nodes)
		f.sd.Nodes = append(f.sd.Nodes, sn)
	} else {
		p := f.recs[fr.parent].sn
		r.pos = len(p.Children)
		p.Children = append(p.Children, sn)
	}
	f.recs = append(f.recs, r)
	return int32(len(f.recs) - 1)
}

func (f *flat) emitMarker(fr frame, v *dom.VirtualNode) {
	sn := &dom.SerializedNode{ID: v.ID, Role: "more", Tag: "#marker", Text: "deeper nodes cut (maxDepth " + strconv.Itoa(f.opts.MaxDepth) + ")"}
	if fr.parent < 0 {
		f.sd.Nodes = append(f.sd.Nodes, sn)
	} else {
		p := f.recs[fr.parent].sn
		p.Children = append(p.Children, sn)
	}
}

// serialize maps a kept VirtualNode to the json contract.
func (f *flat) serialize(v *dom.VirtualNode) *dom.SerializedNode {
	sn := &dom.SerializedNode{ID: v.ID, Role: v.Role, Name: v.Name, Tag: v.Tag}
	if v.NodeType != dom.ElementNode {
		return sn
	}
	if sc := f.scrollOf(v); sc != nil && f.on(FlatKeepScroller) {
		sn.Scroll = scrollState(v, sc)
	}
	if by := f.covered[v]; by != nil {
		sn.CoveredBy = by.ID
	}
	a, st := v.Attrs, v.States
	if h := a["href"]; h != "" && (v.Tag == "a" || v.Tag == "area") {
		sn.Href = textutil.Truncate(urls.Safe(h), dom.MaxNameLen) // a link to a reset page can hold its token
	}
	if p := a["placeholder"]; p != "" && p != v.Name {
		sn.Placeholder = textutil.Truncate(textutil.Collapse(p), dom.MaxNameLen)
	}
	if v.Tag == "input" {
		if t := strings.ToLower(a["type"]); t != "" && t != "text" {
			sn.InputType = t
		}
	}
	if f.opts.IncludeValues && st["value"] != "" && st["value"] != v.Name {
		sn.Value = st["value"]
	}
	sn.Disabled = st["disabled"] == "true"
	sn.Checked = st["checked"]
	sn.Expanded = st["expanded"]
	sn.Selected = st["selected"] == "true"
	sn.Required = st["required"] == "true"
	sn.Pressed = st["pressed"]
	sn.Focused = st["focused"] == "true"
	if isHeading(v) {
		sn.Level, _ = strconv.Atoi(st["level"])
		if sn.Level == 0 && len(v.Tag) == 2 && v.Tag[0] == 'h' {
			sn.Level = int(v.Tag[1] - '0')
		}
	}
	sn.TestID = a["data-testid"]
	sn.Offscreen = !v.InViewport
	if f.opts.IncludeBoundingBoxes {
		r := v.Bounds
		sn.Bounds = &r
	}
	return sn
}

// collapse removes kept groups left with one child and no name (the child
// takes their place) or with none; children first, so chains fold. Lists
// may hold nils (dropped labels) until the final compaction.
func (f *flat) collapse() {
	single, empty := f.on(FlatCollapseSingle), f.on(FlatDropEmptyGroup)
	defer f.compactAll()
	if !single && !empty {
		return
	}
	recOf := make(map[*dom.SerializedNode]int, len(f.recs))
	for k := range f.recs {
		recOf[f.recs[k].sn] = k
	}
	for k := len(f.recs) - 1; k >= 0; k-- {
		r := &f.recs[k]
		if !r.group || r.sn.Role == "text" {
			continue
		}
		var repl *dom.SerializedNode
		kids := 0
		for _, c := range r.sn.Children {
			if c != nil {
				kids++
				repl = c
			}
		}
		// a name is no reason to stay when the only child says the same
		named := r.sn.Name != "" && !(kids == 1 && repl.Name == r.sn.Name)
		switch {
		case named:
			continue
		case kids == 1 && single:
			f.dec.Change(int(r.i), dom.Hoist, FlatCollapseSingle)
		case kids == 0 && empty:
			f.dec.Change(int(r.i), dom.Drop, FlatDropEmptyGroup)
		default:
			continue
		}
		if r.parent < 0 {
			f.sd.Nodes[r.pos] = repl
		} else {
			f.recs[r.parent].sn.Children[r.pos] = repl
		}
		// the child now sits where the group was
		if c, ok := recOf[repl]; ok && repl != nil {
			f.recs[c].parent, f.recs[c].pos = r.parent, r.pos
		}
	}
}

func (f *flat) compactAll() {
	f.sd.Nodes = compact(f.sd.Nodes)
	if f.sd.Nodes == nil {
		f.sd.Nodes = []*dom.SerializedNode{}
	}
	for k := range f.recs {
		if c := f.recs[k].sn.Children; c != nil {
			f.recs[k].sn.Children = compact(c)
		}
	}
}

// dedupeLabels drops a text node that only repeats the name of the node
// next to it: a <label> before its input says what the input's name says.
func (f *flat) dedupeLabels() {
	if !f.on(FlatTextInName) {
		return
	}
	fix := func(l []*dom.SerializedNode) {
		for i, n := range l {
			if n == nil || n.Role != "text" || len(n.Children) > 0 {
				continue
			}
			t := strings.TrimRight(n.Text, ":* ")
			if t == "" {
				continue
			}
			same := func(j int) bool {
				return j >= 0 && j < len(l) && l[j] != nil && l[j].Role != "text" && l[j].Name != "" && strings.EqualFold(l[j].Name, t)
			}
			if same(i+1) || same(i-1) {
				f.dec.Change(f.dec.Index(n.ID), dom.Drop, FlatTextInName)
				l[i] = nil
			}
		}
	}
	fix(f.sd.Nodes)
	for k := range f.recs {
		if c := f.recs[k].sn.Children; len(c) > 1 {
			fix(c)
		}
	}
}

// mergeTexts joins text nodes that follow each other under one parent into
// one line, up to MaxTextLen. Such texts are a paragraph split by inline
// <code> or <b> around a link. Fewer lines cost fewer tokens, and the line
// reads as the page does.
func (f *flat) mergeTexts() {
	if !f.on(FlatTextRun) {
		return
	}
	fix := func(l []*dom.SerializedNode) {
		var run *dom.SerializedNode
		for i, n := range l {
			if n == nil {
				continue
			}
			if n.Role != "text" || len(n.Children) > 0 {
				run = nil
				continue
			}
			if run != nil && len(run.Text)+1+len(n.Text) <= dom.MaxTextLen && f.sameBlock(run, n) {
				run.Text += " " + n.Text
				f.dec.Set(f.dec.Index(n.ID), dom.Drop, FlatMergedIntoBlock, f.dec.Index(run.ID))
				l[i] = nil
				continue
			}
			run = n
		}
	}
	fix(f.sd.Nodes)
	for k := range f.recs {
		if c := f.recs[k].sn.Children; len(c) > 1 {
			fix(c)
		}
	}
}

// sameBlock reports whether two text nodes are runs of one block (a
// paragraph and the inline elements in it), not two paragraphs.
func (f *flat) sameBlock(a, b *dom.SerializedNode) bool {
	ba, bb := f.blockOf(a), f.blockOf(b)
	return ba != nil && ba == bb
}

func (f *flat) blockOf(n *dom.SerializedNode) *dom.VirtualNode {
	v := f.s.ByID[n.ID]
	for i := 0; v != nil && i < 32; i++ {
		if v.NodeType == dom.ElementNode && !inlineTags[v.Tag] {
			if i == 0 {
				return nil // a text block of its own
			}
			return v
		}
		v = v.Parent
	}
	return nil
}

var inlineTags = map[string]bool{
	"a": true, "abbr": true, "b": true, "bdi": true, "bdo": true, "cite": true, "code": true,
	"data": true, "dfn": true, "em": true, "i": true, "kbd": true, "mark": true, "q": true,
	"s": true, "samp": true, "small": true, "span": true, "strong": true, "sub": true, "sup": true,
	"time": true, "u": true, "var": true, "label": true, "font": true,
}

func compact(l []*dom.SerializedNode) []*dom.SerializedNode {
	out := l[:0]
	for _, n := range l {
		if n != nil {
			out = append(out, n)
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

func countSerialized(l []*dom.SerializedNode) int {
	n := 0
	stack := append([]*dom.SerializedNode(nil), l...)
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		n++
		stack = append(stack, x.Children...)
	}
	return n
}
