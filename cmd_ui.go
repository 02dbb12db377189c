package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"domscope/cdpconn"
	"domscope/dom"
	"domscope/dom/live"
	"domscope/tui"
	"domscope/tui/cli"
)

// uiFlags are the flags of the commands that open the UI.
type uiFlags struct {
	theme       string
	noColor     bool
	noHighlight bool
	noEffects   bool
	paused      bool
	record      string
	outputDir   string
	agent       agentFlags
}

// register adds the UI's flags. live says the UI is on a page in a
// browser (the browser-side flags apply), not on a saved capture.
func (u *uiFlags) register(fs *pflag.FlagSet, live bool) {
	fs.StringVar(&u.theme, "theme", "auto", "colours: auto (ask the terminal), dark or light")
	fs.BoolVar(&u.noColor, "no-color", false, "draw without colour (also when $NO_COLOR is set)")
	fs.StringVar(&u.outputDir, "output-dir", "", "where e (export) and w (script) write their files (default $XDG_STATE_HOME/domscope, else ~/.local/state/domscope)")
	if !live {
		return
	}
	fs.BoolVar(&u.noHighlight, "no-highlight", false, "start with the browser-side highlight of the selection off")
	fs.BoolVar(&u.noEffects, "no-effects", false, "no click ripple in the browser")
	fs.BoolVar(&u.paused, "paused", false, "start with follow mode paused: the page's own changes show only after F")
	fs.StringVar(&u.record, "record", "", "append each action done in the UI to FILE as a run script step, as it happens")
	u.agent.register(fs)
}

// uiCommand is the bare command. It opens the UI on the page the
// connection flags name.
func uiCommand() *cobra.Command {
	var conn connFlags
	var ui uiFlags
	cmd := &cobra.Command{
		Use:   "domscope",
		Short: "See what your LLM browser agent sees of a page",
		Long: "domscope shows a page as an LLM browser agent sees it: the complete VirtualNode\n" +
			"tree beside the flattened view an LLM reads. Select a node and act on it; the page\n" +
			"is read again after every action.\n\n" +
			"--timeout bounds connecting and loading the first page. In the UI an action or a\n" +
			"navigation (g) that gets no answer gives up after 60 s; esc gives up sooner.",
		Example: "  domscope --url https://example.com\n  domscope --target 0 --endpoint http://127.0.0.1:9222\n  domscope demo",
		Args:    unknownCommand,
		RunE: func(cmd *cobra.Command, _ []string) error {
			conn.given(cmd.Flags())
			return openUI(cmd.Context(), conn, ui, nil)
		},
	}
	conn.register(cmd.Flags())
	ui.register(cmd.Flags(), true)
	return cmd
}

// unknownCommand refuses a word the bare command does not take. It can
// only be a mistyped command.
func unknownCommand(c *cobra.Command, args []string) error {
	if len(args) > 0 {
		return usageError{cli.UnknownCommandMsg(c.Root(), args[0], "domscope help")}
	}
	return nil
}

// demoCommand serves the embedded demo pages, launches Chromium and opens the UI.
func demoCommand() *cobra.Command {
	var conn connFlags
	var ui uiFlags
	cmd := &cobra.Command{
		Use:   "demo",
		Short: "Serve the built-in demo pages, launch Chromium and open the UI on them",
		Long: "Serves the demo pages built into the binary on loopback, launches a local\n" +
			"Chromium (or uses --endpoint when given) and opens the UI on them.",
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			conn.given(cmd.Flags())
			conn.demo = true
			if !flagGiven(cmd.Flags(), "endpoint") {
				conn.launch = true
			}
			return openUI(cmd.Context(), conn, ui, nil)
		},
	}
	conn.register(cmd.Flags())
	ui.register(cmd.Flags(), true)
	return cmd
}

// openWithin opens the page the flags name, giving up after --timeout.
// The session itself lives as long as ctx.
func (c *connFlags) openWithin(ctx context.Context) (*session, error) {
	openCtx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	return c.open(openCtx)
}

