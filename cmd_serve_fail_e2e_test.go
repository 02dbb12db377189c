package main

import (
	"encoding/json"
	"net"
	"strings"
	"syscall"
	"testing"
	"time"

	"domscope/cdpconn/cdptest"
	"domscope/dom/query"
	"domscope/dom/serve"
)

// TestServeDiesMidReply: a server that dies halfway through a reply
// sends the snapshot direct; nothing cut off is printed.
func TestServeDiesMidReply(t *testing.T) {
	ws, _, p, srv := servePage(t, "/semantic.html", "die-mid-reply")
	out := snap(t, ws, p.TargetID(), "--format", "text")
	if direct := snap(t, ws, p.TargetID(), "--format", "text", "--direct"); out != direct {
		t.Errorf("after a reply cut off: %s", firstDiff(out, direct))
	}
	<-srv.done
}

// TestServePanicInRequest: a panic in one request sends that snapshot
// direct; the server lives on and answers the next.
func TestServePanicInRequest(t *testing.T) {
	ws, _, p, srv := servePage(t, "/semantic.html", "panic-once")
	first := snap(t, ws, p.TargetID(), "--format", "text")
	if !strings.Contains(srv.stderr(), "internal error") {
		t.Fatalf("no panic was met: %s", srv.stderr())
	}
	second := snap(t, ws, p.TargetID(), "--format", "text")
	if first != second {
		t.Errorf("served after the panic: %s", firstDiff(second, first))
	}
	if srv.awaitServed(1) != 1 {
		t.Errorf("the server answered %d requests after its panic, want 1: %s", srv.served(), srv.stderr())
	}
}

// TestServePanicInAttach: a panic while a tab attaches fails that
// request with a clear error; the server lives on and serves the tab.
func TestServePanicInAttach(t *testing.T) {
	ws, _, p, srv := servePage(t, "/semantic.html", "panic-attach-once")
	_, stderr, code := runCLI(t, "", "snapshot", "--endpoint", ws, "--target", p.TargetID())
	if code == 0 || !strings.Contains(stderr, "internal error attaching the tab") || strings.Contains(stderr, "goroutine") {
		t.Errorf("exit %d, %q", code, stderr)
	}
	snap(t, ws, p.TargetID(), "--format", "text")
	if srv.awaitServed(2) != 2 {
		t.Errorf("the server answered %d requests, want 2: %s", srv.served(), srv.stderr())
	}
}

// TestServeStopped: a server stopped by SIGSTOP (^Z) does not accept;
// the snapshot goes direct well within its --timeout instead of failing.
func TestServeStopped(t *testing.T) {
	ws, _, p, srv := servePage(t, "/semantic.html", "")
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
	waitLogged(t, srv, want, 1)
}

