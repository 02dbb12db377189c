package keymap

import (
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

func txt(r rune) tea.KeyPressMsg { return tea.KeyPressMsg{Code: r, Text: string(r)} }

// press turns a binding's key name ("ctrl+p", "alt+left", "J", "space")
// into the key press a terminal would send.
func press(t *testing.T, name string) tea.KeyPressMsg {
	t.Helper()
	special := map[string]rune{
		"up": tea.KeyUp, "down": tea.KeyDown, "left": tea.KeyLeft, "right": tea.KeyRight,
		"pgup": tea.KeyPgUp, "pgdown": tea.KeyPgDown, "home": tea.KeyHome, "end": tea.KeyEnd,
		"enter": tea.KeyEnter, "esc": tea.KeyEscape, "tab": tea.KeyTab, "space": tea.KeySpace,
	}
	var msg tea.KeyPressMsg
	base := name
	for {
		i := strings.Index(base, "+")
		if i <= 0 || i == len(base)-1 {
			break
		}
		switch base[:i] {
		case "ctrl":
			msg.Mod |= tea.ModCtrl
		case "alt":
			msg.Mod |= tea.ModAlt
		case "shift":
			msg.Mod |= tea.ModShift
		default:
			t.Fatalf("unknown modifier in %q", name)
		}
		base = base[i+1:]
	}
	if c, ok := special[base]; ok {
		msg.Code = c
		if c == tea.KeySpace {
			msg.Text = " "
		}
	} else if r := []rune(base); len(r) == 1 {
		msg.Code = r[0]
		if msg.Mod == 0 {
			msg.Text = base
		}
	} else {
		t.Fatalf("unknown key %q", name)
	}
	if got := msg.String(); got != name {
		t.Fatalf("key %q arrives as %q: the binding can never match", name, got)
	}
	return msg
}

func TestCommand(t *testing.T) {
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
		want Command
	}{
		{"q quits", txt('q'), Normal, Quit},
		{"ctrl+c quits in normal", ctrlC, Normal, Quit},
		{"ctrl+c quits in a prompt", ctrlC, Prompt, Quit},
		{"ctrl+c quits in a dialog", ctrlC, Dialog, Quit},
		{"ctrl+c quits in a list", ctrlC, List, Quit},
		{"ctrl+c quits read-only", ctrlC, ReadOnly, Quit},
		{"q in a prompt is text", txt('q'), Prompt, None},
		{"c in a prompt is text", txt('c'), Prompt, None},
		{"c clicks", txt('c'), Normal, Click},
		{"t types", txt('t'), Normal, Type},
		{"K presses a key", txt('K'), Normal, Key},
		{"j moves down", txt('j'), Normal, Down},
		{"k moves up", txt('k'), Normal, Up},
		{"G goes to the last row", txt('G'), Normal, Bottom},
		{"j moves down a list", txt('j'), List, Down},
		{"k moves up a list", txt('k'), List, Up},
		{"j in a prompt is text", txt('j'), Prompt, None},
		{"Z zooms", txt('Z'), Normal, Zoom},
		{"L opens the messages", txt('L'), Normal, Messages},
		{"h hovers", txt('h'), Normal, Hover},
		{"s selects", txt('s'), Normal, Select},
		{"g goes to a URL", txt('g'), Normal, Goto},
		{"< back", txt('<'), Normal, Back},
		{"alt+left back", tea.KeyPressMsg{Code: tea.KeyLeft, Mod: tea.ModAlt}, Normal, Back},
		{"> forward", txt('>'), Normal, Forward},
		{"alt+right forward", tea.KeyPressMsg{Code: tea.KeyRight, Mod: tea.ModAlt}, Normal, Forward},
		{"R reloads", txt('R'), Normal, Reload},
		{"r refreshes", txt('r'), Normal, Refresh},
		{"ctrl+e scrolls down", tea.KeyPressMsg{Code: 'e', Mod: tea.ModCtrl}, Normal, ScrollDown},
		{"ctrl+y scrolls up", tea.KeyPressMsg{Code: 'y', Mod: tea.ModCtrl}, Normal, ScrollUp},
		{"f toggles format", txt('f'), Normal, Format},
		{"x opens rules", txt('x'), Normal, Rules},
		{"d opens the diff", txt('d'), Normal, Diff},
		{"? opens help", txt('?'), Normal, Help},
		{"/ searches", txt('/'), Normal, Search},
		{"n next match", txt('n'), Normal, SearchNext},
		{"N previous match", txt('N'), Normal, SearchPrev},
		{"i filters", txt('i'), Normal, FilterInteractive},
		{"T targets", txt('T'), Normal, Targets},
		{"P picture", txt('P'), Normal, Picture},
		{"m marks", txt('m'), Normal, PicMarks},
		{"z reveal", txt('z'), Normal, Reveal},
		{"v viewport", txt('v'), Normal, ViewportNext},
		{"e exports", txt('e'), Normal, Export},
		{"w writes the script", txt('w'), Normal, WriteScript},
		{"y copies", txt('y'), Normal, Copy},
		{"Y copy menu", txt('Y'), Normal, CopyMenu},
		{"l highlight", txt('l'), Normal, Highlight},
		{"F pauses or resumes following", txt('F'), Normal, Follow},
		{"+ expands all", txt('+'), Normal, ExpandAll},
		{"= expands all", txt('='), Normal, ExpandAll},
		{"- collapses all", txt('-'), Normal, CollapseAll},
		{"_ collapses all", txt('_'), Normal, CollapseAll},
		{"up", tea.KeyPressMsg{Code: tea.KeyUp}, Normal, Up},
		{"ctrl+p up", tea.KeyPressMsg{Code: 'p', Mod: tea.ModCtrl}, Normal, Up},
		{"down", tea.KeyPressMsg{Code: tea.KeyDown}, Normal, Down},
		{"ctrl+n down", tea.KeyPressMsg{Code: 'n', Mod: tea.ModCtrl}, Normal, Down},
		{"right expands", tea.KeyPressMsg{Code: tea.KeyRight}, Normal, Expand},
		{"left collapses", tea.KeyPressMsg{Code: tea.KeyLeft}, Normal, Collapse},
		{"space toggles", space, Normal, Toggle},
		{"tab switches pane", tea.KeyPressMsg{Code: tea.KeyTab}, Normal, SwitchPane},
		{"shift+tab switches pane", tea.KeyPressMsg{Code: tea.KeyTab, Mod: tea.ModShift}, Normal, SwitchPane},
		{"enter jumps to counterpart", enter, Normal, Counterpart},
		{"esc cancels", esc, Normal, Cancel},
		{"pgup", tea.KeyPressMsg{Code: tea.KeyPgUp}, Normal, PageUp},
		{"ctrl+b page up", tea.KeyPressMsg{Code: 'b', Mod: tea.ModCtrl}, Normal, PageUp},
		{"pgdown", tea.KeyPressMsg{Code: tea.KeyPgDown}, Normal, PageDown},
		{"ctrl+f page down", tea.KeyPressMsg{Code: 'f', Mod: tea.ModCtrl}, Normal, PageDown},
		{"home", tea.KeyPressMsg{Code: tea.KeyHome}, Normal, Top},
		{"end", tea.KeyPressMsg{Code: tea.KeyEnd}, Normal, Bottom},
		{"unbound", txt('Q'), Normal, None},
		{"enter submits a prompt", enter, Prompt, Submit},
		{"alt+enter submits and presses Enter", altEnter, Prompt, SubmitEnter},
		{"esc cancels a prompt", esc, Prompt, Cancel},
		{"arrows belong to the input", tea.KeyPressMsg{Code: tea.KeyLeft}, Prompt, None},
		{"ctrl+p belongs to the input", tea.KeyPressMsg{Code: 'p', Mod: tea.ModCtrl}, Prompt, None},
		{"y accepts a dialog", txt('y'), Dialog, Accept},
		{"enter accepts a dialog", enter, Dialog, Accept},
		{"n dismisses a dialog", txt('n'), Dialog, Dismiss},
		{"esc dismisses a dialog", esc, Dialog, Dismiss},
		{"c in a dialog does nothing", txt('c'), Dialog, None},
		{"up in a dialog does nothing", tea.KeyPressMsg{Code: tea.KeyUp}, Dialog, None},
		{"list: up", tea.KeyPressMsg{Code: tea.KeyUp}, List, Up},
		{"list: down", tea.KeyPressMsg{Code: tea.KeyDown}, List, Down},
		{"list: ctrl+n down", tea.KeyPressMsg{Code: 'n', Mod: tea.ModCtrl}, List, Down},
		{"list: pgup", tea.KeyPressMsg{Code: tea.KeyPgUp}, List, PageUp},
		{"list: pgdown", tea.KeyPressMsg{Code: tea.KeyPgDown}, List, PageDown},
		{"list: home", tea.KeyPressMsg{Code: tea.KeyHome}, List, Top},
		{"list: end", tea.KeyPressMsg{Code: tea.KeyEnd}, List, Bottom},
		{"list: space toggles", space, List, Accept},
		{"list: enter chooses", enter, List, Accept},
		{"list: q closes", txt('q'), List, Cancel},
		{"list: esc closes", esc, List, Cancel},
		{"list: c does nothing", txt('c'), List, None},
		{"list: right does nothing", tea.KeyPressMsg{Code: tea.KeyRight}, List, None},
		{"read-only still maps c (the UI explains)", txt('c'), ReadOnly, Click},
		{"read-only: q quits", txt('q'), ReadOnly, Quit},
		{"read-only: / searches", txt('/'), ReadOnly, Search},
		{"read-only: enter jumps", enter, ReadOnly, Counterpart},
		{"read-only: esc cancels", esc, ReadOnly, Cancel},
		{"read-only: y copies (dialog y is only in a dialog)", txt('y'), ReadOnly, Copy},
		{"read-only: o does nothing", txt('o'), ReadOnly, None},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := km.Command(tc.msg, tc.mode); got != tc.want {
				t.Errorf("Command(%q, %d) = %v, want %v", tc.msg.String(), tc.mode, got, tc.want)
			}
		})
	}
}

