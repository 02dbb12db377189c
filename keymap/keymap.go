// Package keymap holds domscope's key bindings as one table and turns key
// presses into commands with a pure function, so key handling is
// table-tested without a terminal. The help screen, the footer hints and
// the set of browser-only commands are all derived from the same table, so
// none of them can drift from what the keys do.
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
	// ReadOnly: a saved capture with no browser (browser commands are
	// refused, but still mapped so the UI can say why).
	ReadOnly
)

// Modes is a set of modes.
type Modes uint8

// Has reports whether m is in the set.
func (s Modes) Has(m Mode) bool { return s&(1<<m) != 0 }

// The mode sets the table uses.
const (
	nowhere    Modes = 0
	onNormal   Modes = 1 << Normal
	onPrompt   Modes = 1 << Prompt
	onList     Modes = 1 << List
	onDialog   Modes = 1 << Dialog
	onReadOnly Modes = 1 << ReadOnly
	panes            = onNormal | onReadOnly
	everywhere       = panes | onPrompt | onList | onDialog
)

// Command is what a key press asks the UI to do. Update switches on it,
// never on raw keys. (The engine's dom.Action is what the UI then asks of
// the page; a Command is one step before that.)
type Command int

// The commands.
const (
	None Command = iota
	Quit
	Up
	Down
	PageUp
	PageDown
	Top
	Bottom
	Expand
	Collapse
	PanRight // scroll the flat pane's long lines sideways
	PanLeft
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
	Zoom     // maximise the focused pane
	Messages // the message log
	Picture  // show the page's screenshot in place of the flat pane
	PicMarks // numbered marks on the picture
	Reveal   // scroll the selected node into the page's view
	ViewportNext
	WriteScript // write the session's actions as a `run` script
	Copy        // copy the selected node's line (OSC 52)
	CopyMenu    // choose what to copy: flat view, run target, CSS selector
	Follow      // pause or resume following the page's own changes
	Cancel
	Submit      // prompt: Enter
	SubmitEnter // prompt: Alt+Enter (type the text, then press Enter in the page)
	Accept      // dialog, list: choose
	Dismiss     // dialog
	StepRun     // a loaded script: run the current step
	StepAll     // a loaded script: run to the end or the next failure
	StepSkip    // a loaded script: skip the current step
	StepEdit    // a loaded script: edit the step's line, then run it
	Story       // the session's steps with the view after each and its diff
	Calls       // the agent's call log (--mcp)
	AgentPause  // pause or resume the agent's calls (--mcp)
	numCommands
)

var commandNames = [numCommands]string{
	None: "none", Quit: "quit", Up: "up", Down: "down", PageUp: "page-up", PageDown: "page-down",
	Top: "top", Bottom: "bottom", Expand: "expand", Collapse: "collapse", PanRight: "pan-right", PanLeft: "pan-left", Toggle: "toggle",
	ExpandAll: "expand-all", CollapseAll: "collapse-all", SwitchPane: "switch-pane",
	Counterpart: "counterpart", Search: "search", SearchNext: "search-next", SearchPrev: "search-prev",
	FilterInteractive: "filter-interactive", Format: "format", Rules: "rules", Diff: "diff",
	Help: "help", Click: "click", Type: "type", Key: "key", Hover: "hover", Select: "select",
	ScrollDown: "scroll-down", ScrollUp: "scroll-up", Goto: "goto", Back: "back",
	Forward: "forward", Reload: "reload", Refresh: "refresh", Highlight: "highlight",
	Targets: "targets", Export: "export", Zoom: "zoom", Messages: "messages", Picture: "picture", PicMarks: "marks", Reveal: "reveal",
	ViewportNext: "viewport", WriteScript: "write-script", Copy: "copy", CopyMenu: "copy-menu", Follow: "follow", Cancel: "cancel", Submit: "submit",
	SubmitEnter: "submit-enter", Accept: "accept", Dismiss: "dismiss",
	StepRun: "step-run", StepAll: "step-all", StepSkip: "step-skip", StepEdit: "step-edit", Story: "story",
	Calls: "calls", AgentPause: "agent-pause",
}

func (c Command) String() string {
	if c >= 0 && c < numCommands {
		return commandNames[c]
	}
	return "unknown"
}

// GroupID is a section of the help screen.
type GroupID int

// The help sections, in the order the help screen shows them.
const (
	GroupMove GroupID = iota
	GroupFind
	GroupAct
	GroupOther
	numGroups
)

// Title is the section's heading on the help screen.
func (g GroupID) Title() string {
	switch g {
	case GroupMove:
		return "Move"
	case GroupFind:
		return "Find and inspect"
	case GroupAct:
		return "Act on the page"
	}
	return "Quit, prompts, lists, dialogs"
}

