package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/BurntSushi/toml"
	"github.com/spf13/pflag"

	"domscope/dom"
	"domscope/dom/build"
	"domscope/dom/flatten"
	"domscope/keymap"
)

// fileSettings is the config file (config.toml):
//
//	theme = "dark"
//	endpoint = "http://127.0.0.1:9222"
//	format = "json"
//	output_dir = "~/captures"
//	[rules]
//	tier_off = ["heuristic:class-words"]
//	flatten_off = ["collapse-single"]
//	[keys]
//	click = "c"
type fileSettings struct {
	Theme     string `toml:"theme"`
	Endpoint  string `toml:"endpoint"`
	Target    string `toml:"target"`
	Timeout   string `toml:"timeout"`
	Format    string `toml:"format"`
	OutputDir string `toml:"output_dir"`
	Rules     struct {
		TierOff    []string `toml:"tier_off"`
		FlattenOff []string `toml:"flatten_off"`
	} `toml:"rules"`
	Keys map[string]any `toml:"keys"`
}

// Settings are the defaults the flags start from. The config file comes
// first, then the environment over it. A flag given on the command line
// wins over both.
type Settings struct {
	path  string            // the config file read, "" when there was none
	flags map[string]string // flag name → default value (file, then env)

	Format     string // the flat pane's first format: text or json
	OutputDir  string // where exports go
	TierOff    map[string]bool
	FlattenOff map[string]bool
	keys       map[string][]string // command name → keys
	// UIErr is the first bad setting only the UI uses (a misspelt name,
	// [keys], the theme). The UI refuses to start with it; other commands
	// warn and go on.
	UIErr error
}

// envFlags are the environment variables that set a flag's default.
var envFlags = []struct{ env, flag string }{
	{"DOMSCOPE_ENDPOINT", "endpoint"},
	{"DOMSCOPE_TARGET", "target"},
	{"DOMSCOPE_TIMEOUT", "timeout"},
	{"DOMSCOPE_THEME", "theme"},
}

// configPath is the file to read: --config in args, else the default
// location. explicit says the user named it, so a missing file is an
// error.
func configPath(args []string, getenv func(string) string) (path string, explicit bool) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			break
		}
		for _, p := range []string{"--config"} {
			if a == p && i+1 < len(args) {
				return args[i+1], true
			}
			if v, ok := strings.CutPrefix(a, p+"="); ok {
				return v, true
			}
		}
	}
	if dir := getenv("XDG_CONFIG_HOME"); dir != "" {
		return filepath.Join(dir, "domscope", "config.toml"), false
	}
	if home := getenv("HOME"); home != "" {
		return filepath.Join(home, ".config", "domscope", "config.toml"), false
	}
	return "", false
}

// Load reads the config file that args or the environment point
// to. It lays the environment over it. A bad file is a usage error
// naming its line.
func Load(args []string, getenv func(string) string) (*Settings, error) {
	st := Empty()
	path, explicit := configPath(args, getenv)
	if path != "" {
		src, err := os.ReadFile(path)
		switch {
		case err == nil:
			st.path = path
			if err := st.parse(path, string(src)); err != nil {
				return nil, err
			}
		case explicit || !errors.Is(err, os.ErrNotExist):
			return nil, UsageError{Msg: fmt.Sprintf("config %s: %v", path, errors.Unwrap(err))}
		}
	}
	for _, e := range envFlags {
		if v := getenv(e.env); v != "" {
			if err := checkFlagValue(e.flag, v); err != nil {
				return nil, UsageError{Msg: fmt.Sprintf("$%s: %v", e.env, err)}
			}
			st.flags[e.flag] = v
		}
	}
	return st, nil
}

// parse reads the TOML text of the config file at path into st.
func (st *Settings) parse(path, src string) error {
	bad := func(line int, format string, a ...any) error {
		where := path
		if line > 0 {
			where = fmt.Sprintf("%s:%d", path, line)
		}
		return UsageError{Msg: fmt.Sprintf("config %s: %s", where, fmt.Sprintf(format, a...))}
	}
	var f fileSettings
	md, err := toml.Decode(src, &f)
	if err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			return bad(pe.Position.Line, "%s", pe.Message)
		}
		// a value of the wrong type: "toml: line 2 (last key "theme"): incompatible types: …"
		if m := decodeErr.FindStringSubmatch(err.Error()); m != nil {
			line, _ := strconv.Atoi(m[1])
			return bad(line, "%s: %s", m[2], m[3])
		}
		return bad(0, "%v", err)
	}
	uiBad := func(err error) {
		if st.UIErr == nil {
			st.UIErr = err
		}
	}
	if u := md.Undecoded(); len(u) > 0 {
		k := u[0]
		uiBad(bad(keyLine(src, k[len(k)-1]), "unknown setting %q (known: theme, endpoint, target, timeout, format, output_dir, [rules] tier_off and flatten_off, [keys])", k.String()))
	}
	if f.Theme != "" {
		if err := checkFlagValue("theme", f.Theme); err != nil {
			uiBad(bad(keyLine(src, "theme"), "%v", err))
		} else {
			st.flags["theme"] = f.Theme
		}
	}
	for _, kv := range []struct{ name, flag, value string }{
		{"endpoint", "endpoint", f.Endpoint},
		{"target", "target", f.Target}, {"timeout", "timeout", f.Timeout},
	} {
		if kv.value == "" {
			continue
		}
		if err := checkFlagValue(kv.flag, kv.value); err != nil {
			return bad(keyLine(src, kv.name), "%v", err)
		}
		st.flags[kv.flag] = kv.value
	}
	switch f.Format {
	case "", "text", "json":
		st.Format = f.Format
		if f.Format != "" {
			st.flags["format"] = f.Format
		}
	default:
		return bad(keyLine(src, "format"), "format %q: want text or json", f.Format)
	}
	if f.OutputDir != "" {
		st.OutputDir = expandHome(f.OutputDir)
	}
	for _, set := range []struct {
		names []string
		known []dom.Rule
		into  map[string]bool
		kind  string
	}{
		{f.Rules.TierOff, build.TierRules(), st.TierOff, "tier"},
		{f.Rules.FlattenOff, flatten.FlattenRules(), st.FlattenOff, "flatten"},
	} {
		for _, n := range set.names {
			name, ok := ruleName(n, set.known)
			if !ok {
				return bad(valueLine(src, n), "unknown %s rule %q (known: %s)", set.kind, n, ruleNames(set.known))
			}
			set.into[name] = true
		}
	}
	if len(f.Keys) > 0 {
		if err := st.parseKeys(f.Keys, bad, src); err != nil {
			st.keys = nil
			uiBad(err)
		}
	}
	return nil
}

