package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"domscope/tui/cli"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// writeConfig writes a config file in a temporary directory.
func writeConfig(t *testing.T, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "config.toml")
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// uiFlagsFrom parses args as the bare UI's command line would. It uses
// the settings the file and env give.
func uiFlagsFrom(t *testing.T, args []string, env map[string]string) *pflag.FlagSet {
	t.Helper()
	st, err := cli.Load(args, func(k string) string { return env[k] })
	if err != nil {
		t.Fatalf("loadSettings: %v", err)
	}
	root := newRoot(os.Getenv)
	forEachCommand(root, func(c *cobra.Command) { st.Apply(c.Flags()) })
	if err := root.ParseFlags(args); err != nil {
		t.Fatalf("parsing flags: %v", err)
	}
	return root.Flags()
}

func TestSettingsPrecedence(t *testing.T) {
	file := writeConfig(t, `
theme = "light"
endpoint = "http://127.0.0.1:1111"
target = "file-tab"
timeout = "11s"
`)
	env := map[string]string{
		"DOMSCOPE_ENDPOINT": "http://127.0.0.1:2222",
		"DOMSCOPE_TARGET":   "env-tab",
		"DOMSCOPE_TIMEOUT":  "22s",
		"DOMSCOPE_THEME":    "dark",
	}
	none := map[string]string{}
	cases := []struct {
		name     string
		args     []string
		env      map[string]string
		endpoint string
		target   string
		timeout  time.Duration
		theme    string
	}{
		{"defaults", nil, none, "http://127.0.0.1:9222", "", 90 * time.Second, "auto"},
		{"file", []string{"--config", file}, none, "http://127.0.0.1:1111", "file-tab", 11 * time.Second, "light"},
		{"env over file", []string{"--config", file}, env, "http://127.0.0.1:2222", "env-tab", 22 * time.Second, "dark"},
		{"env alone", nil, env, "http://127.0.0.1:2222", "env-tab", 22 * time.Second, "dark"},
		{"flag over env and file", []string{"--config=" + file, "--endpoint", "http://127.0.0.1:3333", "--target", "flag-tab", "--timeout", "33s", "--theme", "auto"}, env,
			"http://127.0.0.1:3333", "flag-tab", 33 * time.Second, "auto"},
		{"flag over file", []string{"--config", file, "--theme", "dark"}, none, "http://127.0.0.1:1111", "file-tab", 11 * time.Second, "dark"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			fs := uiFlagsFrom(t, c.args, c.env)
			endpoint, _ := fs.GetString("endpoint")
			target, _ := fs.GetString("target")
			timeout, _ := fs.GetDuration("timeout")
			theme, _ := fs.GetString("theme")
			if endpoint != c.endpoint || target != c.target || timeout != c.timeout || theme != c.theme {
				t.Errorf("got endpoint %q target %q timeout %s theme %q; want %q %q %s %q",
					endpoint, target, timeout, theme, c.endpoint, c.target, c.timeout, c.theme)
			}
		})
	}
}

// An endpoint from the file or env is a default, not a flag given. demo
// still launches its own Chromium unless --endpoint is on the command line.
func TestSettingsAreNotGivenFlags(t *testing.T) {
	fs := uiFlagsFrom(t, nil, map[string]string{"DOMSCOPE_ENDPOINT": "http://127.0.0.1:2222"})
	if flagGiven(fs, "endpoint") {
		t.Error("an endpoint from $DOMSCOPE_ENDPOINT counts as --endpoint given")
	}
	if got := fs.Lookup("endpoint").DefValue; got != "http://127.0.0.1:2222" {
		t.Errorf("--help would show the default %q, not the one in effect", got)
	}
}

