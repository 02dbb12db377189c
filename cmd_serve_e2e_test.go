package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"domscope/cdpconn"
	"domscope/cdpconn/cdptest"
	"domscope/dom/serve"
)

// server is a `domscope serve` the test started.
type server struct {
	cmd  *exec.Cmd
	path string
	mu   sync.Mutex
	log  strings.Builder
	done chan struct{}
}

func (s *server) Write(b []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.log.Write(b)
}

// stderr is what the server logged so far.
func (s *server) stderr() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.log.String()
}

// served counts the requests the server answered.
func (s *server) served() int { return strings.Count(s.stderr(), "domscope serve: snapshot ") }

// awaitServed is served once it reaches n, or after a minute (a hang
// guard). The server logs a request just after sending its reply, so
// the client may have its view before the line is there.
func (s *server) awaitServed(n int) int {
	for deadline := time.Now().Add(time.Minute); s.served() < n && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
	}
	return s.served()
}

// serveEnv gives the test its own socket directory.
func serveEnv(t *testing.T) {
	t.Setenv("XDG_RUNTIME_DIR", t.TempDir())
}

// startServe starts `domscope serve --endpoint ws` and waits for its
// socket. It is stopped when the test ends.
func startServe(t *testing.T, ws string, extra ...string) *server {
	t.Helper()
	return startServeHooked(t, ws, "", extra...)
}

// startServeHooked is startServe with the test hooks named in hooks
// (serve_hooks_test.go).
func startServeHooked(t *testing.T, ws, hooks string, extra ...string) *server {
	t.Helper()
	args, _ := json.Marshal(append([]string{"serve", "--endpoint", ws}, extra...))
	s := &server{path: serve.SocketPath(ws), done: make(chan struct{})}
	s.cmd = exec.Command(os.Args[0], "-test.run=^$")
	s.cmd.Env = append(os.Environ(), "DOMSCOPE_CLI_ARGS="+string(args), "DOMSCOPE_SERVE_HOOK="+hooks)
	s.cmd.Stderr = s
	if err := s.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { _ = s.cmd.Wait(); close(s.done) }()
	t.Cleanup(func() {
		_ = s.cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-s.done:
		case <-time.After(time.Minute):
			_ = s.cmd.Process.Kill()
		}
	})
	deadline := time.Now().Add(time.Minute) // a hang guard
	for {
		// It says so once it is connected to the browser too.
		if strings.Contains(s.stderr(), "listening on") {
			c, err := net.Dial("unix", s.path)
			if err != nil {
				t.Fatalf("domscope serve said it listens, but: %v", err)
			}
			c.Close()
			return s
		}
		select {
		case <-s.done:
			t.Fatalf("domscope serve ended: %s", s.stderr())
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("domscope serve did not listen: %s", s.stderr())
		}
	}
}

// snap runs `domscope snapshot` on the tab with args; it must succeed.
func snap(t *testing.T, ws, target string, args ...string) string {
	t.Helper()
	out, stderr, code := runCLI(t, "", append([]string{"snapshot", "--endpoint", ws, "--target", target}, args...)...)
	if code != 0 {
		t.Fatalf("snapshot %v: exit %d: %s", args, code, stderr)
	}
	return out
}

// stampRE is json's timestamp: the moment of each read.
var stampRE = regexp.MustCompile(`"timestamp": ?"[^"]*"`)

func unstamped(s string) string { return stampRE.ReplaceAllString(s, `"timestamp":""`) }

// sameViews checks that served and direct snapshots print the same, in
// text and in json with backend ids, and that the server answered.
func sameViews(t *testing.T, ws, target string, srv *server) {
	t.Helper()
	sameViewsAs(t, ws, target, srv, func(s string) string { return s })
}

// sameViewsAs is sameViews of the views as norm leaves them.
func sameViewsAs(t *testing.T, ws, target string, srv *server, norm func(string) string) {
	t.Helper()
	for _, args := range [][]string{{"--format", "text"}, {"--format", "json", "--backend-ids"}, {"--format", "tree"}} {
		before := srv.served()
		served := snap(t, ws, target, args...)
		if srv.awaitServed(before+1) != before+1 {
			t.Fatalf("%v: the server did not answer:\n%s", args, srv.stderr())
		}
		direct := snap(t, ws, target, append(args, "--direct")...)
		if srv.awaitServed(before+1) != before+1 {
			t.Fatalf("%v --direct: the server answered", args)
		}
		if a, b := norm(unstamped(served)), norm(unstamped(direct)); a != b {
			t.Errorf("%v: served and direct differ at %s", args, firstDiff(a, b))
		}
	}
}

