package main

import (
	"context"
	"net"

	"domscope/dom"
	"domscope/dom/live"
)

// serveTest holds hooks the tests set in a server they start. All are
// nil in the program: they let a test stop the server at a known point.
var serveTest struct {
	// request runs once a request is read and checked.
	request func(req serveRequest)
	// write sends a reply's bytes in place of c.Write.
	write func(c net.Conn, b []byte) error
	// attach runs before a tab at url is attached.
	attach func(ctx context.Context, url string)
	// captured runs between a tab's capture and its --selector.
	captured func(ctx context.Context, p dom.Page, svc *live.Service)
}
