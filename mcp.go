package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"domscope/dom"
	"domscope/dom/live"
	"domscope/dom/mcp"
)

// runMCP serves the DOM tool (dom/mcp) on the page the connection flags
// name: over stdio by default, or streamable HTTP with --http.
func runMCP(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("mcp", flag.ContinueOnError)
	var conn connFlags
	conn.register(fs)
	httpAddr := fs.String("http", "", "serve streamable HTTP at http://ADDR/mcp instead of stdio (loopback only unless --allow-remote)")
	token := fs.String("token", "", "with --http: require this bearer token (Authorization: Bearer TOKEN)")
	view := fs.String("view", string(mcp.ViewDiff), "what an action answers with besides its result: diff (the view's changed lines; the new page after a navigation), full (the whole view) or none")
	quiet := fs.Bool("quiet", false, "no log line per call on stderr")
	effects := fs.Bool("effects", false, "show a click ripple in the browser")
	fs.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: domscope mcp [flags]\n\nServes domscope's DOM tool to an LLM agent over the Model Context Protocol:\ndom_snapshot, dom_click, dom_type, dom_key and the other dom_* tools act on the\npage the connection flags name. Stdio by default; --http ADDR serves\nstreamable HTTP at /mcp.\n\nflags:")
		fs.PrintDefaults()
	}
	if err := parseFlags(ctx, fs, args, 0); err != nil {
		return err
	}
	switch mcp.View(*view) {
	case mcp.ViewDiff, mcp.ViewFull, mcp.ViewNone:
	default:
		return usageError{fmt.Sprintf("--view %q: want diff, full or none", *view)}
	}
	if *token != "" && *httpAddr == "" {
		return usageError{"--token guards the HTTP endpoint: give --http ADDR too"}
	}
	if *httpAddr != "" {
		if err := mcp.CheckListen(*httpAddr, conn.allowRemote); err != nil {
			return usageError{err.Error()}
		}
	}
	s, err := conn.openWithin(ctx)
	if err != nil {
		return err
	}
	defer s.Close()
	st := settingsFrom(ctx)
	cfg := live.Config{VisualEffects: *effects, TierDisabled: st.tierOff}
	cfg.Viewport, _ = conn.emulation() // checked by openWithin
	svc := live.NewService(s.page, cfg)
	defer func() { _ = svc.Close() }()
	var logw io.Writer = os.Stderr
	if *quiet {
		logw = nil
	}
	server := mcp.New(mcp.Config{
		Service:    svc,
		Page:       s.page,
		Browser:    s.browser,
		NewService: func(p dom.Page) mcp.Service { return live.NewService(p, cfg) },
		View:       mcp.View(*view),
		Log:        logw,
		Version:    version(),
	})
	defer server.Close()
	if *httpAddr == "" {
		err := server.Run(ctx, &sdk.StdioTransport{})
		if ctx.Err() != nil || errors.Is(err, io.EOF) {
			return nil // the client went away, or we were asked to stop
		}
		return err
	}
	return serveHTTP(ctx, server, *httpAddr, mcp.HTTPOptions{Token: *token, AllowRemote: conn.allowRemote})
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
