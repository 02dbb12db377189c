package serve

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"domscope/dom"
	"domscope/dom/render"
)

// fakeBrowser is a browser with tabs that cannot be attached: enough for
// the server's own logic (picking, errors, the socket, stopping).
type fakeBrowser struct {
	mu       sync.Mutex
	tabs     []dom.TargetInfo
	gone     atomic.Bool // Targets fails as a lost connection
	attaches atomic.Int32
	opened   atomic.Int32
}

func (b *fakeBrowser) Targets(context.Context) ([]dom.TargetInfo, error) {
	if b.gone.Load() {
		return nil, dom.Errorf(dom.NotAttached, nil, "the browser went away")
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]dom.TargetInfo(nil), b.tabs...), nil
}

func (b *fakeBrowser) Attach(_ context.Context, id string) (dom.Page, error) {
	b.attaches.Add(1)
	return nil, dom.Errorf(dom.AttachFailed, nil, "fake: cannot attach %s", id)
}

func (b *fakeBrowser) NewPage(context.Context, string) (dom.Page, error) {
	b.opened.Add(1)
	return nil, dom.Errorf(dom.AttachFailed, nil, "fake: cannot open a tab")
}

func (b *fakeBrowser) Close() error { return nil }

func newFake() *fakeBrowser {
	return &fakeBrowser{tabs: []dom.TargetInfo{
		{ID: "AAA", Type: "page", URL: "https://a.test/", Title: "A"},
		{ID: "BBB", Type: "page", URL: "https://b.test/cart", Title: "B"},
	}}
}

// serving starts a server of b on a socket of the test's own, set up
// by each of setup first.
func serving(t *testing.T, b dom.Browser, idle time.Duration, setup ...func(*Server)) (path string, srv *Server, done <-chan error) {
	t.Helper()
	t.Setenv("XDG_RUNTIME_DIR", t.TempDir())
	path = SocketPath("http://127.0.0.1:1")
	ln, stop, err := Listen(path)
	if err != nil {
		t.Fatal(err)
	}
	srv = New(b)
	var log strings.Builder
	srv.Stderr = &lockedWriter{w: &log}
	for _, f := range setup {
		f(srv)
	}
	ch := make(chan error, 1)
	ended := make(chan struct{})
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		ch <- srv.Serve(ctx, ln, idle)
		close(ended)
	}()
	t.Cleanup(func() {
		cancel()
		<-ended
		stop()
		srv.Close()
	})
	return path, srv, ch
}

type lockedWriter struct {
	mu sync.Mutex
	w  *strings.Builder
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

func ask(t *testing.T, path string, req Request) (string, bool, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute) // a hang guard
	defer cancel()
	if req.Format == "" && req.Op == "" {
		req.Format = "text"
	}
	return Ask(ctx, path, req)
}

// TestServedErrors: the server answers what it cannot do with the error
// the direct path gives, and bad input as a usage error.
func TestServedErrors(t *testing.T) {
	b := newFake()
	path, _, _ := serving(t, b, time.Minute)
	for _, tc := range []struct {
		req   Request
		code  dom.Code
		usage bool
	}{
		{Request{Target: "nothing"}, dom.TargetNotFound, false},
		{Request{Target: "9"}, dom.TargetNotFound, false},
		{Request{Target: "cart"}, dom.AttachFailed, false}, // picked BBB, which will not attach
		{Request{Target: "AAA", Format: "yaml"}, "", true},
		{Request{Target: "AAA", Format: "tree", MaxTokens: 5}, "", true},
		{Request{Op: OpCall, Tool: "dom_click", Target: "nothing"}, dom.TargetNotFound, false},
		{Request{Op: OpCall, Tool: ToolTab, Args: []byte(`{"tab":"0"}`)}, dom.ValidationError, false},
		{Request{Op: OpCall, Tool: "dom_click", Session: "s1"}, dom.AttachFailed, false}, // cannot open its tab
	} {
		_, ok, err := ask(t, path, tc.req)
		var se *Error
		if !ok || !errors.As(err, &se) {
			t.Errorf("%+v: ok %v, err %v; want a served error", tc.req, ok, err)
			continue
		}
		if se.Usage != tc.usage || (!tc.usage && se.Code != tc.code) {
			t.Errorf("%+v: %+v; want code %q, usage %v", tc.req, se, tc.code, tc.usage)
		}
	}
	if n := b.opened.Load(); n != 1 {
		t.Errorf("the session opened %d tabs, want 1", n)
	}
}

