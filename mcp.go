package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"sync"
	"time"

	"github.com/spf13/cobra"

	"domscope/cdpconn"
	"domscope/dom/live"
	"domscope/dom/mcp"
	"domscope/tui/cli"
)

// mcpOpts are the mcp command's own flags.
type mcpOpts struct {
	http         string
	token        string
	noToken      bool
	allowedHosts []string
	view         string
	quiet        bool
	effects      bool
	nav          policyFlags
	record       string
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
	fs.StringVar(&o.token, "token", "", "with --http: require this bearer token (Authorization: Bearer TOKEN, or ?token=TOKEN); without it one is made up and printed")
	fs.BoolVar(&o.noToken, "no-token", false, "with --http: require no token (any local user, or anyone who can reach --allow-remote's address, drives the browser)")
	fs.StringSliceVar(&o.allowedHosts, "allowed-hosts", nil, "with --http: more host names the Host header may give (loopback names, IP addresses and the --http host always may)")
	fs.StringVar(&o.view, "view", string(mcp.ViewDiff), "what an action answers with besides its result: diff (the view's changed lines; the new page after a navigation), full (the whole view) or none")
	fs.BoolVar(&o.quiet, "quiet", false, "no log line per call on stderr")
	fs.BoolVar(&o.effects, "effects", false, "show a click ripple in the browser")
	o.nav.register(fs, "")
	fs.StringVar(&o.record, "record", "", "write the agent's actions to this file as a `run` script")
	return cmd
}

// runMCP serves the DOM tool (dom/mcp) on the page the connection flags
// name. It serves over stdio by default, or streamable HTTP with --http.
func runMCP(ctx context.Context, conn connFlags, o mcpOpts) error {
	view, err := mcp.ParseView(o.view)
	if err != nil {
		return usageError{err.Error()}
	}
	nav, err := o.nav.policy()
	if err != nil {
		return err
	}
	if o.token != "" && o.http == "" {
		return usageError{"--token guards the HTTP endpoint: give --http ADDR too"}
	}
	if o.noToken && (o.token != "" || o.http == "") {
		return usageError{"--no-token is for --http ADDR without --token"}
	}
	if o.http != "" {
		if err := mcp.CheckListen(o.http, conn.allowRemote); err != nil {
			return usageError{err.Error()}
		}
		if o.token == "" && !o.noToken {
			o.token = mcp.NewToken()
		}
	}
	s, err := conn.openWithin(ctx)
	var usage usageError
	if errors.As(err, &usage) {
		return err
	}
	st := cli.From(ctx)
	cfg := live.Config{VisualEffects: o.effects, TierDisabled: st.TierOff}
	cfg.Viewport, _ = conn.emulation() // checked by openWithin
	var logw io.Writer = os.Stderr
	if o.quiet {
		logw = nil
	}
	wctx, stopWarm := context.WithCancel(ctx)
	var warm sync.WaitGroup
	defer func() { stopWarm(); warm.Wait() }()
	var rec *mcp.Recording
	mc := mcp.Config{
		Observer: func(c mcp.Call) {
			if c.Tool != "dom_snapshot" {
				stopWarm()
			}
			rec.Observe(c)
		},
		View:       view,
		Log:        logw,
		Version:    version(),
		Navigation: nav,
	}
	if err != nil {
		// No browser yet. The client still gets its handshake and the
		// tools; each call tries again, and says why it cannot act.
		var later lateSession
		defer later.Close()
		mc.Attach = later.opener(ctx, conn, cfg, err)
	} else {
		defer s.Close()
		svc := live.NewService(s.page, cfg)
		defer func() { _ = svc.Close() }()
		// The first capture runs until a call that wants no view of this
		// page (dom_navigate, dom_tabs…) stops it, and is over before svc
		// closes.
		warm.Go(func() { warmUp(wctx, svc, logw) })
		mc.Service, mc.Page, mc.Browser = svc, s.page, s.browser
	}
	server := mcp.NewLive(mc, cfg)
	defer server.Close()
	if rec, err = mcp.RecordTo(server, o.record); err != nil {
		return err
	}
	if o.http == "" {
		err := server.Run(ctx, mcp.Stdio(os.Stdin, os.Stdout, logw))
		if ctx.Err() != nil || errors.Is(err, io.EOF) {
			return nil // the client went away, or we were asked to stop
		}
		return err
	}
	return serveHTTP(ctx, server, o.http, mcp.HTTPOptions{Token: o.token, AllowRemote: conn.allowRemote, Listen: o.http, AllowedHosts: o.allowedHosts})
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

// serveHTTP serves the server at addr until ctx ends. It prints the
// endpoint's URL, with its token, as Jupyter does.
func serveHTTP(ctx context.Context, server *mcp.Server, addr string, o mcp.HTTPOptions) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("--http: %w", err)
	}
	hs := mcp.NewHTTPServer(server.Handler(o))
	u := "http://" + ln.Addr().String() + mcp.Path
	if o.Token != "" {
		u += "?token=" + url.QueryEscape(o.Token)
	}
	fmt.Fprintf(os.Stderr, "domscope mcp: serving %s\n", u)
	if o.Token != "" {
		fmt.Fprintf(os.Stderr, "domscope mcp: or send the header Authorization: Bearer %s\n", o.Token)
	}
	if host, _, _ := net.SplitHostPort(addr); !mcp.IsLoopback(host) {
		fmt.Fprintf(os.Stderr, "domscope mcp: warning: listening beyond this machine (%s): whoever reaches it%s drives the browser\n", addr, map[bool]string{true: " with the token", false: ""}[o.Token != ""])
	}
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

