package keymap

import "charm.land/bubbles/v2/key"

// Group is a titled set of bindings for the help screen.
type Group struct {
	Title    string
	Bindings []key.Binding
}

// Groups returns every binding, grouped for the help screen. It is built
// from the same KeyMap that Action reads, so help cannot drift from behaviour.
func (km KeyMap) Groups() []Group {
	return []Group{
		{"Move", []key.Binding{km.Up, km.Down, km.PageUp, km.PageDown, km.Top, km.Bottom,
			km.Expand, km.Collapse, km.Toggle, km.ExpandAll, km.CollapseAll, km.SwitchPane, km.Counterpart}},
		{"Find and inspect", []key.Binding{km.Search, km.SearchNext, km.SearchPrev, km.Filter,
			km.Format, km.Rules, km.Diff, km.Export, km.Help}},
		{"Act on the page", []key.Binding{km.Click, km.Type, km.Key, km.Hover, km.Select,
			km.ScrollDown, km.ScrollUp, km.Goto, km.Back, km.Forward, km.Reload, km.Refresh,
			km.Highlight, km.Targets}},
		{"Prompts, lists and dialogs", []key.Binding{km.Submit, km.SubmitEnter, km.Cancel,
			km.ListAccept, km.ListClose, km.Accept, km.Dismiss, km.Quit, km.ForceQuit}},
	}
}

// ShortHelp is the footer's hint line in Normal mode (bubbles help.KeyMap).
func (km KeyMap) ShortHelp() []key.Binding {
	return []key.Binding{km.Click, km.Type, km.Key, km.Search, km.Refresh, km.Format,
		km.Rules, km.Diff, km.Targets, km.Export, km.Help, km.Quit}
}

// FullHelp is every binding in columns (bubbles help.KeyMap).
func (km KeyMap) FullHelp() [][]key.Binding {
	var out [][]key.Binding
	for _, g := range km.Groups() {
		out = append(out, g.Bindings)
	}
	return out
}

// Hints returns the footer hints for a mode.
func (km KeyMap) Hints(mode Mode) []key.Binding {
	switch mode {
	case Prompt:
		return []key.Binding{km.Submit, km.SubmitEnter, km.Cancel, km.ForceQuit}
	case List:
		return []key.Binding{km.Up, km.Down, km.ListAccept, km.ListClose}
	case Dialog:
		return []key.Binding{km.Accept, km.Dismiss}
	case ReadOnly:
		return []key.Binding{km.Search, km.Format, km.Rules, km.Filter, km.Counterpart, km.Export, km.Help, km.Quit}
	}
	return km.ShortHelp()
}
