package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"domscope/cdpconn"
	"domscope/dom"
	"domscope/dom/mcp"
	"domscope/dom/serve"
)

// cliFlags are the flags every agent command takes.
type cliFlags struct {
	endpoint, target, session, record string
	timeout, idle                     time.Duration
	json, steps                       bool
}

func (f *cliFlags) register(fs *pflag.FlagSet) {
	fs.StringVar(&f.endpoint, "endpoint", cdpconn.DefaultEndpoint, "the browser's CDP endpoint")
	fs.StringVar(&f.target, "target", "", "the tab: its id, index, or part of its URL, then title (default: the first)")
	fs.StringVar(&f.session, "session", os.Getenv("DOMSCOPE_SESSION"), "act in this session's own tab, kept across commands (default $DOMSCOPE_SESSION)")
	fs.StringVar(&f.record, "record", "", "write the session's steps to this file as a `run` script")
	fs.DurationVar(&f.timeout, "timeout", defaultTimeout, "give up after this long")
	fs.DurationVar(&f.idle, "idle", 10*time.Minute, "a service started here stops after this long with no request")
	fs.BoolVar(&f.json, "json", false, "print the action's result as JSON")
	fs.BoolVar(&f.steps, "steps", false, "end the answer with the action as a `run` step")
}

// agentCmd is one agent command: its use, the tool it calls, and how its
// arguments become the tool's.
type agentCmd struct {
	use, short string
	args       cobra.PositionalArgs
	tool       string
	build      func(args []string, fs *pflag.FlagSet) (map[string]any, error)
	flags      func(fs *pflag.FlagSet)
}

func agentCommands() []*cobra.Command {
	idArg := func(a []string, _ *pflag.FlagSet) (map[string]any, error) { return map[string]any{"id": a[0]}, nil }
	none := func([]string, *pflag.FlagSet) (map[string]any, error) { return nil, nil }
	cmds := []agentCmd{
		{"click ID", "Click node ID of the view", cobra.ExactArgs(1), "dom_click", idArg, nil},
		{"type ID TEXT", "Type TEXT into node ID (replacing its value)", cobra.ExactArgs(2), "dom_type", func(a []string, fs *pflag.FlagSet) (map[string]any, error) {
			if enter, _ := fs.GetBool("enter"); enter {
				a[1] += "\n"
			}
			return map[string]any{"id": a[0], "text": a[1]}, nil
		}, func(fs *pflag.FlagSet) { fs.Bool("enter", false, "press Enter after the text") }},
		{"press KEY [ID]", "Press a key or chord (Enter, Escape, ctrl+a), on node ID or the focus", cobra.RangeArgs(1, 2), "dom_key", func(a []string, _ *pflag.FlagSet) (map[string]any, error) {
			m := map[string]any{"key": a[0]}
			if len(a) > 1 {
				m["id"] = a[1]
			}
			return m, nil
		}, nil},
		{"select ID VALUE", "Pick an option of select ID by its label or value", cobra.ExactArgs(2), "dom_select", func(a []string, _ *pflag.FlagSet) (map[string]any, error) {
			return map[string]any{"id": a[0], "value": a[1]}, nil
		}, nil},
		{"hover ID", "Move the mouse over node ID", cobra.ExactArgs(1), "dom_hover", idArg, nil},
		{"scroll [ID] [down|up|top|bottom]", "Scroll the page (or over node ID); ID alone brings it into view", cobra.RangeArgs(0, 2), "dom_scroll", scrollArgs, nil},
		{"goto URL", "Open URL in the tab (open FILE shows a saved capture)", cobra.ExactArgs(1), "dom_navigate", func(a []string, _ *pflag.FlagSet) (map[string]any, error) { return map[string]any{"url": a[0]}, nil }, nil},
		{"back", "Go back in the tab's history", cobra.NoArgs, "dom_back", none, nil},
		{"forward", "Go forward in the tab's history", cobra.NoArgs, "dom_forward", none, nil},
		{"reload", "Reload the page", cobra.NoArgs, "dom_reload", none, nil},
		{"tabs", "List the browser's tabs", cobra.NoArgs, "dom_tabs", func([]string, *pflag.FlagSet) (map[string]any, error) { return map[string]any{"action": "list"}, nil }, nil},
		{"tab N", "Move the session to tab N (index, id, or part of its URL or title)", cobra.ExactArgs(1), serve.ToolTab, func(a []string, _ *pflag.FlagSet) (map[string]any, error) { return map[string]any{"tab": a[0]}, nil }, nil},
		{"wait", "Wait for text to appear (--text) or go (--gone), or for --ms", cobra.NoArgs, "dom_wait", waitArgs, func(fs *pflag.FlagSet) {
			fs.String("text", "", "wait until the view holds this text")
			fs.String("gone", "", "wait until the view no longer holds this text")
			fs.Int("ms", 0, "wait this many milliseconds")
		}},
		{"screenshot FILE", "Save the visible page as a PNG (sensitive fields painted over)", cobra.ExactArgs(1), "dom_screenshot", func(_ []string, fs *pflag.FlagSet) (map[string]any, error) {
			marks, _ := fs.GetBool("marks")
			return map[string]any{"marks": marks}, nil
		}, func(fs *pflag.FlagSet) { fs.Bool("marks", false, "draw the view's ids as numbered boxes") }},
		{"close", "End the session and close its tab (without one: close the --target tab)", cobra.NoArgs, serve.ToolClose, none, nil},
	}
	out := make([]*cobra.Command, len(cmds))
	for i, c := range cmds {
		var f cliFlags
		cmd := &cobra.Command{Use: c.use, Short: c.short, GroupID: "agent", Args: usageArgs(c.args)}
		cmd.RunE = func(cmd *cobra.Command, args []string) error {
			in, err := c.build(args, cmd.Flags())
			if err != nil {
				return err
			}
			file := ""
			if c.tool == "dom_screenshot" {
				file = args[0]
			}
			return runAgent(cmd.Context(), f, c.tool, in, file)
		}
		f.register(cmd.Flags())
		if c.flags != nil {
			c.flags(cmd.Flags())
		}
		out[i] = cmd
	}
	return out
}

