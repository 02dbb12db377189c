package keymap

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

func TestRebind(t *testing.T) {
	km := Default()
	if err := km.Rebind(map[string][]string{"click": {"C"}, "help": {"?", "f1"}}); err != nil {
		t.Fatal(err)
	}
	press := func(code rune, text string) tea.KeyPressMsg { return tea.KeyPressMsg{Code: code, Text: text} }
	if got := km.Command(press('C', "C"), Normal); got != Click {
		t.Errorf("C → %v, want click", got)
	}
	if got := km.Command(press('c', "c"), Normal); got != None {
		t.Errorf("c → %v after rebinding click to C, want none", got)
	}
	if got := km.Command(tea.KeyPressMsg{Code: tea.KeyF1}, Normal); got != Help {
		t.Errorf("f1 → %v, want help", got)
	}
	// the default table is untouched
	if got := Default().Command(press('c', "c"), Normal); got != Click {
		t.Errorf("Default changed: c → %v", got)
	}
	// a swap works when both are rebound
	sw := Default()
	if err := sw.Rebind(map[string][]string{"click": {"x"}, "rules": {"c"}}); err != nil {
		t.Errorf("swap: %v", err)
	}
	for _, c := range []struct {
		keys map[string][]string
		want string
	}{
		{map[string][]string{"click": {"x"}}, `"x" is bound to both`},
		{map[string][]string{"clik": {"c"}}, `no command "clik"`},
		{map[string][]string{"click": {}}, "at least one key"},
	} {
		km := Default()
		err := km.Rebind(c.keys)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Rebind(%v) = %v, want an error with %q", c.keys, err, c.want)
		}
		if km.Command(press('c', "c"), Normal) != Click {
			t.Errorf("a failed Rebind(%v) changed the table", c.keys)
		}
	}
}