// waitLogged waits for the server to log want n times.
func waitLogged(t *testing.T, srv *server, want string, n int) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for strings.Count(srv.stderr(), want) < n {
		if time.Now().After(deadline) {
			t.Fatalf("the server did not log %q %d times: %s", want, n, srv.stderr())
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
	if srv.awaitServed(1) != 1 || !strings.Contains(out, "Create an account") {
		t.Errorf("the other tab was not served: %s\n%s", srv.stderr(), out)
	}
	r := <-done
	if r.code == 0 || !strings.Contains(r.stderr, "TIMEOUT") {
		t.Errorf("the slow tab: exit %d, %q; want a timeout", r.code, r.stderr)
	}
}

// rawRequest dials the server and sends req, then reads its accept line.
func rawRequest(t *testing.T, srv *server, req serve.Request) *net.UnixConn {
	t.Helper()
	c, err := net.DialUnix("unix", nil, &net.UnixAddr{Name: srv.path, Net: "unix"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	b, _ := json.Marshal(req)
	if _, err := c.Write(append(b, '\n')); err != nil {
		t.Fatal(err)
	}
	// Byte by byte: nothing after the line is read.
	var line []byte
	one := make([]byte, 1)
	for len(line) == 0 || line[len(line)-1] != '\n' {
		if _, err := c.Read(one); err != nil {
			t.Fatalf("no accept line: %v (%q)", err, line)
		}
		line = append(line, one[0])
	}
	if !strings.Contains(string(line), `"accepted":true`) {
		t.Fatalf("not accepted: %s", line)
	}
	return c
}

// replyWaiting waits until some of the reply is in c's buffer.
func replyWaiting(t *testing.T, c *net.UnixConn) {
	t.Helper()
	rc, err := c.SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(2 * time.Minute) // a hang guard
	buf := make([]byte, 1)
	for {
		n := 0
		_ = rc.Control(func(fd uintptr) {
			n, _, _ = syscall.Recvfrom(int(fd), buf, syscall.MSG_PEEK|syscall.MSG_DONTWAIT)
		})
		if n > 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("no reply came")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestServeStuckClient: a client that stops reading a long reply does
// not keep the server from stopping on SIGTERM; the log says the reply
// failed.
func TestServeStuckClient(t *testing.T) {
	_, _, p, srv := servePage(t, "/serve/big.html", "")
	c := rawRequest(t, srv, serve.Request{Protocol: serve.Protocol, Target: p.TargetID(), Format: "tree",
		Shape: query.Shape{Offscreen: true}, Timeout: 5 * time.Minute})
	replyWaiting(t, c) // the reply is bigger than the socket's buffers
	_ = srv.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-srv.done:
	case <-time.After(time.Minute): // a hang guard
		t.Fatalf("the server did not stop while a client did not read: %s", srv.stderr())
	}
	if log := srv.stderr(); !strings.Contains(log, "failed") || strings.Contains(log, "→ ok") {
		t.Errorf("log: %s", log)
	}
}

// TestServeIdleTooShort: an --idle under a second is a usage error, not
// a panic.
func TestServeIdleTooShort(t *testing.T) {
	serveEnv(t)
	ws := cdptest.Browser(t).WebSocketURL()
	for _, idle := range []string{"1ns", "3ns", "0s", "-1m"} {
		_, stderr, code := runCLI(t, "", "serve", "--endpoint", ws, "--idle", idle)
		if code != 2 || !strings.Contains(stderr, "--idle") || strings.Contains(stderr, "goroutine") {
			t.Errorf("--idle %s: exit %d, %q", idle, code, stderr)
		}
	}
}

// TestServeSelectorSameSnapshot: when a navigation lands between the
// capture and the --selector query, the selector does not pick nodes of
// the old page by the ids of the new one.
func TestServeSelectorSameSnapshot(t *testing.T) {
	serveEnv(t)
	ws := cdptest.Browser(t).WebSocketURL()
	base, _ := cdptest.Serve(t, pages)
	p := cdptest.Page(t, base+"/serve/timer.html")
	snapBefore := snap(t, ws, p.TargetID(), "--format", "text", "--direct")
	if strings.Contains(snapBefore, "Only here") {
		t.Fatal("the first page has the second's button")
	}
	startServeHooked(t, ws, "navigate-after-capture")
	out, stderr, code := runCLI(t, "", "snapshot", "--endpoint", ws, "--target", p.TargetID(), "--selector", "button", "--format", "text")
	// Either the old page's button, or no match, as a direct snapshot
	// says when the page changed under its query.
	if code == 0 && !strings.Contains(out, `button "Toggle"`) || code != 0 && !strings.Contains(stderr, "no element matches") {
		t.Errorf("exit %d, %s: a view of other nodes:\n%s", code, stderr, out)
	}
}

// TestServeDropsIdleTab: a tab with no request for --idle is let go
// while the server serves another; a later request attaches it again.
func TestServeDropsIdleTab(t *testing.T) {
	serveEnv(t)
	ws := cdptest.Browser(t).WebSocketURL()
	base, _ := cdptest.Serve(t, pages)
	a := cdptest.Page(t, base+"/semantic.html")
	b := cdptest.Page(t, base+"/serve/other.html")
	srv := startServe(t, ws, "--idle", "3s")
	first := snap(t, ws, a.TargetID(), "--format", "text")
	deadline := time.Now().Add(time.Minute) // a hang guard
	for !strings.Contains(srv.stderr(), "let a tab go") {
		if time.Now().After(deadline) {
			t.Fatalf("the idle tab was kept: %s", srv.stderr())
		}
		snap(t, ws, b.TargetID(), "--format", "text")
	}
	before := srv.served()
	if again := snap(t, ws, a.TargetID(), "--format", "text"); again != first || srv.awaitServed(before+1) != before+1 {
		t.Errorf("the tab let go was not served again: %s", firstDiff(again, first))
	}
}
