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
}

func (f *agentFlags) register(fs *pflag.FlagSet) {
	fs.StringVar(&f.addr, "mcp", "", "also serve the DOM tool to an LLM agent over MCP at http://ADDR/mcp, on this UI's page (loopback only unless --allow-remote)")
	fs.StringVar(&f.token, "token", "", "with --mcp: require this bearer token (Authorization: Bearer TOKEN)")
	fs.StringVar(&f.view, "view", string(mcp.ViewDiff), "with --mcp: what an action answers with besides its result: diff, full or none")
	fs.DurationVar(&f.gateTimeout, "mcp-pause-timeout", mcp.DefaultGateTimeout, "with --mcp: how long an agent's call waits while paused (p) before it fails, saying why (keep it under the client's own timeout, often 60 s)")
	f.nav.register(fs, "with --mcp: ")
}

// check refuses bad flags before anything is opened.
func (f agentFlags) check(conn connFlags) error {
	if _, err := mcp.ParseView(f.view); err != nil {
		return usageError{err.Error()}
	}
	if _, err := f.nav.policy(); err != nil {
		return err
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
		return nil, func() {}, nil
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
