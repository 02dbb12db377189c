package build

import (
	"maps"
	"strings"

	"domscope/dom"
	"domscope/dom/internal/textutil"
	"domscope/dom/urls"
)

// classify sets role, name, states, tier, visibility and ID of every
// node. It goes forward over the preorder list, so parents come first.
func (b *builder) classify() {
	drop := make([]bool, len(b.nodes))
	transparent := make([]bool, len(b.nodes))
	ids := b.ids
	ids.current(b.nodes)
	b.snap.ByID = make(map[string]*dom.VirtualNode, len(b.nodes))
	index := b.indexByID()
	defer index(len(b.nodes), true)
	for i, n := range b.nodes {
		b.describe(i)
		b.visibility(i, drop, transparent)
		p, ok := ids.prevOf(n.FrameID, n.BackendID)
		n.ID = ids.assign(i, p, ok)
		if ok && len(n.States) > 0 && maps.Equal(n.States, p.states) {
			n.States = p.states // unchanged: shared, never written
		}
		if (i+1)%byIDBatch == 0 {
			index(i+1, false)
		}
		if n.NodeType == dom.DocumentNode {
			b.addFrame(i)
		}
	}
	b.snap.NextID = ids.next
}

// byIDBatch is how many nodes classify gives indexByID at once.
const byIDBatch = 4096

// indexByID fills ByID beside classify, on the other core: at 50,000
// elements the map takes a fifth of the build. Classify calls the
// function it returns with the number of nodes that have their IDs; the
// last call (last) waits until they are all in. A small page is indexed
// in that call.
func (b *builder) indexByID() func(upTo int, last bool) {
	byID, nodes := b.snap.ByID, b.nodes
	if len(nodes) < 4*byIDBatch {
		return func(upTo int, last bool) {
			if last {
				for _, n := range nodes[:upTo] {
					byID[n.ID] = n
				}
			}
		}
	}
	ready, done := make(chan int, len(nodes)/byIDBatch+1), make(chan struct{})
	go func() {
		defer close(done)
		from := 0
		for upTo := range ready {
			for _, n := range nodes[from:upTo] {
				byID[n.ID] = n
			}
			from = upTo
		}
	}()
	return func(upTo int, last bool) {
		ready <- upTo
		if last {
			close(ready)
			<-done
		}
	}
}

// describe sets Role, Name, States, Tier and Why of node i.
func (b *builder) describe(i int) {
	n, f := b.nodes[i], &b.facts[i]
	ax := f.ax
	axRole := ""
	if ax != nil && !ax.Ignored && ax.Role != "" {
		axRole = ax.Role
	}
	switch n.NodeType {
	case dom.ElementNode:
		switch {
		case axRole != "":
			n.Role = axRole
		case n.Attrs["role"] != "":
			n.Role = firstWord(n.Attrs["role"])
		default:
			n.Role = n.Tag
		}
	case dom.TextNode:
		n.Role = "text"
		n.Name = cleanName(n.Text)
		n.Tier, n.Why = dom.Structural, "structural:text"
		return
	case dom.DocumentNode:
		n.Role = "document"
	case dom.FragmentNode:
		n.Role = strings.TrimPrefix(n.Tag, "#")
	default:
		n.Role = strings.TrimPrefix(n.Tag, "#")
		n.Tier, n.Why = dom.Structural, "structural"
		return
	}
	// Name: AX name > aria-label (and other own labels) > text. Inside a
	// sensitive field, AX names are the field's text.
	if ax != nil && !ax.Ignored && ax.HasName && (!f.redact || f.field) {
		n.Name = cleanName(ax.Name)
	}
	if n.Name == "" && n.NodeType == dom.ElementNode {
		n.Name = cleanName(attrName(n))
	}
	b.states(i)
	if f.field {
		b.maskedValue(i)
	}
	switch {
	case f.ua || n.NodeType != dom.ElementNode:
		n.Tier, n.Why = dom.Structural, "structural"
		if n.ShadowType == "user-agent" || f.ua {
			n.Why = "structural:user-agent"
		}
	case axRole != "" && !structuralRoles[axRole]:
		n.Tier, n.Why = dom.Semantic, b.why("ax:", axRole)
	default:
		if h := b.heuristic(i); h != "" {
			n.Tier, n.Why = dom.NonSemantic, h
			if n.Name == "" && !f.redact {
				n.Name = subtreeText(n, dom.MaxNameLen)
				f.textName = n.Name != ""
			}
			break
		}
		n.Tier = dom.Structural
		switch {
		case ax == nil:
			n.Why = "structural:no-ax"
		case ax.Ignored:
			n.Why = "structural:ignored"
		default:
			n.Why = b.why("structural:", axRole)
		}
	}
}