// firstDiff shows the byte where a and b part, with text around it.
// (domtest.FirstDiff is internal to dom/.)
func firstDiff(a, b string) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	return fmt.Sprintf("byte %d:\n  served: …%s\n  direct: …%s", i,
		a[max(0, i-80):min(len(a), i+80)], b[max(0, i-80):min(len(b), i+80)])
}

// TestServeSameAsDirect: on a page at rest, served views are the direct
// ones, also on the second (refreshed) read; the socket is private; a
// second server is refused.
func TestServeSameAsDirect(t *testing.T) {
	ws, _, p, srv := servePage(t, "/semantic.html", "")
	sameViews(t, ws, p.TargetID(), srv)
	sameViews(t, ws, p.TargetID(), srv)

	for path, want := range map[string]os.FileMode{filepath.Dir(srv.path): 0o700, srv.path: 0o600} {
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != want {
			t.Errorf("%s: mode %v, want %v", path, fi.Mode().Perm(), want)
		}
	}
	if _, stderr, code := runCLI(t, "", "serve", "--endpoint", ws); code == 0 || !strings.Contains(stderr, "another domscope serve") {
		t.Errorf("a second server: exit %d, %q", code, stderr)
	}
	// The view flags shape a served view as a direct one.
	for _, args := range [][]string{{"--selector", "nav"}, {"--max-tokens", "40"}, {"--offscreen=false", "--bounds"}, {"--format", "json", "--max-depth", "2"}} {
		served := snap(t, ws, p.TargetID(), args...)
		direct := snap(t, ws, p.TargetID(), append(args, "--direct")...)
		if unstamped(served) != unstamped(direct) {
			t.Errorf("%v: served and direct differ at %s", args, firstDiff(served, direct))
		}
	}
	if n := srv.awaitServed(10); n != 10 {
		t.Errorf("the server answered %d requests, want 10", n)
	}
	// What the server does not do goes direct.
	before := srv.served()
	snap(t, ws, p.TargetID(), "--stats")
	snap(t, ws, p.TargetID(), "--viewport", "800x600")
	if srv.served() != before {
		t.Errorf("--stats or --viewport was served")
	}
}

// evaluate runs a script in the page.
func evaluate(t *testing.T, p *cdpconn.Page, expr string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := p.Call(ctx, "Runtime.evaluate", map[string]any{"expression": expr, "awaitPromise": true}, nil); err != nil {
		t.Fatal(err)
	}
}

// TestServeTimerPage: a page that changes itself on a timer is read by
// the server while it ticks; once it stops, the served view is what a
// direct snapshot prints, the ids of the live model aside.
func TestServeTimerPage(t *testing.T) {
	ws, _, p, srv := servePage(t, "/serve/timer.html", "")
	id := p.TargetID()
	for range 3 {
		snap(t, ws, id, "--format", "json")
		evaluate(t, p, `new Promise(r => setTimeout(r, 50))`)
	}
	evaluate(t, p, `stop(); new Promise(r => setTimeout(r, 50))`)
	if served := snap(t, ws, id, "--format", "text", "--direct"); !strings.Contains(served, " item ") {
		t.Fatalf("the page did not tick:\n%s", served)
	}
	sameViewsAs(t, ws, id, srv, renumbered)
}

var idRE = regexp.MustCompile(`node_\d+|\[\d+\]`)

// renumbered numbers the ids of a view in order of appearance. The live
// model keeps a node's id while the page changes around it; a direct
// snapshot numbers the page afresh.
func renumbered(s string) string {
	seen := map[string]string{}
	return idRE.ReplaceAllStringFunc(s, func(id string) string {
		n := strings.Trim(strings.TrimPrefix(id, "node_"), "[]")
		if seen[n] == "" {
			seen[n] = string(rune('a'+len(seen)%26)) + strings.Repeat("'", len(seen)/26)
		}
		return "#" + seen[n]
	})
}

// TestServeFollowsNavigation: after the tab goes to another page, the
// server shows that page, as a direct snapshot does, ids too: a new
// document is numbered afresh (live.Config.FreshDocumentIDs).
func TestServeFollowsNavigation(t *testing.T) {
	ws, base, p, srv := servePage(t, "/semantic.html", "")
	id := p.TargetID()
	first := snap(t, ws, id, "--format", "text")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := p.Navigate(ctx, base+"/serve/other.html"); err != nil {
		t.Fatal(err)
	}
	then := snap(t, ws, id, "--format", "text")
	if then == first || !strings.Contains(then, "Only here") {
		t.Fatalf("the served view is not the new page:\n%s", then)
	}
	sameViews(t, ws, id, srv)
}