// Row is one binding: its keys and footer text, the command they mean, the
// modes in which they mean it, the footers that show it, its help section
// and line, and whether the command needs a live page.
type Row struct {
	Key     key.Binding // the keys, and the short help the footer shows
	Command Command
	Modes   Modes // where the keys mean Command
	Hint    Modes // the modes whose footer shows this binding
	Group   GroupID
	Browser bool   // Command needs a live page
	Doc     string // the help screen's line
}

// Whether a row needs a live page, spelled for the table.
const (
	live    = true
	offline = false
)

// KeyMap is every binding of the program: one table. Build it with Default
// and pass the value around; there are no package-level bindings.
type KeyMap struct {
	Rows []Row
}

// Default returns domscope's bindings. Adding a key is adding a row. Within
// a mode no two rows share a key (a test checks it); footer hints and help
// lines keep the table's order.
func Default() KeyMap {
	b := func(help, desc string, keys ...string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(help, desc))
	}
	return KeyMap{Rows: []Row{
		// The panes (and a saved capture's panes). Moving also works in lists.
		{b("↑/k", "up", "up", "k", "ctrl+p"), Up, panes | onList, onList, GroupMove, offline, "move up"},
		{b("↓/j", "down", "down", "j", "ctrl+n"), Down, panes | onList, onList, GroupMove, offline, "move down"},
		{b("pgup", "page up", "pgup", "ctrl+b"), PageUp, panes | onList, nowhere, GroupMove, offline, "page up"},
		{b("pgdn", "page down", "pgdown", "ctrl+f"), PageDown, panes | onList, nowhere, GroupMove, offline, "page down"},
		{b("home", "top", "home"), Top, panes | onList, nowhere, GroupMove, offline, "first row"},
		{b("end", "bottom", "end", "G"), Bottom, panes | onList, nowhere, GroupMove, offline, "last row"},
		{b("→", "expand", "right"), Expand, panes, nowhere, GroupMove, offline, "expand, or go to first child"},
		{b("←", "collapse", "left"), Collapse, panes, nowhere, GroupMove, offline, "collapse, or go to parent"},
		{b("shift+→", "scroll right", "shift+right"), PanRight, panes, nowhere, GroupMove, offline, "scroll flat pane right (→)"},
		{b("shift+←", "scroll left", "shift+left"), PanLeft, panes, nowhere, GroupMove, offline, "scroll flat pane left (←)"},
		{b("space", "toggle", "space"), Toggle, panes, nowhere, GroupMove, offline, "expand or collapse the node"},
		{b("+", "expand all", "+", "="), ExpandAll, panes, nowhere, GroupMove, offline, "expand every node"},
		{b("-", "collapse all", "-", "_"), CollapseAll, panes, nowhere, GroupMove, offline, "collapse every node"},
		{b("Z", "zoom", "Z"), Zoom, panes, nowhere, GroupMove, offline, "maximise the focused pane"},
		{b("tab", "switch pane", "tab", "shift+tab"), SwitchPane, panes, nowhere, GroupMove, offline, "switch tree ↔ flat pane"},
		{b("enter", "counterpart", "enter"), Counterpart, panes, onReadOnly, GroupMove, offline, "same node in the other pane"},

		{b("c", "click", "c"), Click, panes, onNormal, GroupAct, live, "click the selected node"},
		{b("t", "type", "t"), Type, panes, onNormal, GroupAct, live, "type into the selected node"},
		{b("K", "key", "K"), Key, panes, onNormal, GroupAct, live, "press a key: Enter, ctrl+a…"},
		{b("h", "hover", "h"), Hover, panes, nowhere, GroupAct, live, "hover the selected node"},
		{b("s", "select", "s"), Select, panes, nowhere, GroupAct, live, "choose an option of a <select>"},
		{b("ctrl+e", "scroll down", "ctrl+e"), ScrollDown, panes, nowhere, GroupAct, live, "scroll the page down"},
		{b("ctrl+y", "scroll up", "ctrl+y"), ScrollUp, panes, nowhere, GroupAct, live, "scroll the page up"},
		{b("g", "go to URL", "g"), Goto, panes, nowhere, GroupAct, live, "go to a URL"},
		{b("<", "back", "<", "alt+left"), Back, panes, nowhere, GroupAct, live, "back in history"},
		{b(">", "forward", ">", "alt+right"), Forward, panes, nowhere, GroupAct, live, "forward in history"},
		{b("R", "reload", "R"), Reload, panes, nowhere, GroupAct, live, "reload the page"},

		{b("/", "search", "/"), Search, panes, panes, GroupFind, offline, "search name, role, tag, attrs"},
		{b("n", "next", "n"), SearchNext, panes, nowhere, GroupFind, offline, "next match"},
		{b("N", "prev", "N"), SearchPrev, panes, nowhere, GroupFind, offline, "previous match"},
		{b("i", "interactive only", "i"), FilterInteractive, panes, onReadOnly, GroupFind, offline, "interactive nodes only"},
		{b("r", "refresh", "r"), Refresh, panes, onNormal, GroupAct, live, "take a new snapshot now"},
		{b("F", "follow", "F"), Follow, panes, nowhere, GroupAct, live, "pause / resume following the page"},
		{b("f", "text/json", "f"), Format, panes, panes, GroupFind, offline, "flat pane: text ↔ json"},
		{b("x", "rules", "x"), Rules, panes, panes, GroupFind, offline, "tier and flatten rules"},
		{b("d", "diff", "d"), Diff, panes, onNormal, GroupFind, offline, "what the last action changed"},
		{b("l", "highlight", "l"), Highlight, panes, nowhere, GroupAct, live, "highlight in the browser"},
		{b("T", "tabs", "T"), Targets, panes, onNormal, GroupAct, live, "pick another tab"},
		{b("P", "picture", "P"), Picture, panes, nowhere, GroupFind, live, "the page's picture ↔ flat pane"},
		{b("m", "marks", "m"), PicMarks, panes, nowhere, GroupFind, offline, "numbered marks on the picture"},
		{b("z", "reveal", "z"), Reveal, panes, nowhere, GroupAct, live, "scroll the node into the page's view"},
		{b("v", "viewport", "v"), ViewportNext, panes, nowhere, GroupAct, live, "viewport: desktop → tablet → phone"},
		{b("e", "export", "e"), Export, panes, panes, GroupFind, offline, "save the capture to a file"},
		{b("w", "write script", "w"), WriteScript, panes, nowhere, GroupFind, offline, "write the session as a run script"},
		{b("y", "copy", "y"), Copy, panes, nowhere, GroupFind, offline, "copy the selected node's line"},
		{b("Y", "copy…", "Y"), CopyMenu, panes, nowhere, GroupFind, offline, "copy the flat view, a run target or CSS"},
		{b("a", "run step", "a"), StepRun, onNormal, nowhere, GroupAct, live, "script (run --ui): run this step"},
		{b("A", "run to the end", "A"), StepAll, onNormal, nowhere, GroupAct, live, "script: run to the end / a failure"},
		{b("S", "skip step", "S"), StepSkip, onNormal, nowhere, GroupAct, live, "script: skip this step"},
		{b("E", "edit step", "E"), StepEdit, onNormal, nowhere, GroupAct, live, "script: edit the step, retry"},
		{b("H", "story", "H"), Story, panes, nowhere, GroupFind, offline, "the session's steps and their diffs"},
		{b("L", "messages", "L"), Messages, panes, nowhere, GroupFind, offline, "messages and errors, in full"},
		{b("M", "agent calls", "M"), Calls, panes, nowhere, GroupFind, offline, "the agent's calls (--mcp)"},
		{b("p", "pause agent", "p"), AgentPause, panes, nowhere, GroupAct, offline, "pause / resume the agent (--mcp)"},
		{b("?", "help", "?"), Help, panes | onList, panes, GroupFind, offline, "this help"},
		{b("esc", "cancel", "esc"), Cancel, panes | onPrompt, onPrompt, GroupOther, offline, "cancel, close, clear search"},
		{b("q", "quit", "q"), Quit, panes, panes, GroupOther, offline, "quit"},

		// A prompt: every other key edits the text.
		{b("enter", "submit", "enter"), Submit, onPrompt, onPrompt, GroupOther, offline, "submit a prompt"},
		{b("alt+enter", "type + Enter", "alt+enter"), SubmitEnter, onPrompt, onPrompt, GroupOther, offline, "type, then press Enter"},

		// A list overlay (rules, diff, tabs, help).
		{b("enter/space", "choose", "enter", "space"), Accept, onList, onList, GroupOther, offline, "choose in a list"},
		{b("esc/q", "close", "esc", "q"), Cancel, onList, onList, GroupOther, offline, "close a list"},

		// A JavaScript dialog.
		{b("y/enter", "accept", "y", "enter"), Accept, onDialog, onDialog, GroupOther, offline, "accept a page dialog"},
		{b("n/esc", "dismiss", "n", "esc"), Dismiss, onDialog, onDialog, GroupOther, offline, "dismiss a page dialog"},

		// Everywhere.
		{b("ctrl+c", "quit", "ctrl+c"), Quit, everywhere, onPrompt, GroupOther, offline, "quit from anywhere"},
	}}
}

// Command maps a key press to a command in a mode: the first row for that
// mode whose keys match. It is pure: same key, same mode, same answer. In
// Prompt mode, None means "give the key to the text input".
func (km KeyMap) Command(msg tea.KeyPressMsg, mode Mode) Command {
	for _, r := range km.Rows {
		if r.Modes.Has(mode) && key.Matches(msg, r.Key) {
			return r.Command
		}
	}
	return None
}

// NeedsBrowser reports whether a command needs a live page: it is one of
// the rows marked so.
func (km KeyMap) NeedsBrowser(c Command) bool {
	for _, r := range km.Rows {
		if r.Command == c && r.Browser {
			return true
		}
	}
	return false
}
