package main

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// help of a command that does not exist is a usage error with the
// nearest names; a misspelt flag gets its nearest flag.
func TestHelpUnknownCommandAndFlag(t *testing.T) {
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"help", "nosuch"}, []string{`unknown command "nosuch"`}},
		{[]string{"help", "snapshto"}, []string{`unknown command "snapshto"`, "did you mean snapshot?"}},
		{[]string{"snapshto"}, []string{"did you mean snapshot?"}},
		{[]string{"snapshot", "--formt", "json"}, []string{"unknown flag: --formt", "did you mean --format?"}},
		{[]string{"run", "--keep-goin", "x"}, []string{"did you mean --keep-going?"}},
	} {
		out, stderr, code := runCLI(t, "", c.args...)
		if code != 2 || out != "" {
			t.Errorf("domscope %v: exit %d, stdout %.80q; want exit 2 and no help", c.args, code, out)
		}
		for _, w := range c.want {
			if !strings.Contains(stderr, w) {
				t.Errorf("domscope %v: stderr %q lacks %q", c.args, stderr, w)
			}
		}
	}
}

// Piped help is plain: no line wider than 80 columns, no padding. run's
// help gives the step format, points to docs/scripts.md and marks the
// flags only its UI reads.
func TestHelpPiped(t *testing.T) {
	for _, args := range [][]string{{"help", "run"}, {"run", "--help"}, {"--help"}, {"snapshot", "-h"}, {"help"}} {
		out, stderr, code := runCLI(t, "", args...)
		if code != 0 || !strings.Contains(out, "USAGE") {
			t.Fatalf("domscope %v: exit %d\n%s\n%s", args, code, out, stderr)
		}
		for i, l := range strings.Split(out, "\n") {
			if n := utf8.RuneCountInString(l); n > 80 || strings.TrimRight(l, " ") != l {
				t.Errorf("domscope %v line %d: %d columns or padded: %q", args, i+1, n, l)
			}
		}
	}
	out, _, _ := runCLI(t, "", "help", "run")
	for _, w := range []string{"docs/scripts.md", `{"action":"click","target":{"role":"button"`, "--theme              With --ui:", "--record             With --ui:"} {
		if !strings.Contains(out, w) {
			t.Errorf("help run lacks %q:\n%s", w, out)
		}
	}
	if strings.Contains(out, "--keep-going         With --ui") {
		t.Errorf("help run marks a replay flag as UI-only:\n%s", out)
	}
}

// The UI without a terminal says what to use instead, before it
// connects to anything.
func TestUINeedsTerminal(t *testing.T) {
	for _, args := range [][]string{{"--endpoint", "http://127.0.0.1:1"}, {"demo", "--endpoint", "http://127.0.0.1:1"}} {
		_, stderr, code := runCLI(t, "", args...)
		if code != 2 || !strings.Contains(stderr, "the UI needs a terminal") || !strings.Contains(stderr, "domscope snapshot") || strings.Contains(stderr, "TTY") || strings.Contains(stderr, "no browser") {
			t.Errorf("domscope %v without a terminal: exit %d, stderr %q", args, code, stderr)
		}
	}
}
