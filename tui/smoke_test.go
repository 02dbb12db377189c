package tui

import (
	"context"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

func TestSmokeRender(t *testing.T) {
	m := newModel(context.Background(), Config{Actor: newTestActor(), NoColor: true})
	m.setSnapshot(formPage("Sign up"), false)
	for _, sz := range [][2]int{{80, 24}, {120, 40}, {200, 60}, {30, 10}} {
		m.Update(tea.WindowSizeMsg{Width: sz[0], Height: sz[1]})
		out := ansi.Strip(m.render())
		t.Logf("%dx%d\n%s", sz[0], sz[1], out)
	}
}
