package serve

import (
	"context"
	"encoding/json"
	"net"
	"strings"
	"testing"
	"time"

	"domscope/dom/query"
)

// servingLogged is serving with the request log kept, to read back.
func servingLogged(t *testing.T) (path string, log func() string) {
	t.Helper()
	t.Setenv("XDG_RUNTIME_DIR", t.TempDir())
	path = SocketPath("http://127.0.0.1:1")
	ln, stop, err := Listen(path)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	w := &lockedWriter{w: &b}
	srv := New(newFake())
	srv.Stderr, srv.Log = w, w
	ctx, cancel := context.WithCancel(context.Background())
	ended := make(chan struct{})
	go func() {
		_ = srv.Serve(ctx, ln, time.Minute)
		close(ended)
	}()
	t.Cleanup(func() {
		cancel()
		<-ended
		stop()
		srv.Close()
	})
	return path, func() string {
		w.mu.Lock()
		defer w.mu.Unlock()
		return b.String()
	}
}

// exchange sends line to the server at path and returns all it answers.
func exchange(t *testing.T, path string, line []byte) string {
	t.Helper()
	c, err := net.Dial("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(time.Minute)) // a hang guard
	go func() { _, _ = c.Write(line) }()
	var out []byte
	buf := make([]byte, 4096)
	for {
		n, err := c.Read(buf)
		out = append(out, buf[:n]...)
		if err != nil {
			return string(out)
		}
	}
}

// TestServeBadRequests: the server checks a request as snapshot checks
// its flags, reads no more than 64 KiB of it, and logs none of its
// strings.
func TestServeBadRequests(t *testing.T) {
	path, log := servingLogged(t)
	req := Request{Protocol: Protocol, Target: "AAA", Shape: query.Shape{Offscreen: true}, Timeout: time.Minute}
	for _, format := range []string{"xml\x1b]0;owned\x07", ""} {
		req.Format = format
		b, _ := json.Marshal(req)
		if got := exchange(t, path, append(b, '\n')); !strings.Contains(got, `"usage":true`) || !strings.Contains(got, "unknown --format") {
			t.Errorf("format %q: %s", format, got)
		}
	}
	// A request line over 64 KiB is not read to its end.
	req.Format, req.Target = "text", strings.Repeat("x", 100<<10)
	b, _ := json.Marshal(req)
	if got := exchange(t, path, append(b, '\n')); strings.Contains(got, "accepted") || !strings.Contains(got, "over 65536 bytes") {
		t.Errorf("a long request: %.300s", got)
	}
	if l := log(); strings.ContainsAny(l, "\x1b\x07") || strings.Contains(l, "owned") || !strings.Contains(l, "(unknown) → usage error") {
		t.Errorf("log: %q", l)
	}
}
