package build

import (
	"strings"

	"domscope/dom"
	"domscope/dom/cdpjson"
)

// Tier rule names (Why of a NonSemantic node is "heuristic:<name>").
const (
	RuleOnclick       = "heuristic:onclick"
	RuleListener      = "heuristic:listener"
	RuleCursorPointer = "heuristic:cursor-pointer"
	RuleTabindex      = "heuristic:tabindex"
	RuleEditable      = "heuristic:contenteditable"
	RuleRoleAttr      = "heuristic:role-attr"
	RuleTestID        = "heuristic:testid"
	RuleFramework     = "heuristic:framework-attr"
	RuleClassWords    = "heuristic:class-words"
)

var tierRules = []dom.Rule{
	{Name: RuleOnclick, Kind: "tier", Doc: "onclick or another inline on* handler attribute"},
	{Name: RuleListener, Kind: "tier", Doc: "a JS click/mousedown/pointerdown/mouseup listener on the element itself"},
	{Name: RuleCursorPointer, Kind: "tier", Doc: "cursor:pointer where the parent is not pointer"},
	{Name: RuleTabindex, Kind: "tier", Doc: "tabindex >= 0"},
	{Name: RuleEditable, Kind: "tier", Doc: "contenteditable"},
	{Name: RuleRoleAttr, Kind: "tier", Doc: "an interactive role attribute"},
	{Name: RuleTestID, Kind: "tier", Doc: "data-testid, data-test or data-cy"},
	{Name: RuleFramework, Kind: "tier", Doc: "framework click attributes (ng-click, v-on:click, @click, data-action)"},
	{Name: RuleClassWords, Kind: "tier", Doc: "click-suggestive class words (btn, button, clickable, link, interactive)"},
}

// TierRules lists the switchable heuristics that make a node NonSemantic.
func TierRules() []dom.Rule { return append([]dom.Rule(nil), tierRules...) }

// RuleNativeTag marks a native control that has no AX data (its frame's
// AX tree was not captured). It is not a page heuristic but a safety net.
const RuleNativeTag = "heuristic:native-tag"

func init() {
	tierRules = append(tierRules, dom.Rule{Name: RuleNativeTag, Kind: "tier", Doc: "a native control (a[href], button, input, select, textarea, summary) with no AX data"})
}

// ruleOff reports whether a rule is switched off, by full or short name.
func ruleOff(disabled map[string]bool, name string) bool {
	if len(disabled) == 0 {
		return false
	}
	if disabled[name] {
		return true
	}
	if i := strings.IndexByte(name, ':'); i >= 0 {
		return disabled[name[i+1:]]
	}
	return false
}

// structuralRoles are AX roles that carry no meaning for an agent:
// wrappers, text runs and document internals. A node with one of them is
// Structural unless a heuristic fires.
var structuralRoles = map[string]bool{
	"generic": true, "none": true, "presentation": true, "StaticText": true, "InlineTextBox": true,
	"LineBreak": true, "RootWebArea": true, "WebArea": true, "Ignored": true, "Iframe": true,
	"IframePresentational": true, "Unknown": true, "LayoutTable": true, "LayoutTableRow": true,
	"LayoutTableCell": true, "rowgroup": true, "ListMarker": true, "sectionheader": true,
	"sectionfooter": true, "Pre": true, "Canvas": true, "Ruby": true, "RubyAnnotation": true,
	// Text-ish roles: their text is what matters. Flattening turns it into
	// text nodes.
	"paragraph": true, "strong": true, "emphasis": true, "code": true, "mark": true, "time": true,
	"subscript": true, "superscript": true, "deletion": true, "insertion": true, "LabelText": true,
	"Abbr": true, "blockquote": true, "caption": true, "figcaption": true, "FigureCaption": true,
	"DescriptionListTerm": true, "DescriptionListDetail": true, "term": true, "definition": true,
	"Legend": true, "Emphasis": true, "Strong": true, "comment": true,
}

// interactiveRoles are role attribute values that promise an action.
var interactiveRoles = map[string]bool{
	"button": true, "link": true, "checkbox": true, "radio": true, "switch": true, "tab": true,
	"menuitem": true, "menuitemcheckbox": true, "menuitemradio": true, "option": true,
	"combobox": true, "textbox": true, "searchbox": true, "slider": true, "spinbutton": true,
	"treeitem": true, "gridcell": true, "columnheader": true, "rowheader": true, "listbox": true,
	"scrollbar": true,
}

// InteractiveRole reports whether a role attribute value promises an
// action. The roles are lower case.
func InteractiveRole(role string) bool { return interactiveRoles[role] }

// IsInteractive says whether a node is one a user or an agent acts on.
// That is a non-semantic node a heuristic found interactive, or a
// semantic one whose role is a control.
func IsInteractive(n *dom.VirtualNode) bool {
	switch n.Tier {
	case dom.NonSemantic:
		return true
	case dom.Semantic:
		return interactiveRoles[strings.ToLower(n.Role)]
	}
	return false
}