// parseKeys reads the [keys] table into st.keys and checks it.
func (st *Settings) parseKeys(keys map[string]any, bad func(int, string, ...any) error, src string) error {
	st.keys = map[string][]string{}
	for cmd, v := range keys {
		var ks []string
		switch v := v.(type) {
		case string:
			ks = []string{v}
		case []any:
			for _, k := range v {
				s, ok := k.(string)
				if !ok {
					return bad(keyLine(src, cmd), "keys.%s: give a key or a list of keys as strings", cmd)
				}
				ks = append(ks, s)
			}
		default:
			return bad(keyLine(src, cmd), "keys.%s: give a key or a list of keys as strings", cmd)
		}
		st.keys[cmd] = ks
	}
	km := keymap.Default()
	if err := km.Rebind(st.keys); err != nil {
		line := 0
		var re *keymap.RebindError
		if errors.As(err, &re) {
			line = keyLine(src, re.Command)
		}
		return bad(line, "%v", err)
	}
	return nil
}

var decodeErr = regexp.MustCompile(`^toml: line (\d+) \(last key "([^"]*)"\): (.*)$`)

// ruleName is the full name of rule n. It may be given without its
// "heuristic:" prefix.
func ruleName(n string, known []dom.Rule) (string, bool) {
	for _, r := range known {
		if r.Name == n {
			return n, true
		}
		if _, short, ok := strings.Cut(r.Name, ":"); ok && short == n {
			return r.Name, true
		}
	}
	return "", false
}

func ruleNames(rules []dom.Rule) string {
	names := make([]string, len(rules))
	for i, r := range rules {
		names[i] = r.Name
	}
	return strings.Join(names, ", ")
}

// keyLine is the line of the file where key is set, 0 when not found.
func keyLine(src, key string) int {
	for i, l := range strings.Split(src, "\n") {
		l = strings.TrimLeft(strings.TrimSpace(l), `"'`)
		if rest, ok := strings.CutPrefix(l, key); ok {
			if strings.HasPrefix(strings.TrimSpace(strings.TrimLeft(rest, `"'`)), "=") {
				return i + 1
			}
		}
	}
	return 0
}

// valueLine is the line of the file where the string value v is written.
func valueLine(src, v string) int {
	for _, q := range []string{`"` + v + `"`, `'` + v + `'`} {
		if i := strings.Index(src, q); i >= 0 {
			return strings.Count(src[:i], "\n") + 1
		}
	}
	return 0
}

func expandHome(p string) string {
	if rest, ok := strings.CutPrefix(p, "~/"); ok {
		if home, err := os.UserHomeDir(); err == nil {
			return filepath.Join(home, rest)
		}
	}
	return p
}

// checkFlagValue checks a value from the file or the environment as the
// flag would.
func checkFlagValue(name, v string) error {
	switch name {
	case "theme":
		if !slices.Contains(ThemeNames, v) {
			return fmt.Errorf("theme %q: want %s", v, strings.Join(ThemeNames, ", "))
		}
	case "timeout":
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			return fmt.Errorf("timeout %q: give a positive duration such as 30s or 2m", v)
		}
	}
	return nil
}

// Apply makes the settings the defaults of the flags fs has. They are set
// on the values, not through fs.Set. So they do not count as given on the
// command line, and demo launches unless --endpoint is given.
func (st *Settings) Apply(fs *pflag.FlagSet) {
	if f := fs.Lookup("config"); f != nil && st.path != "" {
		f.DefValue = st.path
	}
	for name, v := range st.flags {
		f := fs.Lookup(name)
		if f == nil {
			continue
		}
		if f.Value.Set(v) == nil {
			f.DefValue = v
		}
	}
}

type settingsKey struct{}

func With(ctx context.Context, st *Settings) context.Context {
	return context.WithValue(ctx, settingsKey{}, st)
}

// From is the settings dispatch loaded. Tests that call a command
// directly get empty ones.
func From(ctx context.Context) *Settings {
	if st, ok := ctx.Value(settingsKey{}).(*Settings); ok {
		return st
	}
	return Empty()
}

func Empty() *Settings {
	return &Settings{flags: map[string]string{}, TierOff: map[string]bool{}, FlattenOff: map[string]bool{}}
}

// KeyMap is the default key table with the file's overrides. They were
// checked when the file was read.
func (st *Settings) KeyMap() (keymap.KeyMap, error) {
	km := keymap.Default()
	if len(st.keys) > 0 {
		if err := km.Rebind(st.keys); err != nil {
			return km, UsageError{Msg: fmt.Sprintf("config %s: %v", st.path, err)}
		}
	}
	return km, nil
}
