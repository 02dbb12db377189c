// Package keymap holds domscope's key bindings in one KeyMap value and turns
// key presses into actions with a pure function, so key handling is
// table-tested without a terminal and the help screen is generated from the
// same bindings that drive behaviour.
package keymap

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// Mode is what has the keyboard: the panes, a text prompt, or an overlay.
type Mode int

const (
	// Normal: the tree and flat panes.
	Normal Mode = iota
	// Prompt: a one-line text input (type, key, URL, search, select, export).
	Prompt
	// List: an overlay list (rules, diff, targets, help).
	List
	// Dialog: a JavaScript dialog waits for accept or dismiss.
	Dialog
	// ReadOnly: a saved capture with no browser (actions are refused, but
	// still mapped so the UI can say why).
	ReadOnly
)

// Action is what a key press asks for. Update switches on it, never on raw keys.
type Action int

// The actions.
const (
	None Action = iota
	Quit
	Up
	Down
	PageUp
	PageDown
	Top
	Bottom
	Expand
	Collapse
	Toggle
	ExpandAll
	CollapseAll
	SwitchPane
	Counterpart
	Search
	SearchNext
	SearchPrev
	FilterInteractive
	Format
	Rules
	Diff
	Help
	Click
	Type
	Key
	Hover
	Select
	ScrollDown
	ScrollUp
	Goto
	Back
	Forward
	Reload
	Refresh
	Highlight
	Targets
	Export
	Cancel
	Submit      // prompt: Enter
	SubmitEnter // prompt: Alt+Enter (type the text, then press Enter in the page)
	Accept      // dialog, list: choose
	Dismiss     // dialog
)

var actionNames = map[Action]string{
	None: "none", Quit: "quit", Up: "up", Down: "down", PageUp: "page-up", PageDown: "page-down",
	Top: "top", Bottom: "bottom", Expand: "expand", Collapse: "collapse", Toggle: "toggle",
	ExpandAll: "expand-all", CollapseAll: "collapse-all", SwitchPane: "switch-pane",
	Counterpart: "counterpart", Search: "search", SearchNext: "search-next", SearchPrev: "search-prev",
	FilterInteractive: "filter-interactive", Format: "format", Rules: "rules", Diff: "diff",
	Help: "help", Click: "click", Type: "type", Key: "key", Hover: "hover", Select: "select",
	ScrollDown: "scroll-down", ScrollUp: "scroll-up", Goto: "goto", Back: "back",
	Forward: "forward", Reload: "reload", Refresh: "refresh", Highlight: "highlight",
	Targets: "targets", Export: "export", Cancel: "cancel", Submit: "submit",
	SubmitEnter: "submit-enter", Accept: "accept", Dismiss: "dismiss",
}

func (a Action) String() string {
	if s, ok := actionNames[a]; ok {
		return s
	}
	return "unknown"
}

// Browser reports whether the action needs a live page.
func (a Action) Browser() bool {
	switch a {
	case Click, Type, Key, Hover, Select, ScrollDown, ScrollUp, Goto, Back, Forward, Reload,
		Refresh, Highlight, Targets:
		return true
	}
	return false
}

// KeyMap is every binding of the program. Build it with Default and pass
// the value around; there are no package-level bindings.
type KeyMap struct {
	Quit, ForceQuit                                  key.Binding
	Up, Down, PageUp, PageDown, Top, Bottom          key.Binding
	Expand, Collapse, Toggle, ExpandAll, CollapseAll key.Binding
	SwitchPane, Counterpart                          key.Binding
	Search, SearchNext, SearchPrev, Filter           key.Binding
	Format, Rules, Diff, Help                        key.Binding
	Click, Type, Key, Hover, Select                  key.Binding
	ScrollDown, ScrollUp                             key.Binding
	Goto, Back, Forward, Reload, Refresh             key.Binding
	Highlight, Targets, Export                       key.Binding
	Cancel                                           key.Binding
	Submit, SubmitEnter                              key.Binding
	Accept, Dismiss                                  key.Binding
	ListAccept, ListClose                            key.Binding

	// Docs explains bindings in the help screen (by help key).
	Docs map[string]string
}