var allModes = []Mode{Normal, Prompt, List, Dialog, ReadOnly}

// Within a mode a key belongs to one row. No binding is shadowed by
// another.
func TestNoShadowedBindings(t *testing.T) {
	km := Default()
	for _, mode := range allModes {
		seen := map[string]Command{}
		for _, r := range km.Rows {
			if !r.Modes.Has(mode) {
				continue
			}
			for _, k := range r.Key.Keys() {
				if prev, ok := seen[k]; ok {
					t.Errorf("mode %d: key %q bound to both %v and %v", mode, k, prev, r.Command)
				}
				seen[k] = r.Command
			}
		}
	}
}

// Every key of every row reaches the row's command in each of its modes.
// It is written on the help screen in the row's section.
func TestEveryRowReachableAndInHelp(t *testing.T) {
	km := Default()
	groups := km.Groups()
	for _, r := range km.Rows {
		if r.Modes == nowhere {
			t.Errorf("%v (%s) applies in no mode", r.Command, r.Key.Help().Key)
		}
		for _, k := range r.Key.Keys() {
			msg := press(t, k)
			for _, mode := range allModes {
				if r.Modes.Has(mode) {
					if got := km.Command(msg, mode); got != r.Command {
						t.Errorf("mode %d: %q gives %v, its row says %v", mode, k, got, r.Command)
					}
				}
			}
		}
		title := r.Group.Title()
		found := false
		for _, g := range groups {
			if g.Title != title {
				continue
			}
			for _, hb := range g.Bindings {
				if slices.Equal(hb.Keys(), r.Key.Keys()) && hb.Help().Desc == r.Doc && r.Doc != "" {
					found = true
					for _, k := range r.Key.Keys() {
						if !strings.Contains(hb.Help().Key, Label([]string{k})) {
							t.Errorf("help line %q does not show key %q", hb.Help().Key, k)
						}
					}
				}
			}
		}
		if !found {
			t.Errorf("%v (%s) is missing from help section %q", r.Command, r.Key.Help().Key, title)
		}
	}
}

