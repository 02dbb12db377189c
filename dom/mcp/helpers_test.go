package mcp_test

import (
	"bytes"
	"context"
	"encoding/json"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"domscope/cdpconn"
	"domscope/cdpconn/cdptest"
	"domscope/dom"
	"domscope/dom/internal/domtest"
	"domscope/dom/live"
	"domscope/dom/mcp"
)

// fixture is a server on a page of the test app and a client connected
// to it over in-memory transports. It keeps everything the server let
// out: the responses, the observer's calls and its log.
type fixture struct {
	t      *testing.T
	page   *cdpconn.Page
	svc    *live.Service
	server *mcp.Server
	cs     *sdk.ClientSession
	base   string

	mu    sync.Mutex
	out   []string // every response text
	calls []mcp.Call
	log   bytes.Buffer
}

// setup opens the test app (or page) and connects a client.
func setup(t *testing.T, view mcp.View, page string, more ...func(*mcp.Config)) *fixture {
	t.Helper()
	return setupIn(t, "mcp", view, page, more...)
}

// setupIn is setup on a page of testdata/pages/dir.
func setupIn(t *testing.T, dir string, view mcp.View, page string, more ...func(*mcp.Config)) *fixture {
	t.Helper()
	base, _ := cdptest.Serve(t, domtest.Testdata("pages", dir))
	if page == "" {
		page = "app.html"
	}
	p := cdptest.Page(t, base+"/"+page)
	f := &fixture{t: t, page: p, base: base}
	f.svc = live.NewService(p, live.Config{})
	t.Cleanup(func() { _ = f.svc.Close() })
	cfg := mcp.Config{Service: f.svc, Page: p, Browser: cdptest.Browser(t), View: view, Log: syncWriter{f},
		NewService: func(p dom.Page) mcp.Service { return live.NewService(p, live.Config{}) },
		Observer: func(c mcp.Call) {
			f.mu.Lock()
			f.calls = append(f.calls, c)
			f.mu.Unlock()
		}}
	for _, m := range more {
		m(&cfg)
	}
	f.server = mcp.New(cfg)
	t.Cleanup(f.server.Close)
	st, ct := sdk.NewInMemoryTransports()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	go func() { _ = f.server.Run(ctx, st) }()
	f.cs = connect(t, ct)
	return f
}

// connect starts a client session on transport t.
func connect(t *testing.T, tr sdk.Transport) *sdk.ClientSession {
	t.Helper()
	c := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "0"}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cs, err := c.Connect(ctx, tr, nil)
	if err != nil {
		t.Fatalf("connecting the client: %v", err)
	}
	t.Cleanup(func() { _ = cs.Close() })
	return cs
}

type syncWriter struct{ f *fixture }

func (w syncWriter) Write(b []byte) (int, error) {
	w.f.mu.Lock()
	defer w.f.mu.Unlock()
	return w.f.log.Write(b)
}

// result is one tool call's answer.
type result struct {
	text    string
	isError bool
	images  int
}

// callTool calls a tool with args and returns its answer.
func callTool(t *testing.T, cs *sdk.ClientSession, name string, args any) result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s %v: %v", name, args, err)
	}
	var r result
	r.isError = res.IsError
	for _, c := range res.Content {
		switch c := c.(type) {
		case *sdk.TextContent:
			r.text += c.Text
		case *sdk.ImageContent:
			r.images++
		}
	}
	return r
}

// call calls a tool and keeps its answer for the secrets check.
func (f *fixture) call(name string, args any) result {
	f.t.Helper()
	r := callTool(f.t, f.cs, name, args)
	f.mu.Lock()
	f.out = append(f.out, r.text)
	f.mu.Unlock()
	return r
}

// ok calls a tool that must succeed.
func (f *fixture) ok(name string, args any) string {
	f.t.Helper()
	r := f.call(name, args)
	if r.isError {
		f.t.Fatalf("%s %v failed:\n%s", name, args, r.text)
	}
	return r.text
}

// fails calls a tool that must fail with code.
func (f *fixture) fails(name string, args any, code dom.Code) string {
	f.t.Helper()
	r := f.call(name, args)
	if !r.isError || !strings.HasPrefix(r.text, string(code)+":") {
		f.t.Fatalf("%s %v: want a %s tool error, got (isError %v):\n%s", name, args, code, r.isError, r.text)
	}
	if !strings.Contains(r.text, "\nretryable: ") || !strings.Contains(r.text, "\nnext: ") {
		f.t.Errorf("%s error does not say whether to retry and what to do next:\n%s", code, r.text)
	}
	return r.text
}

// idOf finds the id of the first line of a text view matching re.
func idOf(t *testing.T, view, re string) string {
	t.Helper()
	rx := regexp.MustCompile(re)
	for _, l := range strings.Split(view, "\n") {
		if rx.MatchString(l) {
			if m := regexp.MustCompile(`\[(\d+)\]`).FindStringSubmatch(l); m != nil {
				return m[1]
			}
		}
	}
	t.Fatalf("no line matches %q in:\n%s", re, view)
	return ""
}

// noSecret checks that secret is in no response, observed call or log line.
func (f *fixture) noSecret(secret string) {
	f.t.Helper()
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, o := range f.out {
		if strings.Contains(o, secret) {
			f.t.Errorf("a response holds the secret:\n%s", o)
		}
	}
	for _, c := range f.calls {
		b, _ := json.Marshal(c)
		if strings.Contains(string(b), secret) {
			f.t.Errorf("an observed call holds the secret: %s", b)
		}
	}
	if strings.Contains(f.log.String(), secret) {
		f.t.Errorf("the server's log holds the secret:\n%s", f.log.String())
	}
}

// eval evaluates expr in the page and returns its string value.
func (f *fixture) eval(expr string) string {
	f.t.Helper()
	return domtest.EvalString(f.t, f.page, expr)
}
