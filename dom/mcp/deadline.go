package mcp

import (
	"context"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// DeadlineMeta carries a caller's deadline in a call's _meta: a context's
// deadline does not cross the transport. The agent CLI sends its
// --timeout so, and a huge page's snapshot may take that long.
const DeadlineMeta = "domscope/deadline"

// WithDeadline puts ctx's deadline, when it has one, in p's _meta. The
// server's is a little earlier, so that it answers (TIMEOUT, with advice)
// before the caller stops listening.
func WithDeadline(ctx context.Context, p *sdk.CallToolParams) {
	dl, ok := ctx.Deadline()
	if !ok {
		return
	}
	dl = dl.Add(-max(0, min(2*time.Second, time.Until(dl)/10)))
	if p.Meta == nil {
		p.Meta = sdk.Meta{}
	}
	p.Meta[DeadlineMeta] = dl.UTC().Format(time.RFC3339Nano)
}

// callerDeadline bounds ctx by the deadline in meta, when it carries one.
func callerDeadline(ctx context.Context, meta sdk.Meta) (context.Context, context.CancelFunc) {
	s, _ := meta[DeadlineMeta].(string)
	dl, err := time.Parse(time.RFC3339Nano, s)
	if s == "" || err != nil {
		return ctx, func() {}
	}
	return context.WithDeadline(ctx, dl)
}