func TestSettingsFileFields(t *testing.T) {
	file := writeConfig(t, `
format = "json"
output_dir = "/tmp/caps"

[rules]
tier_off = ["class-words", "heuristic:onclick"]
flatten_off = ["collapse-single"]

[keys]
click = "C"
help = ["?", "F1"]
`)
	st, err := cli.Load([]string{"--config", file}, func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	if st.Format != "json" || st.OutputDir != "/tmp/caps" {
		t.Errorf("format %q output_dir %q", st.Format, st.OutputDir)
	}
	if !st.TierOff["heuristic:class-words"] || !st.TierOff["heuristic:onclick"] || len(st.TierOff) != 2 {
		t.Errorf("tier rules off: %v", st.TierOff)
	}
	if !st.FlattenOff["collapse-single"] || len(st.FlattenOff) != 1 {
		t.Errorf("flatten rules off: %v", st.FlattenOff)
	}
	km, err := st.KeyMap()
	if err != nil {
		t.Fatal(err)
	}
	var help string
	for _, r := range km.Rows {
		if r.Command.String() == "click" {
			help = r.Key.Help().Key
		}
	}
	if help != "C" {
		t.Errorf("click's help key is %q after the override, want C", help)
	}
}

// A bad file is one line naming the file and the line. The exit code is 2.
func TestBadConfigNamesTheLine(t *testing.T) {
	cases := []struct {
		name, text, want string
	}{
		{"syntax", "theme = \"dark\"\n\nendpoint = http://x\n", ":3:"},
		{"type", "# colours\ntheme = 3\n", ":2:"},
		{"bad format", "format = \"yaml\"\n", `:1: format "yaml"`},
		{"unknown tier rule", "[rules]\ntier_off = [\n  \"onclick\",\n  \"on-click\",\n]\n", `:4: unknown tier rule "on-click"`},
		{"unknown flatten rule", "[rules]\nflatten_off = [\"drop-everything\"]\n", `:2: unknown flatten rule "drop-everything"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			file := writeConfig(t, c.text)
			_, stderr, code := runCLI(t, "", "snapshot", "--config", file)
			if code != 2 || !strings.Contains(stderr, file+c.want) || strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
				t.Errorf("exit %d, stderr %q; want exit 2 and one line with %q", code, stderr, file+c.want)
			}
		})
	}
}

// TestBadUISettingWarns: a setting only the UI uses that is bad (a
// misspelt name, [keys], the theme) is a warning to mcp, run and
// snapshot, which go on. The UI refuses it, naming the line.
func TestBadUISettingWarns(t *testing.T) {
	cases := []struct {
		name, text, want string
	}{
		{"unknown setting", "theme = \"dark\"\nthem = \"light\"\n", `:2: unknown setting "them"`},
		{"bad theme", "\n\ntheme = \"purple\"\n", `:3: theme "purple"`},
		{"unknown command key", "[keys]\n\nclik = \"c\"\n", `:3: keys: no command "clik"`},
		{"key bound twice", "[keys]\nclick = \"x\"\n", `:2: keys: "x" is bound to both`},
		{"key not a string", "[keys]\nclick = 3\n", `:2: keys.click: give a key`},
	}
	script := filepath.Join(t.TempDir(), "empty.jsonl")
	if err := os.WriteFile(script, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			file := writeConfig(t, c.text)
			_, stderr, code := runCLI(t, "", "mcp", "--config", file, "--endpoint", "http://127.0.0.1:1")
			if code != 0 || !strings.Contains(stderr, "warning: config "+file+c.want) {
				t.Errorf("mcp: exit %d, stderr %q; want exit 0 and a warning with %q", code, stderr, file+c.want)
			}
			for _, args := range [][]string{{"snapshot"}, {"run", script}} {
				_, stderr, _ = runCLI(t, "", append(args, "--config", file, "--endpoint", "http://127.0.0.1:1")...)
				if !strings.Contains(stderr, "warning: config "+file+c.want) || !strings.Contains(stderr, "no browser at") {
					t.Errorf("%v: stderr %q; want a warning, then the missing browser (it went on)", args, stderr)
				}
			}
			_, stderr, code = runCLI(t, "", "--config", file, "--endpoint", "http://127.0.0.1:1")
			if code != 2 || !strings.Contains(stderr, file+c.want) {
				t.Errorf("the UI: exit %d, stderr %q; want exit 2 naming %q", code, stderr, file+c.want)
			}
		})
	}
}

func TestMissingConfig(t *testing.T) {
	// the default file may be absent; one named with --config may not
	dir := t.TempDir()
	if _, err := cli.Load(nil, func(k string) string { return map[string]string{"XDG_CONFIG_HOME": dir}[k] }); err != nil {
		t.Errorf("no config file at the default place: %v", err)
	}
	_, stderr, code := runCLI(t, "", "snapshot", "--config", filepath.Join(dir, "nope.toml"))
	if code != 2 || !strings.Contains(stderr, "nope.toml") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
	// the default location is read
	if err := os.MkdirAll(filepath.Join(dir, "domscope"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "domscope", "config.toml"), []byte("endpoint = \"http://127.0.0.1:4444\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	fs := uiFlagsFrom(t, nil, map[string]string{"XDG_CONFIG_HOME": dir})
	if endpoint, _ := fs.GetString("endpoint"); endpoint != "http://127.0.0.1:4444" {
		t.Errorf("endpoint %q: $XDG_CONFIG_HOME/domscope/config.toml not read", endpoint)
	}
}

func TestBadEnv(t *testing.T) {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), `DOMSCOPE_CLI_ARGS=["snapshot"]`, "DOMSCOPE_THEME=purple")
	out, err := cmd.CombinedOutput()
	ee, ok := err.(*exec.ExitError)
	if !ok || ee.ExitCode() != 2 || !strings.Contains(string(out), "$DOMSCOPE_THEME") {
		t.Errorf("err %v, output %q; want exit 2 naming $DOMSCOPE_THEME", err, out)
	}
}

func TestCompletion(t *testing.T) {
	for _, sh := range []string{"bash", "zsh", "fish"} {
		t.Run(sh, func(t *testing.T) {
			out, stderr, code := runCLI(t, "", "completion", sh)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			if !strings.Contains(out, "domscope") || !strings.Contains(out, "__complete") {
				t.Errorf("%s script does not ask domscope for its words:\n%.300s", sh, out)
			}
			path := filepath.Join(t.TempDir(), "domscope."+sh)
			if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
				t.Fatal(err)
			}
			// each shell checks its own syntax when it is installed
			check := map[string][]string{"bash": {"bash", "-n", path}, "zsh": {"zsh", "-n", path}, "fish": {"fish", "--no-execute", path}}[sh]
			if _, err := exec.LookPath(check[0]); err == nil {
				if b, err := exec.Command(check[0], check[1:]...).CombinedOutput(); err != nil {
					t.Errorf("%s: %v\n%s", strings.Join(check, " "), err, b)
				}
			}
		})
	}
	if _, stderr, code := runCLI(t, "", "completion", "tcsh"); code != 2 || !strings.Contains(stderr, "tcsh") {
		t.Errorf("completion tcsh: exit %d, %q", code, stderr)
	}
}

// The bash script completes what a user types: subcommands, a command's
// own flags, and values. It asks the program itself; a wrapper named
// domscope runs this test binary as the program.
func TestBashCompletionCompletes(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	dir := t.TempDir()
	wrapper := "#!/bin/sh\nDOMSCOPE_CLI_RAW=1 exec " + strconv.Quote(os.Args[0]) + " \"$@\"\n"
	if err := os.WriteFile(filepath.Join(dir, "domscope"), []byte(wrapper), 0o755); err != nil {
		t.Fatal(err)
	}
	script, _, _ := runCLI(t, "", "completion", "bash")
	complete := func(line string) string {
		words := strings.Fields(line)
		if strings.HasSuffix(line, " ") {
			words = append(words, "")
		}
		var arr strings.Builder
		for _, w := range words {
			arr.WriteString(" '" + w + "'")
		}
		prog := wordsByRef + script + "\nCOMP_WORDS=(" + arr.String() + ")\nCOMP_CWORD=" + itoa(len(words)-1) +
			"\nCOMP_LINE=" + strconv.Quote(line) + "\nCOMP_POINT=" + itoa(len(line)) +
			"\n__start_domscope\necho \"${COMPREPLY[*]}\"\n"
		cmd := exec.Command("bash", "-c", prog)
		cmd.Env = append(os.Environ(), "PATH="+dir+":"+os.Getenv("PATH"))
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%q: %v %s", line, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	cases := []struct{ line, want string }{
		{"domscope sn", "snapshot"},
		{"domscope snapshot --back", "--backend-ids"},
		{"domscope snapshot --endpoint http://x:1 --for", "--format"},
		{"domscope run --keep", "--keep-going"},
		{"domscope open --keep", ""},
		{"domscope --theme l", "light"},
		{"domscope snapshot --device iPad", "iPad Mini iPad Pro 11"},
		{"domscope completion f", "fish"},
	}
	for _, c := range cases {
		if got := complete(c.line); got != c.want {
			t.Errorf("%q completes to %q, want %q", c.line, got, c.want)
		}
	}
}

// wordsByRef stands in for bash-completion's _get_comp_words_by_ref. The
// script uses it, and a shell without that package lacks it.
const wordsByRef = `_get_comp_words_by_ref() {
    cur="${COMP_WORDS[COMP_CWORD]}"; prev="${COMP_WORDS[COMP_CWORD-1]}"
    words=("${COMP_WORDS[@]}"); cword=$COMP_CWORD
}
compopt() { :; }
`

func itoa(n int) string { return strconv.Itoa(n) }