// TestServePrivacy: a secret typed into password fields never leaves the
// server, whole or with its spaces squeezed, in any format.
func TestServePrivacy(t *testing.T) {
	ws, _, p, srv := servePage(t, "/serve/secret.html", "")
	id := p.TargetID()
	snap(t, ws, id, "--format", "text") // the model is resident before the typing
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	const secret = " HUNTER  two   2024 "
	for _, field := range []string{"pw", "np"} {
		evaluate(t, p, `document.getElementById("`+field+`").focus()`)
		if err := p.Call(ctx, "Input.insertText", map[string]any{"text": secret}, nil); err != nil {
			t.Fatal(err)
		}
	}
	for _, args := range [][]string{{"--format", "text"}, {"--format", "json", "--backend-ids"}, {"--format", "tree"}, {"--format", "json", "--bounds"}} {
		out := snap(t, ws, id, args...)
		for _, s := range []string{secret, strings.TrimSpace(secret), "HUNTER two 2024", "HUNTER"} {
			if i := strings.Index(out, s); i >= 0 {
				t.Errorf("%v leaks %q: …%s…", args, s, out[max(0, i-60):min(len(out), i+40)])
			}
		}
	}
	if srv.awaitServed(5) != 5 {
		t.Errorf("the server answered %d requests, want 5", srv.served())
	}
	// Nor is it in the server's log.
	for _, s := range []string{strings.TrimSpace(secret), "HUNTER"} {
		if strings.Contains(srv.stderr(), s) {
			t.Errorf("the server's log has %q: %s", s, srv.stderr())
		}
	}
}

// staleSocket leaves a socket file at path with no server behind it.
func staleSocket(t *testing.T, path string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: path, Net: "unix"})
	if err != nil {
		t.Fatal(err)
	}
	ln.SetUnlinkOnClose(false)
	ln.Close()
	if _, err := os.Stat(path); err != nil {
		t.Fatal(err)
	}
}

// TestServeStaleSocket: a socket file with no server behind it sends
// snapshot the direct way with the same output; a server replaces it.
func TestServeStaleSocket(t *testing.T) {
	serveEnv(t)
	ws := cdptest.Browser(t).WebSocketURL()
	base, _ := cdptest.Serve(t, pages)
	p := cdptest.Page(t, base+"/semantic.html")
	id := p.TargetID()
	staleSocket(t, serve.SocketPath(ws))
	stale := snap(t, ws, id, "--format", "text")
	if direct := snap(t, ws, id, "--format", "text", "--direct"); stale != direct {
		t.Errorf("with a stale socket: %s", firstDiff(stale, direct))
	}
	srv := startServe(t, ws)
	sameViews(t, ws, id, srv)
}

// TestServeKilled: once the server is killed, the next snapshot goes
// direct and prints the same.
func TestServeKilled(t *testing.T) {
	ws, _, p, srv := servePage(t, "/semantic.html", "")
	id := p.TargetID()
	served := snap(t, ws, id, "--format", "text")
	if srv.awaitServed(1) != 1 {
		t.Fatalf("the server did not answer: %s", srv.stderr())
	}
	_ = srv.cmd.Process.Kill()
	<-srv.done
	if _, err := os.Stat(srv.path); err != nil {
		t.Fatalf("a killed server should leave its socket: %v", err)
	}
	if after := snap(t, ws, id, "--format", "text"); after != served {
		t.Errorf("after the kill: %s", firstDiff(after, served))
	}
}

// TestServeUnknownTarget: a tab that is not there is a clear error with
// the direct path's exit code; the server goes on serving.
func TestServeUnknownTarget(t *testing.T) {
	ws, base, p, srv := servePage(t, "/semantic.html", "")
	_, stderr, code := runCLI(t, "", "snapshot", "--endpoint", ws, "--target", "no-such-tab-anywhere")
	_, dstderr, dcode := runCLI(t, "", "snapshot", "--endpoint", ws, "--target", "no-such-tab-anywhere", "--direct")
	if code != dcode || code == 0 || !strings.Contains(stderr, "no tab matches") || stderr != dstderr {
		t.Errorf("unknown tab: exit %d %q; direct: exit %d %q", code, stderr, dcode, dstderr)
	}
	if srv.awaitServed(1) != 1 {
		t.Errorf("the server did not answer the unknown tab: %s", srv.stderr())
	}
	// A tab that closes under the server: the next request says so.
	q := cdptest.Page(t, base+"/serve/other.html")
	gone := q.TargetID()
	snap(t, ws, gone, "--format", "text")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := q.Call(ctx, "Page.close", nil, nil); err != nil {
		t.Fatal(err)
	}
	if _, stderr, code := runCLI(t, "", "snapshot", "--endpoint", ws, "--target", gone); code == 0 || !strings.Contains(stderr, "TARGET_NOT_FOUND") {
		t.Errorf("closed tab: exit %d %q", code, stderr)
	}
	sameViews(t, ws, p.TargetID(), srv)
}