// lateSession is the browser session of an mcp server that started
// without one: it is opened on the first call that can reach it.
type lateSession struct {
	mu  sync.Mutex
	s   *session
	svc *live.Service
}

// opener is Config.Attach for the connection flags. first is why the
// browser could not be reached at start. With the default endpoint and
// nothing listening there, the first call launches a headless Chromium,
// as Playwright MCP does. Else each call tries the endpoint again.
func (l *lateSession) opener(ctx context.Context, conn connFlags, cfg live.Config, first error) func(context.Context) (mcp.Attached, error) {
	launch := !conn.launch && conn.endpoint == cdpconn.DefaultEndpoint && conn.target == "" && !listening(conn.endpoint)
	if launch {
		fmt.Fprintf(os.Stderr, "domscope mcp: no browser at %s; the first call launches a headless Chromium\n", conn.endpoint)
		conn.launch, conn.headless = true, true
	} else {
		fmt.Fprintf(os.Stderr, "domscope mcp: %v\ndomscope mcp: serving anyway; each call tries again and answers ATTACH_FAILED until it can attach\n", first)
	}
	return func(context.Context) (mcp.Attached, error) {
		// The session lives as long as the server, not the call.
		s, err := conn.openWithin(ctx)
		if err != nil {
			return mcp.Attached{}, err
		}
		svc := live.NewService(s.page, cfg)
		l.mu.Lock()
		l.s, l.svc = s, svc
		l.mu.Unlock()
		return mcp.Attached{Service: svc, Page: s.page, Browser: s.browser}, nil
	}
}

// Close closes the service and the session, if they were opened.
func (l *lateSession) Close() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.svc != nil {
		_ = l.svc.Close()
	}
	if l.s != nil {
		l.s.Close()
	}
}

// listening reports whether something accepts connections at endpoint's
// host. A browser there that failed otherwise is not a missing one.
func listening(endpoint string) bool {
	u, err := url.Parse(endpoint)
	if err != nil {
		return false
	}
	c, err := net.DialTimeout("tcp", u.Host, time.Second)
	if err != nil {
		return false
	}
	_ = c.Close()
	return true
}