// TestAttachOnceForMany: requests for one tab at once share one attach,
// and a failed attach is not kept: the next request tries again.
func TestAttachOnceForMany(t *testing.T) {
	b := newFake()
	path, srv, _ := serving(t, b, time.Minute)
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() { _, _, _ = ask(t, path, Request{Target: "AAA"}) })
	}
	wg.Wait()
	if n := b.attaches.Load(); n < 1 || n > 4 {
		t.Errorf("%d attaches for 4 requests", n)
	}
	if kept := srv.pool.Len(); kept != 0 {
		t.Errorf("%d failed tabs kept", kept)
	}
	before := b.attaches.Load()
	_, _, _ = ask(t, path, Request{Target: "AAA"})
	if b.attaches.Load() != before+1 {
		t.Error("a tab that failed to attach was not tried again")
	}
}

// TestServeStops: the server stops after idle with no request, and when
// the browser goes away.
func TestServeStops(t *testing.T) {
	_, _, done := serving(t, newFake(), time.Second)
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("idle stop: %v", err)
		}
	case <-time.After(time.Minute):
		t.Fatal("the server did not stop after 1s idle")
	}

	b := newFake()
	_, _, done = serving(t, b, time.Hour)
	b.gone.Store(true)
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("browser gone: %v", err)
		}
	case <-time.After(time.Minute):
		t.Fatal("the server did not stop when the browser went away")
	}
}

// TestNoServer: with nothing at the socket a client goes direct.
func TestNoServer(t *testing.T) {
	t.Setenv("XDG_RUNTIME_DIR", t.TempDir())
	_, ok, err := ask(t, filepath.Join(Dir(), "none.sock"), Request{})
	if ok || err != nil {
		t.Errorf("no server: ok %v, err %v", ok, err)
	}
}

// TestCommandArgs: the agent commands' words become the tools' arguments;
// bad words are usage errors.
func TestCommandArgs(t *testing.T) {
	byName := map[string]Command{}
	for _, c := range Commands {
		byName[strings.Fields(c.Use)[0]] = c
	}
	for _, tc := range []struct {
		cmd   string
		pos   []string
		flags map[string]string
		want  string
	}{
		{"type", []string{"12", "milk"}, map[string]string{"enter": "true"}, `map[id:12 text:milk` + "\n" + `]`},
		{"scroll", []string{"12"}, nil, `map[id:12]`},
		{"scroll", []string{"bottom"}, nil, `map[dy:1e+07]`},
		{"scroll", []string{"12", "up"}, nil, `map[dy:-600 id:12]`},
		{"press", []string{"Enter", "3"}, nil, `map[id:3 key:Enter]`},
		{"wait", nil, map[string]string{"gone": "Loading"}, `map[gone:true text:Loading]`},
		{"wait", nil, map[string]string{"url": "/done", "ms": "300"}, `map[timeout:300 url:/done]`},
		{"wait", nil, map[string]string{"quiet": "500"}, `map[quiet:500]`},
		{"wait", nil, map[string]string{"text": "Saved", "quiet": "200", "ms": "3000"}, `map[quiet:200 text:Saved timeout:3000]`},
		{"wait", nil, map[string]string{"ms": "250"}, `map[ms:250]`},
	} {
		got, err := byName[tc.cmd].Args(tc.pos, tc.flags)
		if err != nil || fmtMap(got) != tc.want {
			t.Errorf("%s %v: %v, %v; want %s", tc.cmd, tc.pos, fmtMap(got), err, tc.want)
		}
	}
	for _, tc := range []struct {
		cmd   string
		pos   []string
		flags map[string]string
	}{
		{"scroll", []string{"sideways"}, nil},
		{"wait", nil, map[string]string{}},
		{"wait", nil, map[string]string{"text": "a", "gone": "b"}},
		{"wait", nil, map[string]string{"quiet": "-3"}},
		{"wait", nil, map[string]string{"url": "x", "quiet": "100"}},
	} {
		if _, err := byName[tc.cmd].Args(tc.pos, tc.flags); !errors.As(err, new(render.UsageError)) {
			t.Errorf("%s %v %v: %v, want a usage error", tc.cmd, tc.pos, tc.flags, err)
		}
	}
}

func fmtMap(m map[string]any) string {
	if m == nil {
		return "<nil>"
	}
	return fmt.Sprint(m)
}
