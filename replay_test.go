package main

import (
	"testing"

	"domscope/tui/cli"
)

// The replay command names the browser and first window the session
// used. It quotes what a shell would split or expand.
func TestReplayCommand(t *testing.T) {
	for _, c := range []struct {
		conn        connFlags
		demo, start string
		want        string
	}{
		{connFlags{endpoint: "http://127.0.0.1:9222"}, "", "http://a.test/x?q=1&r=2", "domscope run --endpoint http://127.0.0.1:9222 --url 'http://a.test/x?q=1&r=2' f.script"},
		{connFlags{launch: true, headless: true, viewport: "500x700", scale: 2}, "", "http://a.test/", "domscope run --launch --headless --url http://a.test/ --viewport 500x700 --scale 2 f.script"},
		{connFlags{endpoint: "ws://farm.test:3000/?token=SECRET", allowRemote: true}, "", "http://a.test/", "domscope run --endpoint 'ws://farm.test:3000/?token=…' --allow-remote --url http://a.test/ f.script"},
		{connFlags{endpoint: "ws://10.0.0.2:9222/devtools/browser/x", allowRemote: true, device: "iPhone 13"}, "", "http://a.test/", "domscope run --endpoint ws://10.0.0.2:9222/devtools/browser/x --allow-remote --url http://a.test/ --device 'iPhone 13' f.script"},
		{connFlags{launch: true, demo: true}, "http://127.0.0.1:4000", "http://127.0.0.1:4000/signin.html", "domscope run --launch --demo --url signin.html f.script"},
		{connFlags{launch: true, demo: true}, "http://127.0.0.1:4000", "http://127.0.0.1:4000/", "domscope run --launch --demo --url / f.script"},
		{connFlags{launch: true, demo: true}, "http://127.0.0.1:4000", "https://elsewhere.test/", "domscope run --launch --url https://elsewhere.test/ f.script"},
		{connFlags{launch: true}, "", "http://a.test/it's", `domscope run --launch --url 'http://a.test/it'\''s' f.script`},
	} {
		if got := c.conn.replayCommand(c.demo, c.start, "f.script"); got != c.want {
			t.Errorf("got  %s\nwant %s", got, c.want)
		}
	}
}

// e and w write under $XDG_STATE_HOME/domscope, else ~/.local/state, not
// into the directory the UI was started in. The flag and the config win.
func TestDefaultOutputDir(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", "/x/state")
	if got := (uiFlags{}).outputDirOr(&cli.Settings{}); got != "/x/state/domscope" {
		t.Errorf("with XDG_STATE_HOME: %q", got)
	}
	t.Setenv("XDG_STATE_HOME", "relative") // not absolute: ignored
	t.Setenv("HOME", "/home/u")
	if got := (uiFlags{}).outputDirOr(&cli.Settings{}); got != "/home/u/.local/state/domscope" {
		t.Errorf("with HOME: %q", got)
	}
	if got := (uiFlags{}).outputDirOr(&cli.Settings{OutputDir: "/cfg"}); got != "/cfg" {
		t.Errorf("with output_dir: %q", got)
	}
	if got := (uiFlags{outputDir: "/flag"}).outputDirOr(&cli.Settings{OutputDir: "/cfg"}); got != "/flag" {
		t.Errorf("with --output-dir: %q", got)
	}
}
