// Package keymap holds domscope's key bindings as one table. A pure
// function turns key presses into commands, so key handling is
// table-tested without a terminal. The help screen, the footer hints and
// the set of browser-only commands all come from the same table. So none
// of them can drift from what the keys do.
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
	// ReadOnly: a saved capture with no browser. Browser commands are
	// refused, but still mapped so the UI can say why.
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

// Command is what a key press asks the UI to do, by name. The help and
// the config file's [keys] spell it so. Update switches on it, never on
// raw keys. A Command is one step before the engine's dom.Action, which
// is what the UI then asks of the page. A new command needs no constant.
// Its row names it, and the UI's handler table names it again.
type Command string

// The commands the UI refers to by name.
const (
	None              Command = ""
	Quit              Command = "quit"
	Up                Command = "up"
	Down              Command = "down"
	PageUp            Command = "page-up"
	PageDown          Command = "page-down"
	Top               Command = "top"
	Bottom            Command = "bottom"
	Expand            Command = "expand"
	Collapse          Command = "collapse"
	PanRight          Command = "pan-right" // scroll the flat pane's long lines sideways
	PanLeft           Command = "pan-left"
	Toggle            Command = "toggle"
	ExpandAll         Command = "expand-all"
	CollapseAll       Command = "collapse-all"
	SwitchPane        Command = "switch-pane"
	Counterpart       Command = "counterpart"
	Search            Command = "search"
	SearchNext        Command = "search-next"
	SearchPrev        Command = "search-prev"
	FilterInteractive Command = "filter-interactive"
	Format            Command = "format"
	Rules             Command = "rules"
	Diff              Command = "diff"
	Help              Command = "help"
	Click             Command = "click"
	Type              Command = "type"
	Key               Command = "key"
	Hover             Command = "hover"
	Select            Command = "select"
	ScrollDown        Command = "scroll-down"
	ScrollUp          Command = "scroll-up"
	Goto              Command = "goto"
	Back              Command = "back"
	Forward           Command = "forward"
	Reload            Command = "reload"
	Refresh           Command = "refresh"
	Highlight         Command = "highlight"
	Targets           Command = "targets"
	Export            Command = "export"
	Zoom              Command = "zoom"     // maximise the focused pane
	Messages          Command = "messages" // the message log
	Picture           Command = "picture"  // the page's screenshot in place of the flat pane
	PicMarks          Command = "marks"    // numbered marks on the picture
	Reveal            Command = "reveal"   // scroll the selected node into the page's view
	ViewportNext      Command = "viewport"
	WriteScript       Command = "write-script" // write the session's actions as a `run` script
	QueryView         Command = "query-view"   // the flat pane as the query view of the typed words
	Copy              Command = "copy"         // copy the selected node's line (OSC 52)
	CopyMenu          Command = "copy-menu"    // choose what to copy
	Follow            Command = "follow"       // pause or resume following the page
	Cancel            Command = "cancel"
	Submit            Command = "submit"       // prompt: Enter
	SubmitEnter       Command = "submit-enter" // prompt: Alt+Enter (type, then Enter)
	Accept            Command = "accept"       // dialog, list: choose
	Dismiss           Command = "dismiss"      // dialog
	StepRun           Command = "step-run"     // a loaded script: run the current step
	StepAll           Command = "step-all"     // run to the end or the next failure
	StepSkip          Command = "step-skip"    // skip the current step
	StepEdit          Command = "step-edit"    // edit the step's line, then run it
	Story             Command = "story"        // the session's steps, views and diffs
	Calls             Command = "calls"        // the agent's call log (--mcp)
	AgentPause        Command = "agent-pause"  // pause or resume the agent's calls (--mcp)
)

