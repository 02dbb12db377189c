package tui

import (
	"context"
	"testing"
	"time"

	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// runCmd runs a command (and the commands of a batch). It returns the
// messages that came back within wait. The test actor has no event
// channel and tests never start the clock, so no command blocks for long.
// wait is generous, for slow machines.
func runCmd(cmd tea.Cmd, wait time.Duration) []tea.Msg {
	if cmd == nil {
		return nil
	}
	ch := make(chan tea.Msg, 1)
	go func() { ch <- cmd() }()
	var msg tea.Msg
	select {
	case msg = <-ch:
	case <-time.After(wait):
		return nil
	}
	switch msg := msg.(type) {
	case nil:
		return nil
	case tea.BatchMsg:
		var out []tea.Msg
		for _, c := range msg {
			out = append(out, runCmd(c, wait)...)
		}
		return out
	}
	return []tea.Msg{msg}
}

// settle feeds the replies of cmd back into the model until nothing more
// comes back. The Bubble Tea loop does the same.
func settle(t *testing.T, m *Model, cmd tea.Cmd) {
	t.Helper()
	for i := 0; i < 20 && cmd != nil; i++ {
		var next []tea.Cmd
		// a snapshot's reply carries its flat view and tokens, made in the
		// command: on a loaded machine a large page takes more than seconds
		for _, msg := range runCmd(cmd, 30*time.Second) {
			switch msg.(type) {
			case spinner.TickMsg, clockMsg, hlTickMsg:
				continue
			}
			_, c := m.Update(msg)
			next = append(next, c)
		}
		cmd = tea.Batch(next...)
	}
}

func press(t *testing.T, m *Model, keys ...tea.KeyPressMsg) {
	t.Helper()
	for _, k := range keys {
		_, cmd := m.Update(k)
		settle(t, m, cmd)
	}
}

func typeText(t *testing.T, m *Model, s string) {
	t.Helper()
	for _, r := range s {
		press(t, m, tea.KeyPressMsg{Code: r, Text: string(r)})
	}
}

func k(r rune) tea.KeyPressMsg { return tea.KeyPressMsg{Code: r, Text: string(r)} }

var (
	enterKey    = tea.KeyPressMsg{Code: tea.KeyEnter}
	altEnterKey = tea.KeyPressMsg{Code: tea.KeyEnter, Mod: tea.ModAlt}
	escKey      = tea.KeyPressMsg{Code: tea.KeyEscape}
	downKey     = tea.KeyPressMsg{Code: tea.KeyDown}
	upKey       = tea.KeyPressMsg{Code: tea.KeyUp}
	tabKey      = tea.KeyPressMsg{Code: tea.KeyTab}
	spaceKey    = tea.KeyPressMsg{Code: tea.KeySpace, Text: " "}
)

var fixedNow = time.Date(2026, 11, 22, 18, 0, 2, 0, time.UTC)

// started is a model at w×h that has taken its first snapshot from a.
func started(t *testing.T, a *testActor, w, h int) *Model {
	t.Helper()
	m := newModel(context.Background(), Config{Actor: a, NoColor: true, Theme: "dark", NoHighlight: true, Now: func() time.Time { return fixedNow }})
	m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	settle(t, m, m.refresh(false, "first snapshot"))
	if m.doc.snap == nil {
		t.Fatal("no snapshot after start")
	}
	return m
}

func plainScreen(m *Model) string { return ansi.Strip(m.render()) }
