package keymap

import (
	"strings"

	"charm.land/bubbles/v2/key"
)

// Group is a titled set of bindings for the help screen.
type Group struct {
	Title    string
	Bindings []key.Binding
}

// Groups returns every row as a help line, by section. A line shows every
// key of its row and the row's Doc. So alternates such as ctrl+p or
// alt+left are listed too.
func (km KeyMap) Groups() []Group {
	out := make([]Group, 0, numGroups)
	for g := range numGroups {
		grp := Group{Title: g.Title()}
		for _, r := range km.Rows {
			if r.Group != g {
				continue
			}
			keys := r.Key.Keys()
			grp.Bindings = append(grp.Bindings, key.NewBinding(key.WithKeys(keys...), key.WithHelp(Label(keys), r.Doc)))
		}
		if len(grp.Bindings) > 0 {
			out = append(out, grp)
		}
	}
	return out
}

// Label writes a binding's keys for the help screen: "↑/ctrl+p".
func Label(keys []string) string {
	names := make([]string, len(keys))
	for i, k := range keys {
		switch k {
		case "up":
			k = "↑"
		case "down":
			k = "↓"
		case "left":
			k = "←"
		case "right":
			k = "→"
		case "pgdown":
			k = "pgdn"
		}
		names[i] = k
	}
	return strings.Join(names, "/")
}

// Hints returns the footer hints for a mode, in table order.
func (km KeyMap) Hints(mode Mode) []key.Binding {
	var out []key.Binding
	for _, r := range km.Rows {
		if r.Hint.Has(mode) {
			out = append(out, r.Key)
		}
	}
	return out
}

// ShortHelp is the footer's hint line in Normal mode (bubbles help.KeyMap).
func (km KeyMap) ShortHelp() []key.Binding { return km.Hints(Normal) }

// FullHelp is every binding, one column per help section (bubbles help.KeyMap).
func (km KeyMap) FullHelp() [][]key.Binding {
	var out [][]key.Binding
	for _, g := range km.Groups() {
		out = append(out, g.Bindings)
	}
	return out
}
