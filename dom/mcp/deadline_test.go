package mcp_test

import (
	"context"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"domscope/dom/mcp"
)

// A deadline sent in a call's _meta bounds the call on the server: a
// context's own deadline does not cross the transport. Here a paused
// call gives up at the caller's 300 ms, not the gate's minute.
func TestCallerDeadline(t *testing.T) {
	g := &mcp.Gate{}
	g.Pause()
	s := mcp.New(mcp.Config{Gate: g, GateTimeout: time.Minute})
	st, ct := sdk.NewInMemoryTransports()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() { _ = s.Run(ctx, st) }()
	cs := connect(t, ct)
	params := &sdk.CallToolParams{Name: "dom_snapshot"}
	short, scancel := context.WithTimeout(ctx, 300*time.Millisecond)
	defer scancel()
	mcp.WithDeadline(short, params)
	if _, ok := params.Meta[mcp.DeadlineMeta]; !ok {
		t.Fatalf("no deadline in the call's _meta: %v", params.Meta)
	}
	cctx, ccancel := context.WithTimeout(ctx, 30*time.Second)
	defer ccancel()
	res, err := cs.CallTool(cctx, params)
	if err != nil {
		t.Fatalf("the server did not answer by the caller's deadline: %v", err)
	}
	if text := res.Content[0].(*sdk.TextContent).Text; !res.IsError || !strings.Contains(text, "cancelled") {
		t.Errorf("a call past its deadline answered:\n%s", text)
	}
}
