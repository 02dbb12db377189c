package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/spf13/cobra"

	"domscope/cdpconn"
	"domscope/dom/serve"
)

// serveOpts are the serve command's own flags.
type serveOpts struct {
	idle  time.Duration
	quiet bool
	watch bool
}

func serveCommand() *cobra.Command {
	var conn connFlags
	var o serveOpts
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Keep pages modelled so `snapshot` answers fast (a resident server)",
		Long: "Runs in the foreground and keeps a live model of each tab that `domscope snapshot`\n" +
			"asks for, as `domscope mcp` does. A snapshot with the same --endpoint finds it\n" +
			"through a private unix socket and prints what it would print itself, without\n" +
			"attaching or capturing again; with no server it works as before. `snapshot\n" +
			"--direct` skips the server; --screenshot, --stats, --capture page|compare,\n" +
			"--url, --launch, --demo and the window flags always go direct.\n\n" +
			"On a page that did not change since it loaded, a served view is the direct\n" +
			"one, byte for byte (json's \"timestamp\" is the moment of each read). Once\n" +
			"the page changed itself, the server keeps the ids of the nodes that stayed,\n" +
			"as the UI and mcp do, where a direct snapshot numbers the page afresh; the\n" +
			"rest of the view is the same. A new page (a navigation) is numbered afresh,\n" +
			"and modelled as soon as it has loaded, before it is asked for.\n\n" +
			"With --watch it also models every tab of the browser, and each new one,\n" +
			"before anyone asks (at most 16, tabs other tools drive too), and keeps them\n" +
			"until they close; it still stops after --idle with no request.\n\n" +
			"It stops on Ctrl-C or SIGTERM, when the browser goes away, or after --idle\n" +
			"with no request, and removes its socket. A tab with no request for --idle\n" +
			"is let go (detached) while others are served; a later request attaches again.",
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			conn.given(cmd.Flags())
			return runServe(cmd.Context(), conn, o)
		},
	}
	fs := cmd.Flags()
	conn.register(fs)
	// The server reads tabs of a running browser as they are.
	for _, name := range []string{"launch", "url", "target", "demo", "headless", "viewport", "device", "scale"} {
		_ = fs.MarkHidden(name)
	}
	fs.DurationVar(&o.idle, "idle", 10*time.Minute, "stop after this long with no request, and let a tab go after this long with none for it (1s or more)")
	fs.BoolVar(&o.quiet, "quiet", false, "no log line per request on stderr")
	fs.BoolVar(&o.watch, "watch", false, fmt.Sprintf("model every tab of the browser (up to %d), and each new one, before it is asked for; tabs are kept until they close", serve.MaxWatched))
	return cmd
}

// runServe serves snapshots for conn's endpoint until told to stop.
func runServe(ctx context.Context, conn connFlags, o serveOpts) error {
	if conn.launch || conn.demo || conn.url != "" {
		return usageError{"serve attaches to a running browser: give --endpoint, not --launch, --demo or --url"}
	}
	if conn.targetGiven {
		return usageError{"serve answers for any tab: give --target to snapshot, not to serve"}
	}
	if conn.viewport != "" || conn.device != "" || conn.scale != 0 {
		return usageError{"serve reads tabs in their own window: --viewport, --device and --scale go with a direct snapshot"}
	}
	// The idle check ticks at a quarter of it: under a second is no use.
	if o.idle < time.Second {
		return usageError{fmt.Sprintf("--idle %s: give 1s or more, such as 10m", o.idle)}
	}
	// A session is each command line's own, never the first client's.
	_ = os.Unsetenv("DOMSCOPE_SESSION")
	path := serve.SocketPath(conn.endpoint)
	ln, stop, err := serve.Listen(path)
	if err != nil {
		return err
	}
	defer stop()
	cctx, cancel := context.WithTimeout(ctx, conn.timeout)
	b, err := cdpconn.Connect(cctx, conn.endpoint, conn.allowRemote)
	cancel()
	if err != nil {
		return err
	}
	defer func() { _ = b.Close() }()
	srv := serve.New(b)
	srv.Watch = o.watch
	srv.Argv = runArgv
	defer srv.Close()
	fmt.Fprintf(os.Stderr, "domscope serve: listening on %s (pid %d); snapshot --endpoint %s uses it\n", path, os.Getpid(), cdpconn.Redact(conn.endpoint))
	if !o.quiet {
		srv.Log = os.Stderr
	}
	return srv.Serve(ctx, ln, o.idle)
}

// errDirect ends the service's run of a line it must not run (help, a
// snapshot that attaches itself): the front then execs this program.
var errDirect = errors.New("run it in a process of its own")

// runArgv is the service's serve.ArgvFunc: the front (tui/front) sends
// agent command lines, run here on this command tree, so the answer is
// what this program prints, without its start.
func runArgv(ctx context.Context, argv []string, getenv func(string) string, stdout, stderr io.Writer) int {
	if err := dispatch(ctx, argv, getenv, stdout, stderr); errors.Is(err, errDirect) {
		return serve.ArgvDirect
	} else if err != nil {
		return report(err, stderr)
	}
	return 0
}
