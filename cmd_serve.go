package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/spf13/cobra"

	"domscope/cdpconn"
	"domscope/dom"
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
	fs.BoolVar(&o.watch, "watch", false, fmt.Sprintf("model every tab of the browser (up to %d), and each new one, before it is asked for; tabs are kept until they close", maxWatched))
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
	path := socketPath(conn.endpoint)
	ln, stop, err := listenPrivate(path)
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
	srv := newSnapshotServer(b)
	srv.watch = o.watch
	defer srv.close()
	fmt.Fprintf(os.Stderr, "domscope serve: listening on %s; snapshot --endpoint %s uses it\n", path, cdpconn.Redact(conn.endpoint))
	if !o.quiet {
		srv.log = os.Stderr
	}
	return serveLoop(ctx, ln, srv, o.idle)
}

// serveLoop accepts clients until ctx ends, the browser goes, or no
// request came for idle.
func serveLoop(ctx context.Context, ln *net.UnixListener, srv *snapshotServer, idle time.Duration) error {
	ctx, stop := context.WithCancel(ctx)
	var wg sync.WaitGroup
	// Cancel first: that closes the connections the wait is for.
	defer func() {
		stop()
		wg.Wait()
	}()
	var active atomic.Int64
	var last atomic.Int64 // unix nanoseconds of the last request's end
	last.Store(time.Now().UnixNano())
	conns := make(chan net.Conn)
	acceptErr := make(chan error, 1)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				acceptErr <- err
				return
			}
			select {
			case conns <- c:
			case <-ctx.Done():
				c.Close()
				return
			}
		}
	}()
	gone := browserGone(ctx, srv.browser)
	if srv.watch {
		srv.watchSoon(ctx)
	}
	tick := time.NewTicker(min(idle/4, time.Second))
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case err := <-acceptErr:
			return err
		case <-gone:
			fmt.Fprintln(os.Stderr, "domscope serve: the browser went away; stopping")
			return nil
		case <-tick.C:
			srv.dropIdle(idle)
			if srv.watch {
				srv.watchSoon(ctx)
			}
			if active.Load() == 0 && time.Since(time.Unix(0, last.Load())) >= idle {
				fmt.Fprintf(os.Stderr, "domscope serve: no request for %s; stopping\n", idle)
				return nil
			}
		case c := <-conns:
			active.Add(1)
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer func() {
					last.Store(time.Now().UnixNano())
					active.Add(-1)
				}()
				serveConn(ctx, c, srv)
			}()
		}
	}
}

// serveConn answers one client's request.
func serveConn(ctx context.Context, c net.Conn, srv *snapshotServer) {
	defer c.Close()
	// A stopping server closes the connection, read or not.
	defer context.AfterFunc(ctx, func() { _ = c.Close() })()
	// A bug met by one request must not end the server.
	defer func() {
		if v := recover(); v != nil {
			// Quoted: a panic's text may hold a request's escapes.
			fmt.Fprintf(os.Stderr, "domscope serve: internal error in a request, sent it direct: %q\n", fmt.Sprint(v))
			_ = writeReply(c, serveReply{Direct: "internal error"}, "")
		}
	}()
	if err := peerIsUs(c); err != nil {
		fmt.Fprintf(os.Stderr, "domscope serve: refused %v\n", err)
		return
	}
	_ = c.SetReadDeadline(time.Now().Add(10 * time.Second))
	req, err := readRequest(c)
	if err != nil {
		// Another version, or not a client at all: it may go direct.
		_ = writeReply(c, serveReply{Direct: err.Error()}, "")
		return
	}
	_ = c.SetReadDeadline(time.Time{})
	if writeReply(c, serveReply{Accepted: true}, "") != nil {
		return
	}
	if req.Timeout <= 0 {
		req.Timeout = defaultTimeout
	}
	rctx, cancel := context.WithTimeout(ctx, req.Timeout)
	defer cancel()
	start := time.Now()
	text, err := srv.snapshot(rctx, req)
	outcome := "ok"
	rep := serveReply{}
	if err != nil {
		outcome = string(dom.CodeOf(err))
		if errors.As(err, new(usageError)) {
			outcome = "usage error"
		}
		rep, text = serveReply{Error: errorOf(err)}, ""
	}
	// A client that stops reading does not hold the server.
	_ = c.SetWriteDeadline(time.Now().Add(replyWriteBound))
	if err := writeReply(c, rep, text); err != nil {
		outcome = "failed: the client did not take the reply"
	}
	if srv.log != nil {
		// No target or page text: a URL may hold a token.
		// Nor a string of the request as sent: it may hold escapes.
		format := req.Format
		if !knownFormat(format) {
			format = "(unknown)"
		}
		fmt.Fprintf(srv.log, "domscope serve: snapshot --format %s → %s, %s\n", format, outcome, ms(time.Since(start)))
	}
}

// replyWriteBound bounds the write of one reply.
const replyWriteBound = 30 * time.Second

// browserGone is closed once the browser stops answering.
func browserGone(ctx context.Context, b *cdpconn.Browser) <-chan struct{} {
	gone := make(chan struct{})
	go func() {
		t := time.NewTicker(2 * time.Second)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
			cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
			_, err := b.Targets(cctx)
			cancel()
			// A slow answer is a busy machine; a lost connection is the end.
			if err != nil && dom.CodeOf(err) == dom.NotAttached && ctx.Err() == nil {
				close(gone)
				return
			}
		}
	}()
	return gone
}
