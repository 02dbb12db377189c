package main

import (
	"bufio"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"domscope/cdpconn/cdptest"
	"domscope/dom/serve"
)

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
	_, _ = fmt.Fprintf(c, "{\"protocol\":%d,\"format\":\"text\"}\n", serve.Protocol)
	line, err := bufio.NewReader(c).ReadString('\n')
	if err == nil || line != "" {
		t.Errorf("another user got %q", line)
	}
	waitLog(t, srv, "refused a client of uid 65534")
	if strings.Contains(srv.stderr(), "→") {
		t.Errorf("the request was answered: %s", srv.stderr())
	}
}
