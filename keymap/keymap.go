// Package keymap holds domscope's key bindings in one KeyMap value and turns
// key presses into actions with a pure function, so key handling is
// table-tested without a terminal and the help screen is generated from the
// same bindings that drive behaviour.
package keymap

import (
	tea "charm.land/bubbletea/v2"
	"charm.land/bubbles/v2/key"
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
}

// Default returns domscope's bindings.
func Default() KeyMap {
	b := func(help, desc string, keys ...string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(help, desc))
	}
	return KeyMap{
		Quit:      b("q", "quit", "q"),
		ForceQuit: b("ctrl+c", "quit from anywhere", "ctrl+c"),

		Up:       b("↑", "move up", "up", "ctrl+p"),
		Down:     b("↓", "move down", "down", "ctrl+n"),
		PageUp:   b("pgup", "page up", "pgup", "ctrl+b"),
		PageDown: b("pgdn", "page down", "pgdown", "ctrl+f"),
		Top:      b("home", "first row", "home"),
		Bottom:   b("end", "last row", "end"),

		Expand:      b("→", "expand / into child", "right"),
		Collapse:    b("←", "collapse / to parent", "left"),
		Toggle:      b("space", "toggle expand", "space"),
		ExpandAll:   b("+", "expand all", "+", "="),
		CollapseAll: b("-", "collapse all", "-", "_"),

		SwitchPane:  b("tab", "switch pane", "tab", "shift+tab"),
		Counterpart: b("enter", "jump to counterpart in the other pane", "enter"),

		Search:     b("/", "search name, role, tag, id, attribute", "/"),
		SearchNext: b("n", "next match", "n"),
		SearchPrev: b("N", "previous match", "N"),
		Filter:     b("i", "only interactive nodes (and their ancestors)", "i"),

		Format: b("f", "flat view: text ↔ json", "f"),
		Rules:  b("x", "tier and flatten rules (toggle live)", "x"),
		Diff:   b("d", "what the last action changed", "d"),
		Help:   b("?", "help", "?"),

		Click:  b("c", "click the node", "c"),
		Type:   b("t", "type into the node", "t"),
		Key:    b("k", "press a key (Enter, ctrl+a, shift+Tab…)", "k"),
		Hover:  b("h", "hover the node", "h"),
		Select: b("s", "select an option", "s"),

		ScrollDown: b("J", "scroll the page / node down", "J"),
		ScrollUp:   b("K", "scroll the page / node up", "K"),

		Goto:    b("g", "go to a URL", "g"),
		Back:    b("<", "back", "<", "alt+left"),
		Forward: b(">", "forward", ">", "alt+right"),
		Reload:  b("R", "reload the page", "R"),
		Refresh: b("r", "new snapshot", "r"),

		Highlight: b("l", "highlight selection in the browser on/off", "l"),
		Targets:   b("T", "pick another tab", "T"),
		Export:    b("e", "export this capture to a file", "e"),

		Cancel: b("esc", "cancel / close / clear", "esc"),

		Submit:      b("enter", "submit", "enter"),
		SubmitEnter: b("alt+enter", "type, then press Enter in the page", "alt+enter"),

		Accept:  b("y/enter", "accept the dialog", "y", "enter"),
		Dismiss: b("n/esc", "dismiss the dialog", "n", "esc"),

		ListAccept: b("enter/space", "choose / toggle", "enter", "space"),
		ListClose:  b("esc/q", "close", "esc", "q"),
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
