package tui

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
)

// After w, the full path and the replay command show whole at 80×24,
// wrapped between words, never inside a flag; enter copies the command.
// The script file carries the same command, not the demo's old port.
func TestWriteShowsReplayCommand(t *testing.T) {
	out := filepath.Join(t.TempDir(), "not", "made", "yet")
	replay := func(start, file string) string {
		return "domscope run --launch --demo --url / " + file
	}
	m := newModel(context.Background(), Config{Actor: newTestActor(formPage("Sign up"), formPage("Sign up")), NoColor: true, Theme: "dark",
		NoHighlight: true, OutputDir: out, Replay: replay, Now: func() time.Time { return fixedNow }})
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	settle(t, m, m.refresh(false, "first snapshot"))
	m.panes.tree.Select("node_10")
	press(t, m, k('c'), k('w'))
	files, _ := filepath.Glob(filepath.Join(out, "*.script"))
	if len(files) != 1 {
		t.Fatalf("scripts in %s: %v (flash %q)", out, files, m.status.flash)
	}
	if _, ok := topAs[*writtenLayer](m); !ok {
		t.Fatalf("w shows no box with the path and command; flash %q", m.status.flash)
	}
	s := plainScreen(m)
	joined := strings.Join(boxText(s), "")
	for _, want := range []string{files[0], "domscope run --launch --demo --url / " + files[0]} {
		if !strings.Contains(strings.ReplaceAll(joined, " ", ""), strings.ReplaceAll(want, " ", "")) {
			t.Errorf("the box lacks %q:\n%s", want, s)
		}
	}
	for _, f := range []string{"--launch", "--demo", "--url"} {
		if !strings.Contains(s, " "+f+" ") {
			t.Errorf("%s is not whole on one line:\n%s", f, s)
		}
	}
	b, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), "\n# replay with: domscope run --launch --demo --url / "+files[0]+"\n") {
		t.Errorf("the script lacks the replay line:\n%s", b)
	}
	_, cmd := m.Update(enterKey)
	if cmd == nil || !strings.Contains(m.status.flash, "the replay command") {
		t.Errorf("enter did not copy the command: flash %q", m.status.flash)
	}
	if _, ok := topAs[*writtenLayer](m); ok {
		t.Error("the box is still open after enter")
	}
}

// boxText is the text inside the box drawn over the panes at 80 columns
// (its borders are at columns 2 and 77).
func boxText(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		rs := []rune(l)
		if len(rs) == 80 && rs[2] == '│' && rs[77] == '│' {
			out = append(out, strings.TrimSpace(string(rs[3:77])))
		}
	}
	return out
}

// An incremental search logs the search it ends with, not a message per
// key typed.
func TestSearchLogsOnlyTheFinalSearch(t *testing.T) {
	m := started(t, newTestActor(formPage("Sign up")), 120, 40)
	before := len(m.status.log)
	press(t, m, k('/'))
	typeText(t, m, "email")
	press(t, m, enterKey)
	var got []string
	for _, e := range m.status.log[before:] {
		got = append(got, e.msg)
	}
	if len(got) != 1 || !strings.Contains(got[0], "“email”") {
		t.Errorf("the log after a search holds %q, want one message for “email”", got)
	}
}
