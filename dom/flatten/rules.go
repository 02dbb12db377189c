package flatten

import (
	"domscope/dom"
	"domscope/dom/build"
)

// Flatten rule names (Decision.Rule). Those in flattenRules can be switched
// off through Options.Disabled; the others name a consequence.
const (
	FlatDropTag         = "drop-tag"
	FlatDropUAShadow    = "drop-ua-shadow"
	FlatDropInvisible   = "drop-invisible"
	FlatHoistInvisible  = "hoist-invisible"
	FlatKeepGroup       = "keep-group"
	FlatKeepHeading     = "keep-heading"
	FlatKeepSemantic    = "keep-semantic"
	FlatKeepNonSemantic = "keep-nonsemantic"
	FlatHoistFrame      = "hoist-frame"
	FlatHoistStructural = "hoist-structural"
	FlatCollapseSingle  = "collapse-single"
	FlatDropEmptyGroup  = "drop-empty-group"
	FlatAtomicLeaf      = "atomic-leaf"
	FlatTextBlock       = "text-block"
	FlatTextRun         = "text-run"
	FlatTextInName      = "text-in-name"
	FlatMaxDepth        = "max-depth"
	FlatMaxInteractive  = "max-interactive"
	FlatFoldRepeats     = "fold-repeats"
	FlatModalScope      = "modal-scope"
	FlatKeepScroller    = "keep-scroller"
	FlatMarkCovered     = "mark-covered"

	// consequences, not switches
	FlatHoistOffscreen  = "hoist-offscreen"  // Options.IncludeOffscreen is false
	FlatDropShortText   = "drop-short-text"  // white space or punctuation only
	FlatDropText        = "drop-text"        // text-run is off
	FlatKeepStructural  = "keep-structural"  // hoist-structural is off
	FlatMergedIntoBlock = "merged-into-text" // part of a text block
)

var flattenRules = []dom.Rule{
	{Name: FlatDropTag, Kind: "flatten", Doc: "drop script, style, head, meta, link, noscript, template, comments"},
	{Name: FlatDropUAShadow, Kind: "flatten", Doc: "drop the browser's own shadow roots inside controls"},
	{Name: FlatDropInvisible, Kind: "flatten", Doc: "drop invisible nodes (hoist those whose children may still show)"},
	{Name: FlatKeepGroup, Kind: "flatten", Doc: "keep semantic groups: form, dialog, table, fieldset, details, listbox, menu, tablist, tree, named regions, landmarks"},
	{Name: FlatKeepHeading, Kind: "flatten", Doc: "keep headings"},
	{Name: FlatKeepSemantic, Kind: "flatten", Doc: "keep nodes with a meaningful AX role"},
	{Name: FlatKeepNonSemantic, Kind: "flatten", Doc: "keep nodes a heuristic marks interactive"},
	{Name: FlatHoistFrame, Kind: "flatten", Doc: "hoist iframe documents and shadow roots into their host"},
	{Name: FlatHoistStructural, Kind: "flatten", Doc: "hoist structural containers: their children go to the parent"},
	{Name: FlatCollapseSingle, Kind: "flatten", Doc: "collapse a kept group with a single child and no name"},
	{Name: FlatDropEmptyGroup, Kind: "flatten", Doc: "drop a kept group with no children and no name"},
	{Name: FlatAtomicLeaf, Kind: "flatten", Doc: "buttons, links, tabs, options, text fields: no descendants, their text is the name"},
	{Name: FlatTextBlock, Kind: "flatten", Doc: "a text element with nothing interactive inside becomes one text node (500 chars)"},
	{Name: FlatTextRun, Kind: "flatten", Doc: "a text run of meaningful length becomes a text node"},
	{Name: FlatTextInName, Kind: "flatten", Doc: "drop text already said by the name of the node that holds it"},
	{Name: FlatMaxDepth, Kind: "flatten", Doc: "cut the output below Options.MaxDepth levels, with a marker"},
	{Name: FlatMaxInteractive, Kind: "flatten", Doc: "stop after Options.MaxInteractive interactive nodes, with a marker"},
	{Name: FlatKeepScroller, Kind: "flatten", Doc: "keep scroll containers, with where they stand (scroll 40% ↑↓)"},
	{Name: FlatMarkCovered, Kind: "flatten", Doc: "mark a control another element lies over (covered by [N]), from the browser's hit test (where the view reads one)"},
	{Name: FlatFoldRepeats, Kind: "flatten", Doc: "fold a run of 8 or more same-shaped siblings after the first three (where folds are asked)"},
	{Name: FlatModalScope, Kind: "flatten", Doc: "an open modal dialog first, what lies behind it in one line (where asked)"},
}

