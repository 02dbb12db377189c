package serve

import (
	"os"
	"path/filepath"
	"testing"

	"domscope/dom/serve/sock"
)

// TestSocketPath: the ways of writing one endpoint name one socket, in
// $XDG_RUNTIME_DIR/domscope; other endpoints name others.
func TestSocketPath(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("XDG_RUNTIME_DIR", dir)
	same := []string{"", "127.0.0.1:9222", "http://127.0.0.1:9222", "http://127.0.0.1:9222/", "HTTP://LOCALHOST:9222"}
	want := SocketPath(same[0])
	if filepath.Dir(want) != filepath.Join(dir, "domscope") {
		t.Errorf("socket %s is not in $XDG_RUNTIME_DIR/domscope", want)
	}
	for _, e := range same {
		if got := SocketPath(e); got != want {
			t.Errorf("%q: %s, want %s", e, got, want)
		}
	}
	for _, e := range []string{"http://127.0.0.1:9333", "ws://127.0.0.1:9222/devtools/browser/x", "wss://farm.example/?token=SECRETTOKEN"} {
		got := SocketPath(e)
		if got == want {
			t.Errorf("%q shares the default's socket", e)
		}
		if len(filepath.Base(got)) != len("0123456789abcdef.sock") {
			t.Errorf("%q: socket name %s", e, filepath.Base(got))
		}
	}
}

// TestPrivateDir: a socket directory others can enter is refused to a
// client and made private by a server.
func TestPrivateDir(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "domscope")
	if err := sock.PrivateDir(dir, false); err == nil {
		t.Error("a missing directory was accepted")
	}
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := sock.PrivateDir(dir, false); err == nil {
		t.Error("a client accepted a directory open to others")
	}
	if err := sock.PrivateDir(dir, true); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(dir); fi.Mode().Perm() != 0o700 {
		t.Errorf("mode %v after the server's check, want 0700", fi.Mode().Perm())
	}
	file := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := sock.PrivateDir(file, true); err == nil {
		t.Error("a file was taken for the socket directory")
	}
}

// TestSocketLeavesNothing: a server that stops removes its socket and
// its lock file; while it runs, a second server is refused.
func TestSocketLeavesNothing(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "domscope")
	path := filepath.Join(dir, "x.sock")
	_, stop, err := Listen(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := Listen(path); err == nil {
		t.Fatal("a second server took the socket")
	}
	stop()
	if left, _ := os.ReadDir(dir); len(left) != 0 {
		t.Errorf("after stop %s holds %v", dir, left)
	}
	_, stop, err = Listen(path)
	if err != nil {
		t.Fatalf("after stop a new server cannot start: %v", err)
	}
	stop()
}