// axStates are the AX properties kept as States. Others are noise for an
// agent.
var axStates = map[string]bool{
	"checked": true, "pressed": true, "expanded": true, "selected": true, "disabled": true,
	"focused": true, "required": true, "readonly": true, "invalid": true, "level": true,
	"modal": true, "multiselectable": true, "hasPopup": true, "valuetext": true,
	"valuemin": true, "valuemax": true, "busy": true,
}

// falseMatters are states whose "false" says something (an unchecked box).
var falseMatters = map[string]bool{"checked": true, "pressed": true, "expanded": true}

// ariaStates are the states read from aria-* attributes when AX said
// nothing. The attribute names are spelled out: this runs on every node.
var ariaStates = []struct{ attr, state string }{
	{"aria-checked", "checked"}, {"aria-expanded", "expanded"}, {"aria-selected", "selected"},
	{"aria-pressed", "pressed"}, {"aria-disabled", "disabled"}, {"aria-required", "required"},
	{"aria-readonly", "readonly"},
}

// states fills States from AX properties, then from attributes where AX
// said nothing. Private fields never get a value.
func (b *builder) states(i int) {
	n, f := b.nodes[i], &b.facts[i]
	set := func(k, v string) {
		if v == "" {
			return
		}
		if n.States == nil {
			n.States = map[string]string{}
		}
		if _, ok := n.States[k]; !ok {
			n.States[k] = v
		}
	}
	if ax := f.ax; ax != nil && !ax.Ignored {
		for _, p := range ax.Properties {
			if !axStates[p.Name] || (f.redact && p.Name == "valuetext") {
				continue
			}
			v := p.Value
			switch v {
			case "false", "undefined", "":
				if !falseMatters[p.Name] || v != "false" {
					continue
				}
			}
			k := p.Name
			if k == "hasPopup" {
				k = "haspopup"
			}
			set(k, v)
		}
		if ax.Value != "" && !f.redact {
			if v := ax.Value; v != "" {
				set("value", textutil.Truncate(v, dom.MaxNameLen))
			}
		}
	}
	b.fieldValue(i, set)
	a := n.Attrs
	if len(a) == 0 {
		return
	}
	for _, k := range ariaStates {
		if v, ok := a[k.attr]; ok {
			k := k.state
			v = strings.ToLower(strings.TrimSpace(v))
			if v == "true" || v == "mixed" || (v == "false" && falseMatters[k]) {
				set(k, v)
			}
		}
	}
	if n.Tag == "input" || n.Tag == "button" || n.Tag == "select" || n.Tag == "textarea" || n.Tag == "fieldset" || n.Tag == "option" {
		for _, k := range []string{"disabled", "required", "readonly", "checked", "selected"} {
			if _, ok := a[k]; ok {
				set(k, "true")
			}
		}
	}
	if _, ok := a["contenteditable"]; ok && editable(a) {
		set("editable", "true")
	}
}

// addFrame records the frame whose document is node i.
func (b *builder) addFrame(i int) {
	n, f := b.nodes[i], &b.facts[i]
	fi := dom.FrameInfo{FrameID: n.FrameID, TargetID: n.TargetID}
	ti := b.targets[f.target]
	if f.parent < 0 {
		fi.URL = urls.Safe(b.raw.URL)
		b.snap.Frames = append(b.snap.Frames, fi)
		return
	}
	host := b.nodes[f.parent]
	fi.Host = host.ID
	fi.Name = host.Attrs["name"]
	if host.Attrs["title"] != "" && fi.Name == "" {
		fi.Name = host.Attrs["title"]
	}
	if u := b.docURL(i); u != "" {
		fi.URL = u
	}
	if b.facts[f.parent].target != f.target {
		fi.OutOfProcess = true
		if ti.Raw.URL != "" {
			fi.URL = ti.Raw.URL
		}
	} else {
		fi.TargetID = ""
	}
	if fi.URL == "" {
		fi.URL = host.Attrs["src"]
	}
	// The live model's frames come from events the capture never saw.
	fi.URL = urls.Safe(fi.URL)
	b.snap.Frames = append(b.snap.Frames, fi)
}

// docURL is the documentURL of a #document node, from the raw DOM.
func (b *builder) docURL(i int) string { return b.docURLs[int32(i)] }
