package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"

	"domscope/dom"
	"domscope/dom/live"
	"domscope/dom/mcp"
)

// mcpOpts are the mcp command's own flags.
type mcpOpts struct {
	http    string
	token   string
	view    string
	quiet   bool
	effects bool
	record  string
}

func mcpCommand() *cobra.Command {
	var conn connFlags
	var o mcpOpts
	cmd := &cobra.Command{
		Use:   "mcp",
		Short: "Serve the DOM tool to an LLM agent over MCP (stdio, or --http ADDR)",
		Long: "Serves domscope's DOM tool to an LLM agent over the Model Context Protocol:\n" +
			"dom_snapshot, dom_click, dom_type, dom_key and the other dom_* tools act on the\n" +
			"page the connection flags name. Stdio by default; --http ADDR serves\n" +
			"streamable HTTP at /mcp.",
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			conn.given(cmd.Flags())
			return runMCP(cmd.Context(), conn, o)
		},
	}
	fs := cmd.Flags()
	conn.register(fs)
	fs.StringVar(&o.http, "http", "", "serve streamable HTTP at http://ADDR/mcp instead of stdio (loopback only unless --allow-remote)")
	fs.StringVar(&o.token, "token", "", "with --http: require this bearer token (Authorization: Bearer TOKEN)")
	fs.StringVar(&o.view, "view", string(mcp.ViewDiff), "what an action answers with besides its result: diff (the view's changed lines; the new page after a navigation), full (the whole view) or none")
	fs.BoolVar(&o.quiet, "quiet", false, "no log line per call on stderr")
	fs.BoolVar(&o.effects, "effects", false, "show a click ripple in the browser")
	fs.StringVar(&o.record, "record", "", "write the agent's actions to this file as a `run` script")
	return cmd
}

// runMCP serves the DOM tool (dom/mcp) on the page the connection flags
// name. It serves over stdio by default, or streamable HTTP with --http.
func runMCP(ctx context.Context, conn connFlags, o mcpOpts) error {
	switch mcp.View(o.view) {
	case mcp.ViewDiff, mcp.ViewFull, mcp.ViewNone:
	default:
		return usageError{fmt.Sprintf("--view %q: want diff, full or none", o.view)}
	}
	if o.token != "" && o.http == "" {
		return usageError{"--token guards the HTTP endpoint: give --http ADDR too"}
	}
	if o.http != "" {
		if err := mcp.CheckListen(o.http, conn.allowRemote); err != nil {
			return usageError{err.Error()}
		}
	}
	s, err := conn.openWithin(ctx)
	if err != nil {
		return err
	}
	defer s.Close()
	st := settingsFrom(ctx)
	cfg := live.Config{VisualEffects: o.effects, TierDisabled: st.tierOff}
	cfg.Viewport, _ = conn.emulation() // checked by openWithin
	svc := live.NewService(s.page, cfg)
	defer func() { _ = svc.Close() }()
	var logw io.Writer = os.Stderr
	if o.quiet {
		logw = nil
	}
	// The first capture runs until a call that wants no view of this page
	// (dom_navigate, dom_tabs…) stops it, and is over before svc closes.
	wctx, stopWarm := context.WithCancel(ctx)
	var warm sync.WaitGroup
	warm.Go(func() { warmUp(wctx, svc, logw) })
	defer func() { stopWarm(); warm.Wait() }()
	var rec *mcp.Recording
	server := mcp.New(mcp.Config{
		Service:    svc,
		Page:       s.page,
		Browser:    s.browser,
		NewService: func(p dom.Page) mcp.Service { return live.NewService(p, cfg) },
		Observer: func(c mcp.Call) {
			if c.Tool != "dom_snapshot" {
				stopWarm()
			}
			rec.Observe(c)
		},
		View:    mcp.View(o.view),
		Log:     logw,
		Version: version(),
	})
	defer server.Close()
	if rec, err = mcp.RecordTo(server, o.record); err != nil {
		return err
	}
	if o.http == "" {
		err := server.Run(ctx, &sdk.StdioTransport{})
		if ctx.Err() != nil || errors.Is(err, io.EOF) {
			return nil // the client went away, or we were asked to stop
		}
		return err
	}
	return serveHTTP(ctx, server, o.http, mcp.HTTPOptions{Token: o.token, AllowRemote: conn.allowRemote})
}

// warmUp models the page before the agent's first call. That call comes
// after the agent's model has read the tools, often seconds later. It
// then finds the page modelled and is a cheap refresh, not a full capture.
func warmUp(ctx context.Context, svc *live.Service, logw io.Writer) {
	start := time.Now()
	if _, err := svc.Snapshot(ctx, false); err != nil || logw == nil || ctx.Err() != nil {
		return // the first call captures, and says what went wrong
	}
	fmt.Fprintf(logw, "domscope mcp: page modelled in %d ms\n", time.Since(start).Milliseconds())
}

// serveHTTP serves the server at addr until ctx ends.
func serveHTTP(ctx context.Context, server *mcp.Server, addr string, o mcp.HTTPOptions) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("--http: %w", err)
	}
	hs := &http.Server{Handler: server.Handler(o), ReadHeaderTimeout: 10 * time.Second}
	fmt.Fprintf(os.Stderr, "domscope mcp: serving http://%s%s\n", ln.Addr(), mcp.Path)
	done := make(chan error, 1)
	go func() { done <- hs.Serve(ln) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = hs.Shutdown(sctx)
		return nil
	}
}
