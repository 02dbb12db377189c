package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"domscope/cdpconn"
	"domscope/dom/mcp"
	"domscope/dom/serve"
)

// cliFlags are the flags every agent command takes.
type cliFlags struct {
	endpoint, target, session, record string
	timeout, idle                     time.Duration
	json, steps                       bool
}

func (f *cliFlags) register(fs *pflag.FlagSet, getenv func(string) string) {
	fs.StringVar(&f.endpoint, "endpoint", cdpconn.DefaultEndpoint, "the browser's CDP endpoint")
	fs.StringVar(&f.target, "target", "", "the tab: its id, index, or part of its URL, then title (default: the first)")
	fs.StringVar(&f.session, "session", getenv("DOMSCOPE_SESSION"), "act in this session's own tab, kept across commands (default $DOMSCOPE_SESSION)")
	fs.StringVar(&f.record, "record", "", "write the session's steps to this file as a `run` script")
	fs.DurationVar(&f.timeout, "timeout", defaultTimeout, "give up after this long")
	fs.DurationVar(&f.idle, "idle", 10*time.Minute, "a service started here stops after this long with no request")
	fs.BoolVar(&f.json, "json", false, "print the action's result as JSON")
	fs.BoolVar(&f.steps, "steps", false, "end the answer with the action as a `run` step")
}

func agentCommands(getenv func(string) string) []*cobra.Command {
	out := make([]*cobra.Command, len(serve.Commands))
	for i, c := range serve.Commands {
		var f cliFlags
		cmd := &cobra.Command{Use: c.Use, Short: c.Short, GroupID: "agent", Args: func(cmd *cobra.Command, args []string) error {
			if len(args) < c.Min || len(args) > c.Max {
				return usageError{fmt.Sprintf("%s takes %d to %d arguments, not %d (usage: domscope %s)", cmd.Name(), c.Min, c.Max, len(args), c.Use)}
			}
			return nil
		}}
		cmd.RunE = func(cmd *cobra.Command, args []string) error {
			flags := map[string]string{}
			for _, fl := range c.Flags {
				flags[fl.Name] = cmd.Flags().Lookup(fl.Name).Value.String()
			}
			in, err := c.Args(args, flags)
			if err != nil {
				return served(err)
			}
			file := ""
			if c.Tool == "dom_screenshot" {
				file = args[0]
			}
			return runAgent(cmd.Context(), f, c.Tool, in, file, cmd.OutOrStdout(), cmd.ErrOrStderr())
		}
		f.register(cmd.Flags(), getenv)
		for _, fl := range c.Flags {
			if fl.Bool {
				cmd.Flags().Bool(fl.Name, false, fl.Usage)
			} else {
				cmd.Flags().String(fl.Name, "", fl.Usage)
			}
		}
		out[i] = cmd
	}
	return out
}

// With DOMSCOPE_TIMING set, this marks the end of the process's start:
// the runtime and every package's init.
var _ = serve.Mark("inits")

// agentExit ends an agent command with code, its answer already printed.
type agentExit struct{ code int }

func (e agentExit) Error() string { return fmt.Sprintf("exit %d", e.code) }

// runAgent asks the endpoint's resident service to run tool with in. It
// starts one, detached, when none runs.
func runAgent(ctx context.Context, f cliFlags, tool string, in map[string]any, file string, stdout, stderr io.Writer) error {
	serve.Mark("parsed")
	defer serve.PrintTiming(stderr)
	if !serve.Loopback(f.endpoint) || f.idle < time.Second {
		return usageError{fmt.Sprintf("the agent commands take a loopback --endpoint and --idle of 1s or more, not %s and %s", cdpconn.Redact(f.endpoint), f.idle)}
	}
	ctx, cancel := context.WithTimeout(ctx, f.timeout)
	defer cancel()
	args, _ := json.Marshal(in)
	req := serve.Request{Target: f.target, Session: f.session, Tool: tool, Args: args, Steps: f.steps, Timeout: f.timeout, Record: f.record}
	// Files are the client's: the service may run this for a front.
	for _, p := range []*string{&req.Record, &file} {
		if *p != "" {
			*p = serve.Abs(ctx, *p)
		}
	}
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	a, err := serve.Runner{Exe: exe, Endpoint: f.endpoint, Idle: f.idle, Timeout: f.timeout}.Run(ctx, req)
	if err != nil {
		return served(err)
	}
	code, err := a.Print(stdout, stderr, f.json, f.steps, file)
	serve.Mark("printed")
	if err != nil || code == 0 {
		return err
	}
	return agentExit{code}
}

// snapshotInSession prints the session's view as dom_snapshot answers
// it, with the ids the session's actions take.
func snapshotInSession(ctx context.Context, conn connFlags, o snapshotOpts, stdout, stderr io.Writer) error {
	if o.format == "tree" || o.out != "" || o.shot != "" || o.stats || o.capture != "cdp" {
		return usageError{"--session prints the agent's view: json or text, on stdout, no --screenshot, --stats or --capture"}
	}
	in := o.view.Args(o.format, o.loadAll)
	f := cliFlags{endpoint: conn.endpoint, session: o.session, timeout: conn.timeout, idle: 10 * time.Minute}
	return runAgent(ctx, f, "dom_snapshot", in, "", stdout, stderr)
}

func guideCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "guide",
		Short: "Print the guide for an agent: the loop, errors, sessions, MCP set-up",
		Args:  noArgs,
		Run:   func(*cobra.Command, []string) { fmt.Print(mcp.Guide(version())) },
	}
}
