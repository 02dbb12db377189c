package mcp_test

import (
	"context"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"domscope/cdpconn/cdptest"
	"domscope/dom/mcp"
)

// TestGateDefaultTimeout: with the default pause timeout, a paused call
// is answered well before a client's common 60 s timeout, saying why and
// to retry.
func TestGateDefaultTimeout(t *testing.T) {
	cdptest.SkipShort(t) // it waits the 20 s out
	if mcp.DefaultGateTimeout > 30*time.Second {
		t.Fatalf("DefaultGateTimeout is %s: clients often give up at 60 s or sooner", mcp.DefaultGateTimeout)
	}
	g := &mcp.Gate{}
	g.Pause()
	s := mcp.New(mcp.Config{Gate: g})
	st, ct := sdk.NewInMemoryTransports()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() { _ = s.Run(ctx, st) }()
	cs := connect(t, ct)
	cctx, ccancel := context.WithTimeout(ctx, 60*time.Second) // the TS SDK's default request timeout
	defer ccancel()
	res, err := cs.CallTool(cctx, &sdk.CallToolParams{Name: "dom_snapshot"})
	if err != nil {
		t.Fatalf("the client gave up before the server answered: %v", err)
	}
	text := res.Content[0].(*sdk.TextContent).Text
	if !res.IsError || !strings.Contains(text, "paused") || !strings.Contains(text, "retryable: yes") {
		t.Errorf("a paused call's answer:\n%s", text)
	}
}
