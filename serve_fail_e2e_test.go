package main

import (
	"strings"
	"testing"

	"domscope/cdpconn/cdptest"
)

// TestServeDiesMidReply: a server that dies halfway through a reply
// sends the snapshot direct; nothing cut off is printed.
func TestServeDiesMidReply(t *testing.T) {
	serveEnv(t)
	ws := cdptest.Browser(t).WebSocketURL()
	base, _ := cdptest.Serve(t, pages)
	p := cdptest.Page(t, base+"/semantic.html")
	srv := startServeHooked(t, ws, "die-mid-reply")
	out := snap(t, ws, p.TargetID(), "--format", "text")
	if direct := snap(t, ws, p.TargetID(), "--format", "text", "--direct"); out != direct {
		t.Errorf("after a reply cut off: %s", firstDiff(out, direct))
	}
	<-srv.done
}

// TestServePanicInRequest: a panic in one request sends that snapshot
// direct; the server lives on and answers the next.
func TestServePanicInRequest(t *testing.T) {
	serveEnv(t)
	ws := cdptest.Browser(t).WebSocketURL()
	base, _ := cdptest.Serve(t, pages)
	p := cdptest.Page(t, base+"/semantic.html")
	srv := startServeHooked(t, ws, "panic-once")
	first := snap(t, ws, p.TargetID(), "--format", "text")
	if !strings.Contains(srv.stderr(), "internal error") {
		t.Fatalf("no panic was met: %s", srv.stderr())
	}
	second := snap(t, ws, p.TargetID(), "--format", "text")
	if first != second {
		t.Errorf("served after the panic: %s", firstDiff(second, first))
	}
	if srv.served() != 1 {
		t.Errorf("the server answered %d requests after its panic, want 1: %s", srv.served(), srv.stderr())
	}
}