// usageArgs makes cobra's argument errors usage errors (exit 2).
func usageArgs(check cobra.PositionalArgs) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if err := check(cmd, args); err != nil {
			return usageError{fmt.Sprintf("%s: %v (usage: domscope %s)", cmd.Name(), err, cmd.Use)}
		}
		return nil
	}
}

func scrollArgs(a []string, _ *pflag.FlagSet) (map[string]any, error) {
	m := map[string]any{}
	dir := ""
	switch len(a) {
	case 1:
		if _, err := strconv.Atoi(strings.Trim(a[0], "[]")); err == nil {
			return map[string]any{"id": a[0]}, nil
		}
		dir = a[0]
	case 2:
		m["id"], dir = a[0], a[1]
	}
	switch dir {
	case "", "down":
		if m["id"] != nil {
			m["dy"] = 600
		}
	case "up":
		m["dy"] = -600
	case "top":
		m["dy"] = -1e7
	case "bottom":
		m["dy"] = 1e7
	default:
		return nil, usageError{fmt.Sprintf("scroll %q: want down, up, top or bottom", dir)}
	}
	return m, nil
}

func waitArgs(_ []string, fs *pflag.FlagSet) (map[string]any, error) {
	text, _ := fs.GetString("text")
	gone, _ := fs.GetString("gone")
	ms, _ := fs.GetInt("ms")
	switch {
	case text != "" && gone == "":
		return map[string]any{"text": text}, nil
	case gone != "" && text == "":
		return map[string]any{"text": gone, "gone": true}, nil
	case text == "" && gone == "" && ms > 0:
		return map[string]any{"ms": ms}, nil
	}
	return nil, usageError{"wait needs one of --text TEXT, --gone TEXT or --ms N"}
}

