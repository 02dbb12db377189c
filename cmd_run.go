package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"domscope/dom/live"
	"domscope/dom/script"
	"domscope/tui"
	"domscope/tui/cli"
)

// runOpts are the run command's own flags.
type runOpts struct {
	snapshots string
	keepGoing bool
	metrics   bool
	effects   bool
	refsFile  string
	stepUI    bool
}

func runCommand() *cobra.Command {
	var conn connFlags
	var ui uiFlags
	var o runOpts
	cmd := &cobra.Command{
		Use:   "run FILE",
		Short: "Replay a file of JSON-line actions against a page (- reads stdin)",
		Long: "Replays FILE (JSON lines, one step each; - reads stdin) against the\n" +
			"page and prints each result as a JSON line. A file is checked whole\n" +
			"before the browser is asked. Exit code 1 when a step fails, 2 for a\n" +
			"bad step. Steps look like:\n\n" +
			"  {\"action\":\"click\",\"target\":{\"role\":\"button\",\"name\":\"Sign in\"}}\n" +
			"  {\"action\":\"type\",\"target\":{\"css\":\"#email\"},\"text\":\"a@b.c\"}\n" +
			"  {\"action\":\"navigate\",\"url\":\"products.html\"}\n\n" +
			"Actions, targets, refs and withheld values: docs/scripts.md. A step\n" +
			"recorded with a withheld value (•••• typed into a sensitive field)\n" +
			"takes it from $DOMSCOPE_SECRET_<step number>. Flags marked \"with\n" +
			"--ui\" apply only to stepping through FILE in the UI (--ui).",
		Args: oneArg("run needs a file of actions (or - for stdin)"),
		RunE: func(cmd *cobra.Command, args []string) error {
			conn.given(cmd.Flags())
			return runScript(cmd.Context(), conn, ui, o, args[0])
		},
	}
	fs := cmd.Flags()
	conn.register(fs)
	fs.StringVar(&o.snapshots, "snapshots", "", "print the snapshot after each step: text or json")
	fs.BoolVar(&o.keepGoing, "keep-going", false, "run the remaining steps after a failed one")
	fs.BoolVar(&o.metrics, "metrics", false, "add each step's performance delta: DOM nodes, JS heap, layouts, style recalcs")
	fs.BoolVar(&o.effects, "effects", false, "show a click ripple in the browser")
	fs.StringVar(&o.refsFile, "refs", "", "the snapshot text (Playwright aria snapshot or domscope text) that {\"ref\":…} targets name")
	fs.BoolVar(&o.stepUI, "ui", false, "step through FILE in the UI: run, skip, edit and retry each step, act by hand in between")
	ui.register(fs, true)
	cli.MarkFlags(fs, "with --ui: ", []string{"theme", "no-color", "output-dir", "no-highlight", "no-effects", "paused", "record", "mcp"})
	return cmd
}

// runScript replays the file name, printing each result.
func runScript(ctx context.Context, conn connFlags, ui uiFlags, o runOpts, name string) error {
	var refs *script.Refs
	if o.refsFile != "" {
		r, err := script.ReadRefsFile(o.refsFile)
		if err != nil {
			return usageError{err.Error()}
		}
		refs = r
	}
	if o.stepUI {
		if name == "-" {
			return usageError{"run --ui reads its keys from the terminal: give the script as a file, not -"}
		}
		b, err := os.ReadFile(name)
		if err != nil {
			return err
		}
		lines, err := script.Load(strings.NewReader(string(b)))
		if err != nil {
			return usageError{err.Error()}
		}
		if len(lines) == 0 {
			return usageError{name + " has no steps"}
		}
		return openUI(ctx, conn, ui, func(c *tui.Config) {
			c.Script, c.ScriptName, c.Refs = lines, name, refs
		})
	}
	var in io.Reader = os.Stdin
	if name != "-" {
		// A file is read whole and checked before the browser is asked:
		// a misspelt step is reported at once, with its line. Stdin
		// streams, so a step is read as it comes.
		b, err := os.ReadFile(name)
		if err != nil {
			return err
		}
		if err := checkScript(name, b); err != nil {
			return err
		}
		in = bytes.NewReader(b)
	}
	s, err := conn.openWithin(ctx)
	if err != nil {
		return err
	}
	defer s.Close()
	vp, _ := conn.emulation() // checked by openWithin
	actor := live.NewService(s.page, live.Config{VisualEffects: o.effects, Viewport: vp})
	defer func() { _ = actor.Close() }()
	return script.Run(ctx, actor, in, os.Stdout, script.Options{Snapshots: o.snapshots, KeepGoing: o.keepGoing, Metrics: o.metrics, Refs: refs,
		Secret: script.SecretFromEnv(os.Getenv)})
}

// checkScript parses every step of the script b read from name. The
// first bad step is a usage error that names its line.
func checkScript(name string, b []byte) error {
	lines, err := script.Load(bytes.NewReader(b))
	if err != nil {
		return usageError{fmt.Sprintf("%s: %v", name, err)}
	}
	bad := 0
	var first string
	for _, l := range lines {
		if l.Err != nil {
			if bad == 0 {
				first = fmt.Sprintf("%s:%d: %v", name, l.No, l.Err)
			}
			bad++
		}
	}
	switch {
	case bad == 1:
		return usageError{first + " (nothing was run; step format: docs/scripts.md)"}
	case bad > 1:
		return usageError{fmt.Sprintf("%s (and %d more bad steps; nothing was run; step format: docs/scripts.md)", first, bad-1)}
	}
	return nil
}