func (c Command) String() string {
	if c == None {
		return "none"
	}
	return string(c)
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

// Row is one binding. It holds its keys and footer text, and the command
// they mean. It holds the modes in which they mean it and the footers
// that show it. It also holds its help section and line, and whether the
// command needs a live page.
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

// KeyMap is every binding of the program, in one table. Build it with
// Default and pass the value around. There are no package-level bindings.
type KeyMap struct {
	Rows []Row
}

// Default returns domscope's bindings. A new key of the panes is a row
// here and its handler in tui's paneKeys. A test there checks that both
// name the same commands. Within a mode no two rows share a key (a test
// checks it). Footer hints and help lines keep the table's order.
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
		{b("Z", "zoom", "Z"), Zoom, panes, nowhere, GroupMove, offline, "maximise the pane or picture"},
		{b("tab", "switch pane", "tab", "shift+tab"), SwitchPane, panes, nowhere, GroupMove, offline, "switch tree ↔ flat pane"},
		{b("enter", "counterpart", "enter"), Counterpart, panes, onReadOnly, GroupMove, offline, "same node in the other pane"},

		{b("c", "click", "c"), Click, panes, onNormal, GroupAct, live, "click the selected node"},
		{b("t", "type", "t"), Type, panes, onNormal, GroupAct, live, "type into the selected node"},
		{b("K", "key", "K"), Key, panes, onNormal, GroupAct, live, "press a key: Enter, ctrl+a…"},
		{b("h", "hover", "h"), Hover, panes, nowhere, GroupAct, live, "hover the selected node"},
		{b("s", "select", "s"), Select, panes, nowhere, GroupAct, live, "choose an option of a <select>"},
		{b("ctrl+e", "scroll down", "ctrl+e"), ScrollDown, panes, nowhere, GroupAct, live, "scroll the selected list (or page) down"},
		{b("ctrl+y", "scroll up", "ctrl+y"), ScrollUp, panes, nowhere, GroupAct, live, "scroll the selected list (or page) up"},
		{b("g", "go to URL", "g"), Goto, panes, nowhere, GroupAct, live, "go to a URL"},
		{b("<", "back", "<", "alt+left"), Back, panes, nowhere, GroupAct, live, "back in history"},
		{b(">", "forward", ">", "alt+right"), Forward, panes, nowhere, GroupAct, live, "forward in history"},
		{b("R", "reload", "R"), Reload, panes, nowhere, GroupAct, live, "reload the page"},

		{b("/", "search", "/"), Search, panes, panes, GroupFind, offline, "search; in the flat pane: filter lines"},
		{b("n", "next", "n"), SearchNext, panes, nowhere, GroupFind, offline, "next match"},
		{b("N", "prev", "N"), SearchPrev, panes, nowhere, GroupFind, offline, "previous match"},
		{b("ctrl+q", "query view", "ctrl+q"), QueryView, panes | onPrompt, nowhere, GroupFind, offline, "query view of the flat filter words"},
		{b("i", "interactive only", "i"), FilterInteractive, panes, onReadOnly, GroupFind, offline, "interactive nodes only"},
		{b("r", "refresh", "r"), Refresh, panes, onNormal, GroupAct, live, "take a new snapshot now"},
		{b("F", "follow", "F"), Follow, panes, nowhere, GroupAct, live, "pause / resume following the page"},
		{b("f", "text/json", "f"), Format, panes, panes, GroupFind, offline, "flat pane: text ↔ json"},
		{b("x", "rules", "x"), Rules, panes, panes, GroupFind, offline, "tier and flatten rules"},
		{b("d", "diff", "d"), Diff, panes, onNormal, GroupFind, offline, "what the last action changed"},
		{b("l", "highlight", "l"), Highlight, panes, nowhere, GroupAct, live, "highlight in the browser"},
		{b("T", "tabs", "T"), Targets, panes, onNormal, GroupAct, live, "pick another tab"},
		{b("P", "picture", "P"), Picture, panes, nowhere, GroupFind, offline, "the page's picture ↔ flat pane"},
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
		{b("M", "agent calls", "M"), Calls, panes, nowhere, GroupFind, offline, "the agent's calls (--mcp, --session)"},
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

// Command maps a key press to a command in a mode. The first row for that
// mode whose keys match wins. It is pure: same key, same mode, same
// answer. In Prompt mode, None means "give the key to the text input".
func (km KeyMap) Command(msg tea.KeyPressMsg, mode Mode) Command {
	for _, r := range km.Rows {
		if r.Modes.Has(mode) && key.Matches(msg, r.Key) {
			return r.Command
		}
	}
	return None
}

// NeedsBrowser reports whether a command needs a live page. That is one
// of the rows marked so.
func (km KeyMap) NeedsBrowser(c Command) bool {
	for _, r := range km.Rows {
		if r.Command == c && r.Browser {
			return true
		}
	}
	return false
}