// Doc is the longer explanation of a binding for the help screen, keyed
// by its help key. The footer shows the short Help().Desc.
// A doc keyed "key·desc" is for that binding only (enter means different
// things in the panes and in a prompt).
func (km KeyMap) Doc(b key.Binding) string {
	h := b.Help()
	if d, ok := km.Docs[h.Key+"·"+h.Desc]; ok {
		return d
	}
	return km.Docs[h.Key]
}

// Default returns domscope's bindings.
func Default() KeyMap {
	b := func(help, desc string, keys ...string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(help, desc))
	}
	return KeyMap{
		Quit:      b("q", "quit", "q"),
		ForceQuit: b("ctrl+c", "quit", "ctrl+c"),

		Up:       b("↑", "up", "up", "ctrl+p"),
		Down:     b("↓", "down", "down", "ctrl+n"),
		PageUp:   b("pgup", "page up", "pgup", "ctrl+b"),
		PageDown: b("pgdn", "page down", "pgdown", "ctrl+f"),
		Top:      b("home", "top", "home"),
		Bottom:   b("end", "bottom", "end"),

		Expand:      b("→", "expand", "right"),
		Collapse:    b("←", "collapse", "left"),
		Toggle:      b("space", "toggle", "space"),
		ExpandAll:   b("+", "expand all", "+", "="),
		CollapseAll: b("-", "collapse all", "-", "_"),

		SwitchPane:  b("tab", "switch pane", "tab", "shift+tab"),
		Counterpart: b("enter", "counterpart", "enter"),

		Search:     b("/", "search", "/"),
		SearchNext: b("n", "next", "n"),
		SearchPrev: b("N", "prev", "N"),
		Filter:     b("i", "interactive only", "i"),

		Format: b("f", "text/json", "f"),
		Rules:  b("x", "rules", "x"),
		Diff:   b("d", "diff", "d"),
		Help:   b("?", "help", "?"),

		Click:  b("c", "click", "c"),
		Type:   b("t", "type", "t"),
		Key:    b("k", "key", "k"),
		Hover:  b("h", "hover", "h"),
		Select: b("s", "select", "s"),

		ScrollDown: b("J", "scroll down", "J"),
		ScrollUp:   b("K", "scroll up", "K"),

		Goto:    b("g", "go to URL", "g"),
		Back:    b("<", "back", "<", "alt+left"),
		Forward: b(">", "forward", ">", "alt+right"),
		Reload:  b("R", "reload", "R"),
		Refresh: b("r", "refresh", "r"),

		Highlight: b("l", "highlight", "l"),
		Targets:   b("T", "tabs", "T"),
		Export:    b("e", "export", "e"),

		Cancel: b("esc", "cancel", "esc"),

		Submit:      b("enter", "submit", "enter"),
		SubmitEnter: b("alt+enter", "type + Enter", "alt+enter"),

		Accept:  b("y/enter", "accept", "y", "enter"),
		Dismiss: b("n/esc", "dismiss", "n", "esc"),

		ListAccept: b("enter/space", "choose", "enter", "space"),
		ListClose:  b("esc/q", "close", "esc", "q"),

		Docs: map[string]string{
			"→":                 "expand the node, or move into its first child",
			"←":                 "collapse the node, or move to its parent",
			"enter·counterpart": "jump to the counterpart in the other pane",
			"enter·submit":      "submit the prompt",
			"tab":               "switch between the tree and the flat pane",
			"/":                 "search by name, role, tag, id, attribute name or value",
			"n":                 "next search match",
			"N":                 "previous search match",
			"i":                 "show only interactive nodes and their ancestors",
			"f":                 "flat pane format: text ↔ json (token count follows)",
			"x":                 "tier and flatten rules: toggle one and see the flat view change",
			"d":                 "nodes added, renamed, removed by the last action",
			"c":                 "click the selected node",
			"t":                 "type into the selected node (alt+enter also presses Enter)",
			"k":                 "press a key: Enter, Escape, Tab, ArrowDown, ctrl+a, shift+Tab…",
			"h":                 "move the mouse over the selected node",
			"s":                 "select an option of the selected <select> by value or label",
			"J":                 "scroll the page down",
			"K":                 "scroll the page up",
			"g":                 "navigate to a URL",
			"R":                 "reload the page",
			"r":                 "take a new snapshot now",
			"l":                 "highlight the selected node in the browser (on/off)",
			"T":                 "pick another tab of the browser",
			"e":                 "save raw capture, tree, flat view and decisions to a file",
			"esc":               "cancel the running action, close, or clear search/filter",
			"alt+enter":         "type the text, then press Enter in the page",
			"ctrl+c":            "quit from anywhere",
		},
	}
}

