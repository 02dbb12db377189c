package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"domscope/cdpconn/cdptest"
)

// readmeConfig is the example config file of the README, as a user copies it.
const readmeConfig = `theme = "dark"                      # auto | dark | light
endpoint = "http://127.0.0.1:9333"  # the default --endpoint
target = "localhost:3000"           # the default --target
timeout = "30s"                     # the default --timeout
format = "json"                     # the flat pane's first format (text | json); also snapshot's --format
output_dir = "~/domscope-captures"  # where ` + "`e`" + ` offers to save a capture (made when missing)

[rules]                             # rules switched off at start (x switches them back)
tier_off = ["class-words"]          # names as dom.TierRules lists them; "heuristic:" may be left out
flatten_off = ["collapse-single"]   # names as dom.FlattenRules lists them

[keys]                              # new keys for a command on the panes (names as the help says them)
click = "C"
help = ["?", "f1"]
`

// A target in the config file (the README's example) and in
// $DOMSCOPE_TARGET is a default. So it never conflicts with --url, --demo
// or domscope demo: the UI opens their page and shows it. (snapshot's
// side, and --target given with --url: TestDefaultTargetGivesWayToURL.)
func TestConfiguredTargetYieldsToURL(t *testing.T) {
	ws := cdptest.Browser(t).WebSocketURL()
	base, _ := cdptest.Serve(t, pages)
	cfg := writeConfig(t, readmeConfig)
	t.Setenv("DOMSCOPE_TARGET", "some-other-tab")
	t.Run("the UI with --url", func(t *testing.T) {
		url := base + "/semantic.html?ui=" + fmt.Sprint(time.Now().UnixNano())
		screen := uiReaches(t, []string{"--config", cfg, "--endpoint", ws, "--url", url}, "snapshot #1")
		if !strings.Contains(screen, url) {
			t.Errorf("the UI is not on %s:\n%s", url, screen)
		}
	})
	t.Run("demo", func(t *testing.T) {
		screen := uiReaches(t, []string{"demo", "--config", cfg, "--endpoint", ws}, "snapshot #1")
		if !strings.Contains(screen, "“domscope demo”") {
			t.Errorf("the UI is not on the demo's first page:\n%s", screen)
		}
	})
	t.Run("--demo", func(t *testing.T) {
		screen := uiReaches(t, []string{"--config", cfg, "--endpoint", ws, "--demo", "--url", "signin.html"}, "snapshot #1")
		if !strings.Contains(screen, "“Sign in · Acme”") {
			t.Errorf("the UI is not on the demo's sign-in page:\n%s", screen)
		}
	})
}

// uiReaches runs domscope with args in a 120×40 terminal (tmux), with
// this process's environment. It waits until the screen shows want, quits
// it and returns the screen.
func uiReaches(t *testing.T, args []string, want string) string {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("CI is set and tmux is missing")
		}
		t.Skip("skipping: tmux is not installed")
	}
	a, _ := json.Marshal(args)
	socket := fmt.Sprintf("domscope-cfg-%d-%d", os.Getpid(), time.Now().UnixNano()%1e6)
	tmux := func(args ...string) (string, error) {
		out, err := exec.Command("tmux", append([]string{"-L", socket}, args...)...).CombinedOutput()
		return string(out), err
	}
	cmd := "env DOMSCOPE_CLI_ARGS='" + strings.ReplaceAll(string(a), "'", `'\''`) + "' TERM=xterm-256color " + os.Args[0] + " -test.run=^$; echo EXIT $?; sleep 30"
	if out, err := tmux("-f", "/dev/null", "new-session", "-d", "-s", "t", "-x", "120", "-y", "40", cmd); err != nil {
		t.Fatalf("tmux: %v: %s", err, out)
	}
	t.Cleanup(func() { _, _ = tmux("kill-server") })
	var screen string
	for deadline := time.Now().Add(40 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		screen, _ = tmux("capture-pane", "-p", "-t", "t")
		if strings.Contains(screen, want) {
			break
		}
		if strings.Contains(screen, "EXIT ") || time.Now().After(deadline) {
			t.Fatalf("domscope %v did not reach the page:\n%s", args, screen)
		}
	}
	if _, err := tmux("send-keys", "-t", "t", "q"); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(15 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		s, _ := tmux("capture-pane", "-p", "-t", "t")
		if strings.Contains(s, "EXIT 0") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("domscope %v did not quit with exit 0:\n%s", args, s)
		}
	}
	return screen
}