// inlineHandlers are on* attributes that mean a user action does something.
var inlineHandlers = map[string]bool{
	"onclick": true, "ondblclick": true, "onmousedown": true, "onmouseup": true, "onpointerdown": true,
	"onpointerup": true, "ontouchstart": true, "ontouchend": true, "onkeydown": true, "onkeyup": true,
	"onkeypress": true, "onchange": true, "oninput": true, "onsubmit": true, "onauxclick": true,
	"oncontextmenu": true,
}

var frameworkAttrs = []string{"ng-click", "data-ng-click", "v-on:click", "@click", "x-on:click", "data-action", "(click)", "hx-get", "hx-post", "wire:click", "phx-click", "on:click"}

var clickWords = []string{"btn", "button", "clickable", "link", "interactive"}

// hasClassWord reports whether a class attribute holds a click-suggestive
// word, as a whole word. "btn", "btn-primary", "nav_link" match;
// "linkedin", "buttonless" do not. It runs on every element, so it cuts
// no strings.
func hasClassWord(class string) bool {
	isWord := func(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' }
	for i := 0; i < len(class); {
		if !isWord(class[i]) {
			i++
			continue
		}
		j := i
		for j < len(class) && isWord(class[j]) {
			j++
		}
		w := class[i:j]
		for _, cw := range clickWords {
			if len(w) == len(cw) && strings.EqualFold(w, cw) {
				return true
			}
		}
		i = j
	}
	return false
}

// nativeControls are tags that act by themselves.
func nativeControl(n *dom.VirtualNode) bool {
	switch n.Tag {
	case "button", "select", "textarea", "summary":
		return true
	case "a":
		_, ok := n.Attrs["href"]
		return ok
	case "input":
		return !strings.EqualFold(n.Attrs["type"], "hidden")
	}
	return false
}

// heuristic runs the NonSemantic rules in order. It returns the first
// that fires, or "".
func (b *builder) heuristic(i int) string {
	n, f := b.nodes[i], &b.facts[i]
	off := b.opts.Disabled
	if n.NodeType != dom.ElementNode || f.ua {
		return ""
	}
	a := n.Attrs
	if !ruleOff(off, RuleOnclick) {
		for k := range a {
			if inlineHandlers[k] {
				return RuleOnclick
			}
		}
	}
	if !ruleOff(off, RuleListener) && b.targets[f.target].Listeners[n.BackendID] &&
		n.Tag != "html" && n.Tag != "body" && f.elements-1 <= bigContainer {
		return RuleListener
	}
	if !ruleOff(off, RuleCursorPointer) && b.cursor(i) == "pointer" && (f.parent < 0 || b.cursor(int(f.parent)) != "pointer") {
		return RuleCursorPointer
	}
	if !ruleOff(off, RuleTabindex) && n.Tag != "body" && n.Tag != "html" {
		if v, ok := a["tabindex"]; ok && tabindexOK(v) {
			return RuleTabindex
		}
	}
	if !ruleOff(off, RuleEditable) && editable(a) && (f.parent < 0 || !editable(b.nodes[f.parent].Attrs)) {
		return RuleEditable
	}
	if !ruleOff(off, RuleRoleAttr) {
		if r := firstWord(a["role"]); interactiveRoles[r] {
			return RuleRoleAttr
		}
	}
	if !ruleOff(off, RuleTestID) {
		for _, k := range []string{"data-testid", "data-test", "data-cy", "data-test-id"} {
			if _, ok := a[k]; ok {
				return RuleTestID
			}
		}
	}
	if !ruleOff(off, RuleFramework) {
		for _, k := range frameworkAttrs {
			if _, ok := a[k]; ok {
				return RuleFramework
			}
		}
	}
	if !ruleOff(off, RuleClassWords) && hasClassWord(a["class"]) {
		return RuleClassWords
	}
	if !ruleOff(off, RuleNativeTag) && f.ax == nil && nativeControl(n) {
		return RuleNativeTag
	}
	return ""
}

// bigContainer is the descendant element count above which an own
// listener is taken as event delegation. Such a root handles its
// children's clicks; they are not an action of the element itself.
const bigContainer = 30

func tabindexOK(v string) bool {
	v = strings.TrimSpace(v)
	if v == "" {
		return false
	}
	n := 0
	for i, r := range v {
		if r == '-' && i == 0 {
			return false
		}
		if r == '+' && i == 0 {
			continue
		}
		if r < '0' || r > '9' {
			return i > 0
		}
		n = n*10 + int(r-'0')
		if n > 1<<20 {
			break
		}
	}
	return true
}

func editable(a map[string]string) bool {
	v, ok := a["contenteditable"]
	if !ok {
		return false
	}
	v = strings.ToLower(strings.TrimSpace(v))
	return v == "" || v == "true" || v == "plaintext-only"
}

func firstWord(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexAny(s, " \t\n"); i >= 0 {
		s = s[:i]
	}
	return strings.ToLower(s)
}

// cursor is the computed cursor of node i. A node with no layout box
// (display:contents) inherits its parent's, as CSS does.
func (b *builder) cursor(i int) string {
	for j := 0; i >= 0 && j < 64; j++ {
		f := &b.facts[i]
		if b.nodes[i].NodeType != dom.ElementNode {
			return ""
		}
		if f.box != nil {
			return b.targets[f.target].StyleAt(f.box, cdpjson.CursorStyle)
		}
		i = int(f.parent)
	}
	return ""
}