// Action maps a key press to an action in a mode. It is pure: same key,
// same mode, same answer. In Prompt mode, None means "give the key to the
// text input".
func (km KeyMap) Action(msg tea.KeyPressMsg, mode Mode) Action {
	if key.Matches(msg, km.ForceQuit) {
		return Quit
	}
	switch mode {
	case Prompt:
		switch {
		case key.Matches(msg, km.SubmitEnter):
			return SubmitEnter
		case key.Matches(msg, km.Submit):
			return Submit
		case key.Matches(msg, km.Cancel):
			return Cancel
		}
		return None
	case Dialog:
		switch {
		case key.Matches(msg, km.Accept):
			return Accept
		case key.Matches(msg, km.Dismiss):
			return Dismiss
		}
		return None
	case List:
		switch {
		case key.Matches(msg, km.ListClose):
			return Cancel
		case key.Matches(msg, km.ListAccept):
			return Accept
		case key.Matches(msg, km.Up):
			return Up
		case key.Matches(msg, km.Down):
			return Down
		case key.Matches(msg, km.PageUp):
			return PageUp
		case key.Matches(msg, km.PageDown):
			return PageDown
		case key.Matches(msg, km.Top):
			return Top
		case key.Matches(msg, km.Bottom):
			return Bottom
		}
		return None
	}
	for _, e := range km.normal() {
		if key.Matches(msg, e.b) {
			return e.a
		}
	}
	return None
}

type entry struct {
	b key.Binding
	a Action
}

// normal lists the Normal-mode bindings in help order.
func (km KeyMap) normal() []entry {
	return []entry{
		{km.Quit, Quit},
		{km.Up, Up}, {km.Down, Down}, {km.PageUp, PageUp}, {km.PageDown, PageDown},
		{km.Top, Top}, {km.Bottom, Bottom},
		{km.Expand, Expand}, {km.Collapse, Collapse}, {km.Toggle, Toggle},
		{km.ExpandAll, ExpandAll}, {km.CollapseAll, CollapseAll},
		{km.SwitchPane, SwitchPane}, {km.Counterpart, Counterpart},
		{km.Search, Search}, {km.SearchNext, SearchNext}, {km.SearchPrev, SearchPrev},
		{km.Filter, FilterInteractive},
		{km.Format, Format}, {km.Rules, Rules}, {km.Diff, Diff}, {km.Help, Help},
		{km.Click, Click}, {km.Type, Type}, {km.Key, Key}, {km.Hover, Hover}, {km.Select, Select},
		{km.ScrollDown, ScrollDown}, {km.ScrollUp, ScrollUp},
		{km.Goto, Goto}, {km.Back, Back}, {km.Forward, Forward}, {km.Reload, Reload},
		{km.Refresh, Refresh},
		{km.Highlight, Highlight}, {km.Targets, Targets}, {km.Export, Export},
		{km.Cancel, Cancel},
	}
}
