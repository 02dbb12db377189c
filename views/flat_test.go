package views

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"domscope/themes"
)

// The selected line keeps its end, where a typed value shows, beside the
// "◄ selected" note. Lines not selected are cut at the right as before.
func TestSelectedFlatLineKeepsItsEnd(t *testing.T) {
	st := themes.For(true, false)
	line := ` [72] textbox "Email" type=email placeholder="you@example.com" required value="a@b.co"`
	for _, w := range []int{40, 60, 78} {
		for _, sel := range []Sel{Focused, Blurred} {
			got := ansi.Strip(FlatLineAt(st, line, nil, w, 0, sel, "◄ selected"))
			if Width(got) != w {
				t.Errorf("w=%d: width %d: %q", w, Width(got), got)
			}
			if !strings.Contains(got, `value="a@b.co" ◄ selected`) || !strings.HasPrefix(got, ` [72] textbox`) {
				t.Errorf("w=%d sel=%d: %q, want the id, the value and the note", w, sel, got)
			}
		}
		got := ansi.Strip(FlatLineAt(st, line, nil, w, 0, NotSelected, ""))
		if Width(got) != w || !strings.HasPrefix(got, ` [72] textbox "Email"`) {
			t.Errorf("w=%d not selected: %q", w, got)
		}
	}
	// short lines are untouched
	if got := KeepEnd("[3] form", 40); got != "[3] form" {
		t.Errorf("KeepEnd of a short line = %q", got)
	}
}