// TestServeIdle: with no request for --idle, the server stops and
// removes its socket.
func TestServeIdle(t *testing.T) {
	serveEnv(t)
	ws := cdptest.Browser(t).WebSocketURL()
	srv := startServe(t, ws, "--idle", "1s")
	select {
	case <-srv.done:
	case <-time.After(2 * time.Minute): // a hang guard
		t.Fatal("the server did not stop when idle")
	}
	if code := srv.cmd.ProcessState.ExitCode(); code != 0 {
		t.Errorf("exit %d: %s", code, srv.stderr())
	}
	if _, err := os.Stat(srv.path); !os.IsNotExist(err) {
		t.Errorf("the socket is still there: %v", err)
	}
	if !strings.Contains(srv.stderr(), "no request for 1s") {
		t.Errorf("log: %s", srv.stderr())
	}
}

// TestServeKilledMidRequest: a server killed while it works on a
// request (held there by a test hook until the kill lands) leaves the
// snapshot to go direct; it prints the page all the same.
func TestServeKilledMidRequest(t *testing.T) {
	ws, _, p, srv := servePage(t, "/serve/big.html", "hold")
	type result struct {
		out, stderr string
		code        int
	}
	done := make(chan result, 1)
	go func() {
		out, stderr, code := runCLI(t, "", "snapshot", "--endpoint", ws, "--target", p.TargetID(), "--format", "text")
		done <- result{out, stderr, code}
	}()
	waitLog(t, srv, "test: holding the request")
	_ = srv.cmd.Process.Kill()
	r := <-done
	if r.code != 0 || !strings.Contains(r.out, "Open 1499") {
		t.Fatalf("exit %d: %s\n%s", r.code, r.stderr, r.out[:min(len(r.out), 300)])
	}
	if srv.served() != 0 {
		t.Errorf("the server answered: %s", srv.stderr())
	}
}

// TestServeClientRules: the rules a snapshot's settings switch off go
// with the request. The server builds and flattens with them, and with
// the defaults again for the next request without them.
func TestServeClientRules(t *testing.T) {
	ws, _, p, srv := servePage(t, "/nonsemantic.html", "")
	id := p.TargetID()
	cfg := writeConfig(t, "[rules]\ntier_off = [\"heuristic:onclick\", \"class-words\"]\nflatten_off = [\"collapse-single\"]\n")
	plain := snap(t, ws, id, "--format", "text")
	for _, args := range [][]string{{"--format", "text"}, {"--format", "json", "--backend-ids"}, {"--format", "tree"}} {
		args = append(args, "--config", cfg)
		served := snap(t, ws, id, args...)
		direct := snap(t, ws, id, append(args, "--direct")...)
		if unstamped(served) != unstamped(direct) {
			t.Errorf("%v: served and direct differ at %s", args, firstDiff(served, direct))
		}
	}
	if ruled := snap(t, ws, id, "--format", "text", "--config", cfg); ruled == plain {
		t.Fatalf("the rules changed nothing on the page:\n%s", plain)
	}
	sameViews(t, ws, id, srv)
	if srv.awaitServed(8) != 8 {
		t.Errorf("the server answered %d requests, want 8", srv.served())
	}
}

// TestServeBrowserGone: when its browser goes away, the server stops and
// removes its socket.
func TestServeBrowserGone(t *testing.T) {
	serveEnv(t)
	cdptest.SkipShort(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	b, err := cdpconn.Launch(ctx, cdpconn.LaunchOptions{Headless: true})
	if err != nil {
		t.Fatal(err)
	}
	srv := startServe(t, b.WebSocketURL())
	_ = b.Close() // stops the Chromium it launched
	select {
	case <-srv.done:
	case <-time.After(2 * time.Minute): // a hang guard
		t.Fatal("the server did not stop when its browser went")
	}
	if _, err := os.Stat(srv.path); !os.IsNotExist(err) {
		t.Errorf("the socket is still there: %v", err)
	}
	if !strings.Contains(srv.stderr(), "the browser went away") {
		t.Errorf("log: %s", srv.stderr())
	}
}

// servePage opens path of the test pages in the shared browser, then
// starts a server with hooks (serve_hooks_test.go; "" for none): the
// start of most serve tests.
func servePage(t *testing.T, path, hooks string) (ws, base string, p *cdpconn.Page, srv *server) {
	t.Helper()
	serveEnv(t)
	ws = cdptest.Browser(t).WebSocketURL()
	base, _ = cdptest.Serve(t, pages)
	p = cdptest.Page(t, base+path)
	return ws, base, p, startServeHooked(t, ws, hooks)
}