// openUI opens the UI on the page the flags name. more, if set, adds to
// its configuration (a script to step through).
func openUI(ctx context.Context, conn connFlags, ui uiFlags, more func(*tui.Config)) error {
	if err := cli.From(ctx).UIErr; err != nil {
		return err // only the UI uses it: the other commands warn
	}
	if err := ui.agent.check(conn); err != nil {
		return err
	}
	// Bad flags first: they are wrong with or without a terminal.
	if _, err := conn.emulation(); err != nil {
		return err
	}
	if _, err := conn.startURL(); err != nil {
		return err
	}
	if !cli.IsTerminal(os.Stdin) || !cli.IsTerminal(os.Stdout) {
		// Bubble Tea would say only "could not open TTY".
		return usageError{"the UI needs a terminal (stdin and stdout are not one here); for a one-shot view use `domscope snapshot`, for scripts `domscope run`, for agents `domscope mcp`"}
	}
	if conn.launch {
		// Chromium takes a few seconds to start. Say so before the screen opens.
		fmt.Fprintln(os.Stderr, "domscope: launching Chromium…")
	}
	var record io.Writer
	if ui.record != "" {
		// appended to, so a session can be recorded in several sittings
		f, err := dom.AppendPrivate(ui.record)
		if err != nil {
			return fmt.Errorf("--record: %w", err)
		}
		defer func() { _ = f.Close() }()
		record = f
	}
	if err := ui.agent.lend(ctx, &conn); err != nil {
		return err
	}
	s, err := conn.openWithin(ctx)
	if err != nil {
		return err
	}
	defer s.Close()
	st := cli.From(ctx)
	cfg := live.Config{VisualEffects: !ui.noEffects, TierDisabled: st.TierOff}
	// Kept by the service, so a reconnected or newly picked tab gets it too.
	cfg.Viewport, _ = conn.emulation()
	var browser dom.Browser = s.browser
	if !conn.launch {
		// A browser we attached to can be restarted under us. So redial its
		// endpoint, and let the tab picker use whatever connection is live.
		// One we launched is gone with its process.
		rd := cdpconn.NewRedialer(conn.endpoint, conn.allowRemote, s.browser)
		defer func() { _ = rd.Close() }()
		cfg.Reconnect = rd.Reattach
		cfg.ReconnectWithin = conn.timeout
		browser = rd
	}
	newActor := func(p dom.Page) dom.Actor { return live.NewService(p, cfg) }
	actor := newActor(s.page)
	defer func() { _ = actor.Close() }()
	agent, stopAgent, err := ui.agent.start(ctx, conn, actor.(*live.Service), s, cfg)
	if err != nil {
		return err
	}
	defer stopAgent()
	km, err := st.KeyMap()
	if err != nil {
		return err
	}
	tc := tui.Config{
		Actor:       actor,
		Browser:     browser,
		NewActor:    newActor,
		Theme:       ui.theme,
		NoColor:     ui.noColor,
		NoHighlight: ui.noHighlight,
		Record:      record,
		OutputDir:   ui.outputDirOr(st),
		Format:      st.Format,
		TierOff:     st.TierOff,
		FlattenOff:  st.FlattenOff,
		Keys:        km,

		FollowPaused: ui.paused,
		Agent:        agent,
		Replay: func(start, file string) string {
			return conn.replayCommand(s.demoBase, start, file)
		},
	}
	if more != nil {
		more(&tc)
	}
	return tui.Run(ctx, tc)
}

// openCommand shows a saved capture with no browser.
func openCommand() *cobra.Command {
	var ui uiFlags
	cmd := &cobra.Command{
		Use:   "open FILE",
		Short: "Show a capture saved from the UI (e) with no browser",
		Args:  oneArg("open needs the capture file to show"),
		RunE: func(cmd *cobra.Command, args []string) error {
			st := cli.From(cmd.Context())
			km, err := st.KeyMap()
			if err != nil {
				return err
			}
			return tui.Run(cmd.Context(), tui.Config{Saved: args[0], Theme: ui.theme, NoColor: ui.noColor,
				Format: st.Format, OutputDir: ui.outputDirOr(st), Keys: km})
		},
	}
	ui.register(cmd.Flags(), false)
	return cmd
}

// outputDir is --output-dir. When the flag is not given, it is the config
// file's output_dir, else defaultOutputDir.
func (u uiFlags) outputDirOr(st *cli.Settings) string {
	if u.outputDir != "" {
		return u.outputDir
	}
	if st.OutputDir != "" {
		return st.OutputDir
	}
	return defaultOutputDir()
}

// defaultOutputDir is where e and w write unless told:
// $XDG_STATE_HOME/domscope, else ~/.local/state/domscope. Not the current
// directory: it may be a source tree, or not writable, and files would
// scatter across wherever the UI was started. A temporary directory is
// emptied on reboot, and a saved capture is for sharing later.
func defaultOutputDir() string {
	if d := os.Getenv("XDG_STATE_HOME"); filepath.IsAbs(d) { // relative: invalid, says the XDG spec
		return filepath.Join(d, "domscope")
	}
	if h, err := os.UserHomeDir(); err == nil && h != "" {
		return filepath.Join(h, ".local", "state", "domscope")
	}
	return filepath.Join(os.TempDir(), "domscope")
}