// Every row names its command, and the name finds it again. The config
// file and the help spell commands so. tui checks, against its handler
// table, that every command the UI handles has a row.
func TestEveryCommandNamed(t *testing.T) {
	km := Default()
	for _, r := range km.Rows {
		if r.Command == None || r.Command.String() != string(r.Command) {
			t.Errorf("row %q has no command name", r.Key.Help().Key)
		}
		if c, ok := km.CommandByName(string(r.Command)); !ok || c != r.Command {
			t.Errorf("CommandByName(%q) = %v, %v", r.Command, c, ok)
		}
	}
	if _, ok := km.CommandByName("none"); ok {
		t.Error(`CommandByName("none") found a command`)
	}
}

// The browser-only set is exactly the rows marked so. It is the set of
// commands that act on the page through the browser.
func TestBrowserSet(t *testing.T) {
	km := Default()
	marked := map[Command]bool{}
	for _, r := range km.Rows {
		if r.Browser {
			marked[r.Command] = true
		}
	}
	for _, r := range km.Rows {
		if r.Browser != marked[r.Command] {
			t.Errorf("rows of %v disagree on needing a browser", r.Command)
		}
	}
	want := []Command{Click, Type, Key, Hover, Select, ScrollDown, ScrollUp, Goto, Back, Forward,
		Reload, Refresh, Highlight, Targets, Reveal, ViewportNext, Follow,
		StepRun, StepAll, StepSkip, StepEdit}
	var got []Command
	var all []Command
	for _, r := range km.Rows {
		if !slices.Contains(all, r.Command) {
			all = append(all, r.Command)
		}
	}
	for _, c := range all {
		if km.NeedsBrowser(c) {
			got = append(got, c)
		}
		if km.NeedsBrowser(c) != marked[c] {
			t.Errorf("NeedsBrowser(%v) = %v, rows say %v", c, km.NeedsBrowser(c), marked[c])
		}
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("browser-only commands %v, want %v", got, want)
	}
}

