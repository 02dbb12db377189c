package main

import (
	"bufio"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"domscope/cdpconn/cdptest"
	"domscope/dom/serve"
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
			_, _ = fmt.Fprintf(c, "{\"protocol\":%d,\"accepted\":true}\n{\"protocol\":%[1]d,\"length\":0,\"error\":{\"code\":\"CDP_ERROR\",\"text\":\"FAKE SERVER\"}}\n", serve.Protocol)
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
	path := serve.SocketPath(ws)
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

// TestServeLockGone: a server that stops removes its lock file with its
// socket (nothing is left in the directory); the next server starts.
func TestServeLockGone(t *testing.T) {
	serveEnv(t)
	ws := cdptest.Browser(t).WebSocketURL()
	srv := startServe(t, ws)
	_ = srv.cmd.Process.Signal(syscall.SIGTERM)
	<-srv.done
	if _, err := os.Stat(srv.path + ".lock"); !os.IsNotExist(err) {
		t.Errorf("the lock file stayed: %v", err)
	}
	startServe(t, ws)
}
