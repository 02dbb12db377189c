package main

import (
	"strings"
	"syscall"
	"testing"
	"time"

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

// TestServeStopped: a server stopped by SIGSTOP (^Z) does not accept;
// the snapshot goes direct well within its --timeout instead of failing.
func TestServeStopped(t *testing.T) {
	serveEnv(t)
	ws := cdptest.Browser(t).WebSocketURL()
	base, _ := cdptest.Serve(t, pages)
	p := cdptest.Page(t, base+"/semantic.html")
	srv := startServe(t, ws)
	served := snap(t, ws, p.TargetID(), "--format", "text")
	if err := srv.cmd.Process.Signal(syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	// Runs before startServe's SIGTERM: a stopped process would keep it.
	t.Cleanup(func() { _ = srv.cmd.Process.Signal(syscall.SIGCONT) })
	if out := snap(t, ws, p.TargetID(), "--format", "text", "--timeout", "60s"); out != served {
		t.Errorf("with the server stopped: %s", firstDiff(out, served))
	}
}

// waitLog waits for the server to log want; a hang guard only.
func waitLog(t *testing.T, srv *server, want string) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for !strings.Contains(srv.stderr(), want) {
		if time.Now().After(deadline) {
			t.Fatalf("the server did not log %q: %s", want, srv.stderr())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestServeSlowTab: while one tab is slow to attach, another tab is
// served; the slow tab's request ends at its own --timeout.
func TestServeSlowTab(t *testing.T) {
	serveEnv(t)
	ws := cdptest.Browser(t).WebSocketURL()
	base, _ := cdptest.Serve(t, pages)
	slow := cdptest.Page(t, base+"/serve/other.html?slow")
	fast := cdptest.Page(t, base+"/semantic.html")
	srv := startServeHooked(t, ws, "slow-attach")
	type result struct {
		stderr string
		code   int
	}
	done := make(chan result, 1)
	go func() {
		_, stderr, code := runCLI(t, "", "snapshot", "--endpoint", ws, "--target", slow.TargetID(), "--timeout", "20s")
		done <- result{stderr, code}
	}()
	waitLog(t, srv, "test: attaching the slow tab")
	out := snap(t, ws, fast.TargetID(), "--format", "text", "--timeout", "10s")
	if srv.served() != 1 || !strings.Contains(out, "Create an account") {
		t.Errorf("the other tab was not served: %s\n%s", srv.stderr(), out)
	}
	r := <-done
	if r.code == 0 || !strings.Contains(r.stderr, "TIMEOUT") {
		t.Errorf("the slow tab: exit %d, %q; want a timeout", r.code, r.stderr)
	}
}
