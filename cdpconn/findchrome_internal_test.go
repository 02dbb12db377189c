package cdpconn

import (
	"errors"
	"strings"
	"testing"
)

// macOS keeps Chrome in an app bundle, not on $PATH. The candidates are
// tested with a made-up file system: this machine is not a Mac.
func TestFindChromeCandidates(t *testing.T) {
	noPath := func(string) (string, error) { return "", errors.New("not found") }
	noEnv := func(string) string { return "" }
	for _, c := range []struct {
		name, goos string
		files      []string
		want       string
	}{
		{"mac chrome", "darwin", []string{"/Applications/Google Chrome.app/Contents/MacOS/Google Chrome", "/Applications/Chromium.app/Contents/MacOS/Chromium"}, "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome"},
		{"mac chromium", "darwin", []string{"/Applications/Chromium.app/Contents/MacOS/Chromium"}, "/Applications/Chromium.app/Contents/MacOS/Chromium"},
		{"mac canary", "darwin", []string{"/Applications/Google Chrome Canary.app/Contents/MacOS/Google Chrome Canary"}, "/Applications/Google Chrome Canary.app/Contents/MacOS/Google Chrome Canary"},
		{"mac user apps", "darwin", []string{"/Users/me/Applications/Chromium.app/Contents/MacOS/Chromium"}, "/Users/me/Applications/Chromium.app/Contents/MacOS/Chromium"},
		{"linux ignores /Applications", "linux", []string{"/Applications/Google Chrome.app/Contents/MacOS/Google Chrome"}, ""},
		{"mac none", "darwin", nil, ""},
	} {
		files := map[string]bool{}
		for _, f := range c.files {
			files[f] = true
		}
		got, err := findChrome(c.goos, noEnv, noPath, func(p string) bool { return files[p] }, "/Users/me")
		if got != c.want || (c.want == "") != (err != nil) {
			t.Errorf("%s: %q, %v; want %q", c.name, got, err, c.want)
		}
		if c.want == "" && c.goos == "darwin" && (err == nil || !strings.Contains(err.Error(), "/Applications")) {
			t.Errorf("%s: the error does not say where Chrome goes: %v", c.name, err)
		}
	}
	// $PATH and $CHROME_PATH come first.
	onPath := func(n string) (string, error) {
		if n == "google-chrome" {
			return "/usr/bin/google-chrome", nil
		}
		return "", errors.New("no")
	}
	if got, _ := findChrome("darwin", noEnv, onPath, func(string) bool { return true }, ""); got != "/usr/bin/google-chrome" {
		t.Errorf("PATH first: %q", got)
	}
	env := func(k string) string {
		if k == "CHROME_PATH" {
			return "/opt/c"
		}
		return ""
	}
	if got, _ := findChrome("darwin", env, onPath, func(p string) bool { return p == "/opt/c" }, ""); got != "/opt/c" {
		t.Errorf("CHROME_PATH first: %q", got)
	}
}
