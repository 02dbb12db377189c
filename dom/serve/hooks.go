package serve

import (
	"context"
	"net"

	"domscope/dom"
	"domscope/dom/live"
)

// Hooks are for tests only: they stop a server at a known point. All
// are nil in the program.
var Hooks struct {
	// Request runs once a request is read and checked.
	Request func(req Request)
	// Write sends a reply's bytes in place of c.Write.
	Write func(c net.Conn, b []byte) error
	// Attach runs before a tab at url is attached.
	Attach func(ctx context.Context, url string)
	// Captured runs between a tab's capture and its --selector.
	Captured func(ctx context.Context, p dom.Page, svc *live.Service)
}
