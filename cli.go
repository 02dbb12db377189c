package main

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"

	"charm.land/fang/v2"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"domscope/dom"
	"domscope/dom/serve"
	"domscope/tui/cli"
)

// dispatch runs the command args name. The config file and the
// environment give the flags' defaults before parsing. So --help shows
// the defaults in effect, and a flag on the command line wins over both.
// The service runs a front's command lines with the client's getenv.
func dispatch(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	st, err := cli.Load(args, getenv)
	if err != nil {
		// A shell completing words has no use for a bad config's error.
		if len(args) == 0 || !isCompletion(args[0]) {
			return err
		}
		st = cli.Empty()
	}
	root := newRoot(getenv)
	forEachCommand(root, func(c *cobra.Command) { st.Apply(c.Flags()) })
	root.SetArgs(args)
	root.SetOut(stdout)
	root.SetErr(stderr)
	if cli.WantsHelp(root, args) {
		if serve.InProcess(ctx) != nil {
			return errDirect // help pages and styles are the terminal's
		}
		w, done := cli.HelpOutput()
		defer done()
		root.SetOut(w)
	}
	return fang.Execute(cli.With(ctx, st), root,
		fang.WithVersion(version()),
		fang.WithoutManpage(),
		// main prints the one error line; fang would print its own.
		fang.WithErrorHandler(func(io.Writer, fang.Styles, error) {}))
}

func isCompletion(arg string) bool {
	return arg == "completion" || arg == cobra.ShellCompRequestCmd || arg == cobra.ShellCompNoDescRequestCmd
}

// newRoot builds the command tree: the bare command opens the UI.
func newRoot(getenv func(string) string) *cobra.Command {
	root := uiCommand()
	root.PersistentFlags().String("config", "", "settings file (TOML; default $XDG_CONFIG_HOME/domscope/config.toml)")
	root.AddCommand(snapshotCommand(getenv), serveCommand(), demoCommand(), runCommand(), openCommand(), mcpCommand(), versionCommand(), completionCommand())
	root.AddGroup(&cobra.Group{ID: "agent", Title: "Agent commands (each asks the resident service; see domscope guide):"})
	root.AddCommand(agentCommands(getenv)...)
	root.AddCommand(guideCommand())
	root.SetVersionTemplate("domscope {{.Version}}\n")
	root.SetFlagErrorFunc(cli.FlagError)
	root.SetHelpCommand(cli.HelpCommand())
	root.SuggestionsMinimumDistance = 2
	root.PersistentPreRunE = checkFlags
	forEachCommand(root, registerCompletions)
	return root
}

func forEachCommand(c *cobra.Command, f func(*cobra.Command)) {
	f(c)
	for _, sub := range c.Commands() {
		forEachCommand(sub, f)
	}
}

// checkFlags refuses values a flag's type accepts but domscope does not.
func checkFlags(cmd *cobra.Command, _ []string) error {
	if err := cli.From(cmd.Context()).UIErr; err != nil && !opensUI(cmd) {
		fmt.Fprintf(cmd.ErrOrStderr(), "domscope: warning: %v (only the UI uses it; %s goes on)\n", err, cmd.Name())
	}
	if f := cmd.Flags().Lookup("theme"); f != nil && !slices.Contains(cli.ThemeNames, f.Value.String()) {
		return usageError{fmt.Sprintf("--theme %q: want %s", f.Value, strings.Join(cli.ThemeNames, ", "))}
	}
	// A zero or negative timeout would end every browser call at once. It
	// would read as a dead endpoint.
	if d, err := cmd.Flags().GetDuration("timeout"); err == nil && d <= 0 {
		return usageError{fmt.Sprintf("--timeout %s: give a positive duration such as 30s or 2m", d)}
	}
	return nil
}

// noArgs refuses positional arguments with a usage error.
func noArgs(_ *cobra.Command, args []string) error {
	if len(args) > 0 {
		return usageError{fmt.Sprintf("unexpected argument %q", args[0])}
	}
	return nil
}

// oneArg wants exactly one positional argument; missing says what.
func oneArg(missing string) cobra.PositionalArgs {
	return func(_ *cobra.Command, args []string) error {
		switch {
		case len(args) == 0:
			return usageError{missing}
		case len(args) > 1:
			return usageError{fmt.Sprintf("unexpected argument %q", args[1])}
		}
		return nil
	}
}

// flagValues are the values shells complete for flags that take a word.
var flagValues = map[string]func() []string{
	"theme":     func() []string { return cli.ThemeNames },
	"format":    func() []string { return []string{"text", "json", "tree"} },
	"snapshots": func() []string { return []string{"text", "json"} },
	"view":      func() []string { return []string{"diff", "full", "none"} },
	"capture":   func() []string { return []string{"cdp", "page", "compare"} },
	"device":    deviceNames,
}

func deviceNames() []string {
	names := make([]string, len(dom.Devices))
	for i, d := range dom.Devices {
		names[i] = d.Device
	}
	return names
}

func registerCompletions(c *cobra.Command) {
	for name, values := range flagValues {
		if c.Flags().Lookup(name) == nil {
			continue
		}
		_ = c.RegisterFlagCompletionFunc(name, func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
			return values(), cobra.ShellCompDirectiveNoFileComp
		})
	}
	if c.Flags().Lookup("target") != nil {
		_ = c.RegisterFlagCompletionFunc("target", cli.CompleteTargets)
	}
}

// completionCommand prints a shell's completion script. The scripts ask
// the program for its words, so they cannot drift from its flags.
func completionCommand() *cobra.Command {
	return &cobra.Command{
		Use:       "completion bash|zsh|fish",
		Short:     "Print a shell completion script: bash, zsh or fish",
		ValidArgs: []string{"bash", "zsh", "fish"},
		Args:      oneArg("completion needs a shell: bash, zsh or fish"),
		RunE: func(cmd *cobra.Command, args []string) error {
			root, w := cmd.Root(), cmd.OutOrStdout()
			switch args[0] {
			case "bash":
				return root.GenBashCompletionV2(w, true)
			case "zsh":
				return root.GenZshCompletion(w)
			case "fish":
				return root.GenFishCompletion(w, true)
			}
			return usageError{fmt.Sprintf("completion %q: want bash, zsh or fish", args[0])}
		},
	}
}

func versionCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the version",
		Args:  noArgs,
		Run:   func(*cobra.Command, []string) { fmt.Println("domscope " + version()) },
	}
}

// flagGiven reports whether name was given on the command line. A value
// from the config file or the environment is a default, not given.
func flagGiven(fs *pflag.FlagSet, name string) bool {
	f := fs.Lookup(name)
	return f != nil && f.Changed
}

// opensUI reports whether cmd opens the UI, which refuses a bad UI
// setting rather than warn of it.
func opensUI(cmd *cobra.Command) bool {
	if !cmd.HasParent() || cmd.Name() == "demo" || cmd.Name() == "open" {
		return true
	}
	ui, err := cmd.Flags().GetBool("ui")
	return cmd.Name() == "run" && err == nil && ui
}
