package keymap

import (
	"testing"

	tea "charm.land/bubbletea/v2"
)

func txt(r rune) tea.KeyPressMsg { return tea.KeyPressMsg{Code: r, Text: string(r)} }

func TestAction(t *testing.T) {
	km := Default()
	enter := tea.KeyPressMsg{Code: tea.KeyEnter}
	altEnter := tea.KeyPressMsg{Code: tea.KeyEnter, Mod: tea.ModAlt}
	esc := tea.KeyPressMsg{Code: tea.KeyEscape}
	ctrlC := tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl}
	space := tea.KeyPressMsg{Code: tea.KeySpace, Text: " "}
	tests := []struct {
		name string
		msg  tea.KeyPressMsg
		mode Mode
		want Action
	}{
		{"q quits", txt('q'), Normal, Quit},
		{"ctrl+c quits in normal", ctrlC, Normal, Quit},
		{"ctrl+c quits in a prompt", ctrlC, Prompt, Quit},
		{"ctrl+c quits in a dialog", ctrlC, Dialog, Quit},
		{"ctrl+c quits in a list", ctrlC, List, Quit},
		{"q in a prompt is text", txt('q'), Prompt, None},
		{"c in a prompt is text", txt('c'), Prompt, None},
		{"c clicks", txt('c'), Normal, Click},
		{"t types", txt('t'), Normal, Type},
		{"k presses a key", txt('k'), Normal, Key},
		{"h hovers", txt('h'), Normal, Hover},
		{"s selects", txt('s'), Normal, Select},
		{"g goes to a URL", txt('g'), Normal, Goto},
		{"< back", txt('<'), Normal, Back},
		{"> forward", txt('>'), Normal, Forward},
		{"R reloads", txt('R'), Normal, Reload},
		{"r refreshes", txt('r'), Normal, Refresh},
		{"J scrolls down", txt('J'), Normal, ScrollDown},
		{"K scrolls up", txt('K'), Normal, ScrollUp},
		{"f toggles format", txt('f'), Normal, Format},
		{"x opens rules", txt('x'), Normal, Rules},
		{"d opens the diff", txt('d'), Normal, Diff},
		{"? opens help", txt('?'), Normal, Help},
		{"/ searches", txt('/'), Normal, Search},
		{"n next match", txt('n'), Normal, SearchNext},
		{"N previous match", txt('N'), Normal, SearchPrev},
		{"i filters", txt('i'), Normal, FilterInteractive},
		{"T targets", txt('T'), Normal, Targets},
		{"e exports", txt('e'), Normal, Export},
		{"l highlight", txt('l'), Normal, Highlight},
		{"+ expands all", txt('+'), Normal, ExpandAll},
		{"- collapses all", txt('-'), Normal, CollapseAll},
		{"up", tea.KeyPressMsg{Code: tea.KeyUp}, Normal, Up},
		{"down", tea.KeyPressMsg{Code: tea.KeyDown}, Normal, Down},
		{"right expands", tea.KeyPressMsg{Code: tea.KeyRight}, Normal, Expand},
		{"left collapses", tea.KeyPressMsg{Code: tea.KeyLeft}, Normal, Collapse},
		{"space toggles", space, Normal, Toggle},
		{"tab switches pane", tea.KeyPressMsg{Code: tea.KeyTab}, Normal, SwitchPane},
		{"enter jumps to counterpart", enter, Normal, Counterpart},
		{"esc cancels", esc, Normal, Cancel},
		{"pgdown", tea.KeyPressMsg{Code: tea.KeyPgDown}, Normal, PageDown},
		{"home", tea.KeyPressMsg{Code: tea.KeyHome}, Normal, Top},
		{"unbound", txt('z'), Normal, None},
		{"enter submits a prompt", enter, Prompt, Submit},
		{"alt+enter submits and presses Enter", altEnter, Prompt, SubmitEnter},
		{"esc cancels a prompt", esc, Prompt, Cancel},
		{"arrows belong to the input", tea.KeyPressMsg{Code: tea.KeyLeft}, Prompt, None},
		{"y accepts a dialog", txt('y'), Dialog, Accept},
		{"enter accepts a dialog", enter, Dialog, Accept},
		{"n dismisses a dialog", txt('n'), Dialog, Dismiss},
		{"esc dismisses a dialog", esc, Dialog, Dismiss},
		{"c in a dialog does nothing", txt('c'), Dialog, None},
		{"list: down", tea.KeyPressMsg{Code: tea.KeyDown}, List, Down},
		{"list: space toggles", space, List, Accept},
		{"list: enter chooses", enter, List, Accept},
		{"list: q closes", txt('q'), List, Cancel},
		{"list: esc closes", esc, List, Cancel},
		{"list: c does nothing", txt('c'), List, None},
		{"read-only still maps c (the UI explains)", txt('c'), ReadOnly, Click},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := km.Action(tc.msg, tc.mode); got != tc.want {
				t.Errorf("Action(%q, %d) = %v, want %v", tc.msg.String(), tc.mode, got, tc.want)
			}
		})
	}
}

// Every Normal-mode key maps to exactly one action: no binding is shadowed.
func TestNoShadowedBindings(t *testing.T) {
	km := Default()
	seen := map[string]Action{}
	for _, e := range km.normal() {
		for _, k := range e.b.Keys() {
			if prev, ok := seen[k]; ok {
				t.Errorf("key %q bound to both %v and %v", k, prev, e.a)
			}
			seen[k] = e.a
		}
	}
}

// Every Normal-mode binding appears in the help.
func TestHelpCoversBindings(t *testing.T) {
	km := Default()
	inHelp := map[string]bool{}
	for _, g := range km.Groups() {
		for _, b := range g.Bindings {
			inHelp[b.Help().Key+b.Help().Desc] = true
		}
	}
	for _, e := range km.normal() {
		if !inHelp[e.b.Help().Key+e.b.Help().Desc] {
			t.Errorf("binding %v (%s) missing from help", e.a, e.b.Help().Key)
		}
	}
}
