package main

import (
	"strings"
	"testing"

	"domscope/cdpconn/cdptest"
)

// TestDefaultTargetGivesWayToURL: a target from the config file or
// $DOMSCOPE_TARGET is a default. --url and --demo open their page anyway.
// Only --target on the command line conflicts with them.
func TestDefaultTargetGivesWayToURL(t *testing.T) {
	ws := cdptest.Browser(t).WebSocketURL()
	base, _ := cdptest.Serve(t, pages)
	file := writeConfig(t, "target = \"no-such-tab\"\n")
	page := base + "/responsive.html"
	for _, c := range []struct {
		name string
		env  string
		args []string
	}{
		{"config file, --url", "", []string{"--config", file, "--url", page}},
		{"environment, --url", "DOMSCOPE_TARGET=no-such-tab", []string{"--url", page}},
		{"environment, --demo", "DOMSCOPE_TARGET=no-such-tab", []string{"--demo", "--url", "signin.html"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if name, value, ok := strings.Cut(c.env, "="); ok {
				t.Setenv(name, value) // the child process inherits it
			}
			args := append([]string{"snapshot", "--endpoint", ws}, c.args...)
			stdout, stderr, code := runCLI(t, "", args...)
			if code != 0 || !strings.Contains(stdout, "link") {
				t.Fatalf("exit %d, stderr %q, stdout %.200q", code, stderr, stdout)
			}
		})
	}
	_, stderr, code := runCLI(t, "", "snapshot", "--endpoint", ws, "--url", page, "--target", "0")
	if code != 2 || !strings.Contains(stderr, "not both") {
		t.Errorf("--url with --target on the command line: exit %d, %q; want exit 2", code, stderr)
	}
}