// The footer of each mode shows these keys, in this order.
func TestHints(t *testing.T) {
	km := Default()
	want := map[Mode]string{
		Normal:   "c t K / r f x d T e ? q",
		Prompt:   "esc enter alt+enter ctrl+c",
		List:     "↑/k ↓/j enter/space esc/q",
		Dialog:   "y/enter n/esc",
		ReadOnly: "enter / i f x e ? q",
	}
	for mode, w := range want {
		var keys []string
		for _, b := range km.Hints(mode) {
			keys = append(keys, b.Help().Key)
		}
		if got := strings.Join(keys, " "); got != w {
			t.Errorf("mode %d hints %q, want %q", mode, got, w)
		}
	}
	if got, want := len(km.ShortHelp()), len(km.Hints(Normal)); got != want {
		t.Errorf("ShortHelp has %d bindings, Normal hints %d", got, want)
	}
}

// The help lists sections in order, each binding once. FullHelp has one
// column per section.
func TestGroups(t *testing.T) {
	km := Default()
	gs := km.Groups()
	var titles []string
	n := 0
	for _, g := range gs {
		titles = append(titles, g.Title)
		n += len(g.Bindings)
	}
	if want := []string{"Move", "Find and inspect", "Act on the page", "Quit, prompts, lists, dialogs"}; !slices.Equal(titles, want) {
		t.Errorf("sections %q, want %q", titles, want)
	}
	if n != len(km.Rows) {
		t.Errorf("help has %d lines for %d rows", n, len(km.Rows))
	}
	if len(km.FullHelp()) != len(gs) {
		t.Errorf("FullHelp has %d columns for %d sections", len(km.FullHelp()), len(gs))
	}
	if l := Label([]string{"up", "ctrl+p"}); l != "↑/ctrl+p" {
		t.Errorf("Label = %q", l)
	}
}
