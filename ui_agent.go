package main

import (
	"context"
	"fmt"
	"net"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"domscope/dom"
	"domscope/dom/live"
	"domscope/dom/mcp"
	"domscope/dom/serve"
	"domscope/tui"
)

// agentFlags serve the DOM tool beside the UI (--mcp ADDR). The agent's
// calls and the person's keys act on one service.
type agentFlags struct {
	addr  string
	token string
	view  string
	// gateTimeout is how long a call waits while the person has paused
	// the agent.
	gateTimeout time.Duration
	nav         policyFlags
	// session is the agent CLI's session the UI watches (--session).
	session string
}

func (f *agentFlags) register(fs *pflag.FlagSet) {
	fs.StringVar(&f.addr, "mcp", "", "also serve the DOM tool to an LLM agent over MCP at http://ADDR/mcp, on this UI's page (loopback only unless --allow-remote)")
	fs.StringVar(&f.token, "token", "", "with --mcp: require this bearer token (Authorization: Bearer TOKEN)")
	fs.StringVar(&f.view, "view", string(mcp.ViewDiff), "with --mcp: what an action answers with besides its result: diff, full or none")
	fs.DurationVar(&f.gateTimeout, "mcp-pause-timeout", mcp.DefaultGateTimeout, "with --mcp: how long an agent's call waits while paused (p) before it fails, saying why (keep it under the client's own timeout, often 60 s)")
	f.nav.register(fs, "with --mcp: ")
	fs.StringVar(&f.session, "session", "", "watch the agent CLI's session NAME: open its tab, and answer its commands here (M lists them, p pauses them); quitting hands it back")
}

// check refuses bad flags before anything is opened.
func (f agentFlags) check(conn connFlags) error {
	if _, err := mcp.ParseView(f.view); err != nil {
		return usageError{err.Error()}
	}
	if _, err := f.nav.policy(); err != nil {
		return err
	}
	if f.session != "" {
		switch {
		case f.addr != "":
			return usageError{"--session and --mcp: the UI watches one agent at a time"}
		case conn.targetGiven || conn.url != "" || conn.launch || conn.demo:
			return usageError{"--session opens the session's own tab on --endpoint's browser: leave out --target, --url and --launch (open a page with `domscope goto URL --session NAME`)"}
		case !serve.Loopback(conn.endpoint):
			return usageError{"--session watches an agent CLI session, which takes a loopback --endpoint"}
		}
	}
	if f.addr == "" {
		if f.token != "" {
			return usageError{"--token guards the MCP endpoint: give --mcp ADDR too"}
		}
		return nil
	}
	if f.gateTimeout <= 0 {
		return usageError{"--mcp-pause-timeout must be positive"}
	}
	if err := mcp.CheckListen(f.addr, conn.allowRemote); err != nil {
		// CheckListen names mcp's own flag
		return usageError{strings.Replace(err.Error(), "--http", "--mcp", 1)}
	}
	return nil
}

// start serves the DOM tool on svc at --mcp ADDR until stop is called.
// Without --mcp it does nothing. The server's log would draw over the UI,
// so the call log (M) takes its place.
func (f agentFlags) start(ctx context.Context, conn connFlags, svc *live.Service, s *session, cfg live.Config) (*tui.Agent, func(), error) {
	if f.addr == "" {
		return f.watchSession(conn, svc, s)
	}
	nav, err := f.nav.policy() // checked by check
	if err != nil {
		return nil, nil, err
	}
	view, err := mcp.ParseView(f.view) // checked by check
	if err != nil {
		return nil, nil, err
	}
	agent := tui.NewAgent()
	server := mcp.NewLive(mcp.Config{
		Service:     svc,
		Page:        s.page,
		Browser:     s.browser,
		View:        view,
		Observer:    agent.Observe,
		Gate:        agent.Gate,
		GateTimeout: f.gateTimeout,
		Version:     version(),
		Navigation:  nav,
	}, cfg)
	agent.SetTab = func(a dom.Actor, p dom.Page) {
		if svc, ok := a.(mcp.Service); ok {
			server.SetTab(svc, p)
		}
	}
	ln, err := net.Listen("tcp", f.addr)
	if err != nil {
		server.Close()
		return nil, nil, fmt.Errorf("--mcp: %w", err)
	}
	hs := mcp.NewHTTPServer(server.Handler(mcp.HTTPOptions{Token: f.token, AllowRemote: conn.allowRemote, Listen: f.addr}))
	go func() { _ = hs.Serve(ln) }()
	stop := func() {
		// a paused call must not hold the shutdown
		agent.Gate.Resume()
		sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		_ = hs.Shutdown(sctx)
		server.Close()
	}
	return agent, stop, nil
}

// lend asks the endpoint's service for the tab of the session the UI
// watches (--session), and makes it the UI's target.
func (f agentFlags) lend(ctx context.Context, conn *connFlags) error {
	if f.session == "" {
		return nil
	}
	r, err := serve.Here(conn.endpoint, conn.timeout)
	if err != nil {
		return err
	}
	id, err := r.Lend(ctx, f.session)
	if err != nil {
		return fmt.Errorf("--session %s: %w", f.session, err)
	}
	conn.target = id
	return nil
}

// watchSession answers the watched session's commands on the UI's
// service until stop is called; quitting hands the session back. Without
// --session it does nothing.
func (f agentFlags) watchSession(conn connFlags, svc *live.Service, s *session) (*tui.Agent, func(), error) {
	if f.session == "" {
		return nil, func() {}, nil
	}
	r, err := serve.Here(conn.endpoint, conn.timeout)
	if err != nil {
		return nil, nil, err
	}
	agent := tui.NewAgent()
	ls, err := serve.ServeLent(serve.Lent{
		Runner: r, Session: f.session,
		Browser: s.browser, Page: s.page, Service: svc,
		Observer: agent.Observe, Gate: agent.Gate, GateTimeout: f.gateTimeout,
		Argv: runArgv,
	})
	if err != nil {
		return nil, nil, err
	}
	agent.SetTab = func(a dom.Actor, p dom.Page) {
		if svc, ok := a.(*live.Service); ok {
			ls.SetTab(p, svc)
		}
	}
	return agent, ls.Stop, nil
}
