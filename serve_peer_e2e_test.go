package main

import (
	"bufio"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"domscope/cdpconn/cdptest"
)

// fakeServer answers every request at path with an error a real
// server would not give.
func fakeServer(t *testing.T, path string) {
	t.Helper()
	ln, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			_, _ = bufio.NewReader(c).ReadBytes('\n')
			_, _ = c.Write([]byte(`{"protocol":2,"accepted":true}` + "\n" +
				`{"protocol":2,"length":0,"error":{"code":"CDP_ERROR","text":"FAKE SERVER"}}` + "\n"))
			c.Close()
		}
	}()
}

// TestServeSocketNotOurs: a socket path that is a link to a socket
// elsewhere, or a socket of another user's, is not asked; the snapshot
// goes direct.
func TestServeSocketNotOurs(t *testing.T) {
	serveEnv(t)
	ws := cdptest.Browser(t).WebSocketURL()
	base, _ := cdptest.Serve(t, pages)
	p := cdptest.Page(t, base+"/semantic.html")
	path := socketPath(ws)
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	elsewhere := filepath.Join(t.TempDir(), "fake.sock")
	fakeServer(t, elsewhere)
	if err := os.Symlink(elsewhere, path); err != nil {
		t.Fatal(err)
	}
	direct := snap(t, ws, p.TargetID(), "--format", "text", "--direct")
	if out := snap(t, ws, p.TargetID(), "--format", "text"); out != direct {
		t.Errorf("through a link: %s", firstDiff(out, direct))
	}
	if os.Getuid() != 0 {
		t.Skip("a socket of another user's needs root to make")
	}
	_ = os.Remove(path)
	fakeServer(t, path)
	if err := os.Lchown(path, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	if out := snap(t, ws, p.TargetID(), "--format", "text"); out != direct {
		t.Errorf("another user's socket: %s", firstDiff(out, direct))
	}
}

// dialAs connects to path with this thread's effective uid set to uid.
// Linux keeps credentials per thread; the raw call changes only this one.
func dialAs(t *testing.T, path string, uid int) net.Conn {
	t.Helper()
	runtime.LockOSThread()
	if _, _, e := syscall.RawSyscall(syscall.SYS_SETRESUID, ^uintptr(0), uintptr(uid), ^uintptr(0)); e != 0 {
		runtime.UnlockOSThread()
		t.Fatalf("setresuid: %v", e)
	}
	c, err := net.Dial("unix", path)
	if _, _, e := syscall.RawSyscall(syscall.SYS_SETRESUID, ^uintptr(0), 0, ^uintptr(0)); e != 0 {
		// The thread is left locked: it ends with this goroutine.
		t.Fatalf("setresuid back: %v", e)
	}
	runtime.UnlockOSThread()
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestServeRefusesOtherUser: a client of another uid is refused, even
// when the socket's directory was opened to it.
func TestServeRefusesOtherUser(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("connecting as another user needs root")
	}
	serveEnv(t)
	ws := cdptest.Browser(t).WebSocketURL()
	srv := startServe(t, ws)
	// The socket's directory and the test's temporary ones above it.
	for d := filepath.Dir(srv.path); strings.HasPrefix(d, os.TempDir()+"/"); d = filepath.Dir(d) {
		if err := os.Chmod(d, 0o711); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Chmod(srv.path, 0o666); err != nil {
		t.Fatal(err)
	}
	c := dialAs(t, srv.path, 65534)
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(time.Minute)) // a hang guard
	_, _ = c.Write([]byte(`{"protocol":2,"format":"text"}` + "\n"))
	line, err := bufio.NewReader(c).ReadString('\n')
	if err == nil || line != "" {
		t.Errorf("another user got %q", line)
	}
	waitLog(t, srv, "refused a client of uid 65534")
	if strings.Contains(srv.stderr(), "→") {
		t.Errorf("the request was answered: %s", srv.stderr())
	}
}

// TestServeLockKept: a server that stops leaves its lock file, so two
// starting after it lock the same file; the next server starts.
func TestServeLockKept(t *testing.T) {
	serveEnv(t)
	ws := cdptest.Browser(t).WebSocketURL()
	srv := startServe(t, ws)
	_ = srv.cmd.Process.Signal(syscall.SIGTERM)
	<-srv.done
	if _, err := os.Stat(srv.path + ".lock"); err != nil {
		t.Errorf("the lock file went: %v", err)
	}
	startServe(t, ws)
}