// agentExit ends an agent command with code, its answer already printed.
type agentExit struct{ code int }

func (e agentExit) Error() string { return fmt.Sprintf("exit %d", e.code) }

// runAgent asks the endpoint's resident service to run tool with in. It
// starts one, detached, when none runs.
func runAgent(ctx context.Context, f cliFlags, tool string, in map[string]any, file string) error {
	if f.idle < time.Second {
		return usageError{fmt.Sprintf("--idle %s: give 1s or more", f.idle)}
	}
	if !loopbackEndpoint(f.endpoint) {
		return usageError{"the agent commands drive a browser on this machine: give a loopback --endpoint"}
	}
	ctx, cancel := context.WithTimeout(ctx, f.timeout)
	defer cancel()
	args, _ := json.Marshal(in)
	req := serve.Request{Target: f.target, Session: f.session, Tool: tool, Args: args, Steps: f.steps, Timeout: f.timeout}
	if f.record != "" {
		abs, err := filepath.Abs(f.record)
		if err != nil {
			return usageError{fmt.Sprintf("--record: %v", err)}
		}
		req.Record = abs
	}
	path := serve.SocketPath(f.endpoint)
	a, ok, err := serve.Call(ctx, path, req)
	if !ok && err == nil {
		exe, xerr := os.Executable()
		if xerr != nil {
			return xerr
		}
		sargs := []string{"--endpoint", f.endpoint, "--idle", f.idle.String(), "--timeout", f.timeout.String()}
		if err := serve.Start(ctx, exe, sargs, path, serve.LogPath(f.endpoint)); err != nil {
			return err
		}
		a, ok, err = serve.Call(ctx, path, req)
		if !ok && err == nil {
			err = dom.Errorf(dom.AttachFailed, nil, "domscope serve does not answer: see %s", serve.LogPath(f.endpoint))
		}
	}
	if err != nil {
		return served(err)
	}
	return printAnswer(a, f, file)
}

// printAnswer prints what the MCP tool answered: on stdout when it is
// done, on stderr (exit 1) when it failed.
func printAnswer(a serve.Answer, f cliFlags, file string) error {
	if file != "" && a.Image != nil {
		if err := dom.WritePrivate(file, a.Image); err != nil {
			return err
		}
	}
	out := a.Text
	if f.json && !a.Error {
		b, _ := json.MarshalIndent(a.Result, "", "  ")
		out = string(b) + "\n"
	}
	if f.steps && a.Step != "" {
		out += "step: " + a.Step + "\n"
	}
	if !a.Error {
		_, err := os.Stdout.WriteString(out)
		return err
	}
	os.Stderr.WriteString(out)
	switch a.Code {
	case dom.AttachFailed, dom.TargetNotFound, dom.NotAttached:
		return agentExit{exitConnect}
	}
	return agentExit{exitFail}
}

// snapshotInSession prints the session's view as dom_snapshot answers
// it, with the ids the session's actions take.
func snapshotInSession(ctx context.Context, conn connFlags, o snapshotOpts) error {
	if o.format == "tree" || o.out != "" || o.shot != "" || o.stats || o.capture != "cdp" {
		return usageError{"--session prints the agent's view: json or text, on stdout, no --screenshot, --stats or --capture"}
	}
	in := map[string]any{"format": o.format, "offscreen": o.view.Offscreen, "bounds": o.view.Bounds, "maxDepth": o.view.MaxDepth,
		"maxInteractive": o.view.MaxInteractive, "selector": o.view.Selector, "maxTokens": o.view.maxTokens}
	f := cliFlags{endpoint: conn.endpoint, session: o.session, timeout: conn.timeout, idle: 10 * time.Minute}
	return runAgent(ctx, f, "dom_snapshot", in, "")
}

func guideCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "guide",
		Short: "Print the guide for an agent: the loop, errors, sessions, MCP set-up",
		Args:  noArgs,
		Run:   func(*cobra.Command, []string) { fmt.Print(mcp.Guide(version())) },
	}
}
