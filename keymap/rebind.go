package keymap

import (
	"fmt"
	"slices"
	"sort"
	"strings"
)

// RebindError is a key override that cannot be applied. Command is the
// name it was given under, so the config file's line can be found.
type RebindError struct {
	Command string
	Msg     string
}

func (e *RebindError) Error() string { return e.Msg }

// CommandByName is the command named name ("click", "page-down"), as the
// help and the config file spell it. Some row must bind it.
func (km KeyMap) CommandByName(name string) (Command, bool) {
	for _, r := range km.Rows {
		if string(r.Command) == name && r.Command != None {
			return r.Command, true
		}
	}
	return None, false
}

// Rebind gives commands new keys (command name → keys) on the panes, where
// a user presses them. The footer and the help follow, since they are made
// from the same rows. A key then bound twice in a mode is an error. So
// swapping two keys means rebinding both.
func (km *KeyMap) Rebind(keys map[string][]string) error {
	names := make([]string, 0, len(keys))
	for n := range keys {
		names = append(names, n)
	}
	sort.Strings(names)
	rows := slices.Clone(km.Rows)
	for _, name := range names {
		ks := keys[name]
		c, ok := km.CommandByName(name)
		if !ok {
			return &RebindError{name, fmt.Sprintf("keys: no command %q (the help, ?, lists them: %s)", name, strings.Join(paneCommands(rows), ", "))}
		}
		if len(ks) == 0 || slices.Contains(ks, "") {
			return &RebindError{name, fmt.Sprintf("keys.%s: give at least one key", name)}
		}
		found := false
		for i, r := range rows {
			if r.Command != c || r.Modes&panes == 0 {
				continue
			}
			found = true
			b := r.Key
			b.SetKeys(ks...)
			b.SetHelp(strings.Join(ks, "/"), r.Key.Help().Desc)
			rows[i].Key = b
		}
		if !found {
			return &RebindError{name, fmt.Sprintf("keys.%s: that command has no key on the panes to rebind", name)}
		}
	}
	for _, mode := range []Mode{Normal, ReadOnly} {
		seen := map[string]Command{}
		for _, r := range rows {
			if !r.Modes.Has(mode) {
				continue
			}
			for _, k := range r.Key.Keys() {
				if prev, ok := seen[k]; ok && prev != r.Command {
					name := r.Command.String()
					if _, mine := keys[name]; !mine {
						name = prev.String()
					}
					return &RebindError{name, fmt.Sprintf("keys: %q is bound to both %s and %s (rebind the other one too)", k, prev, r.Command)}
				}
				seen[k] = r.Command
			}
		}
	}
	km.Rows = rows
	return nil
}

// paneCommands names the commands that have keys on the panes.
func paneCommands(rows []Row) []string {
	var out []string
	for _, r := range rows {
		if r.Modes&panes != 0 && !slices.Contains(out, r.Command.String()) {
			out = append(out, r.Command.String())
		}
	}
	return out
}