// FlattenRules lists the switchable flatten rules.
func FlattenRules() []dom.Rule { return append([]dom.Rule(nil), flattenRules...) }

// droppedTags never reach the LLM.
var droppedTags = map[string]bool{
	"script": true, "style": true, "head": true, "meta": true, "link": true, "noscript": true,
	"template": true, "#comment": true, "#doctype": true, "title": true, "base": true,
}

// groupRoles are kept for the context they give their children.
var groupRoles = map[string]bool{
	"form": true, "dialog": true, "alertdialog": true, "table": true, "grid": true, "treegrid": true,
	"group": true, "listbox": true, "menu": true, "menubar": true, "tablist": true, "radiogroup": true,
	"tree": true, "navigation": true, "main": true, "banner": true, "contentinfo": true,
	"search": true, "complementary": true,
}

var groupTags = map[string]bool{"form": true, "dialog": true, "table": true, "fieldset": true, "details": true}

func isGroup(n *dom.VirtualNode) bool {
	if n.NodeType != dom.ElementNode {
		return false
	}
	if n.Role == "region" {
		return n.Name != ""
	}
	return groupRoles[n.Role] || groupTags[n.Tag]
}

// interactiveAXRoles are roles an agent acts on.
var interactiveAXRoles = map[string]bool{
	"DisclosureTriangle": true, "ToggleButton": true, "PopUpButton": true, "MenuListOption": true,
	"MenuListPopup": true, "ColorWell": true, "Date": true, "DateTime": true, "InputTime": true,
}

// Container reports whether v is an element the view keeps only to hold
// others: it has children, no name, and no agent acts on it (a list, a
// main, a wrapper). Its line coming or going says nothing its children's
// lines do not. A test id alone is no sign of an action.
func Container(v *dom.VirtualNode) bool {
	return v != nil && v.NodeType == dom.ElementNode && len(v.Children) > 0 && v.Name == "" && !isHeading(v) &&
		(!isInteractive(v) || v.Why == build.RuleTestID)
}

func isInteractive(n *dom.VirtualNode) bool {
	return n.Tier == dom.NonSemantic || (n.Tier == dom.Semantic && (build.InteractiveRole(n.Role) || interactiveAXRoles[n.Role] || n.Tag == "details"))
}

// atomicRoles have no descendants in the output; their text is their name.
var atomicRoles = map[string]bool{
	"button": true, "link": true, "menuitem": true, "tab": true, "option": true,
	"DisclosureTriangle": true, "MenuListOption": true, "ToggleButton": true,
}

func isAtomic(n *dom.VirtualNode) bool {
	if n.Tier != dom.Semantic {
		return false
	}
	if atomicRoles[n.Role] {
		return true
	}
	switch n.Tag {
	case "input", "textarea", "img":
		return true
	}
	return false
}

func isHeading(n *dom.VirtualNode) bool {
	return n.Role == "heading" || (n.NodeType == dom.ElementNode && len(n.Tag) == 2 && n.Tag[0] == 'h' && n.Tag[1] >= '1' && n.Tag[1] <= '6')
}

// dropReasons are hidden reasons whose whole subtree is hidden too.
func dropReason(reason string) bool {
	switch reason {
	case dom.HiddenAriaHidden, dom.HiddenInert, dom.HiddenClosedDetails, dom.HiddenDisplayNone, dom.HiddenAttr, dom.HiddenNotRendered:
		return true
	}
	return false
}
