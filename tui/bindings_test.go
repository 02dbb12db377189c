package tui

import (
	"testing"

	"domscope/keymap"
)

// The key table and the handler table name the same commands of the
// panes. A key with no handler, or a handler with no key, fails here.
func TestEveryPaneKeyHasAHandler(t *testing.T) {
	km := keymap.Default()
	onPanes := map[keymap.Command]bool{}
	for _, r := range km.Rows {
		if r.Modes.Has(keymap.Normal) || r.Modes.Has(keymap.ReadOnly) {
			onPanes[r.Command] = true
		}
	}
	delete(onPanes, keymap.Quit) // quits in every mode, before any handler
	for c := range onPanes {
		if paneKeys[c] == nil {
			t.Errorf("%v has keys on the panes but no handler in paneKeys", c)
		}
	}
	for c := range paneKeys {
		if !onPanes[c] {
			t.Errorf("paneKeys handles %v, which no key of the panes gives", c)
		}
	}
}
