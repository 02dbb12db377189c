// Package domtest holds the test helpers the engine's packages share. It
// opens a service on a page of the shared test browser. It evaluates
// JavaScript in a page, walks a tree and finds the repository's testdata.
package domtest

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"domscope/cdpconn"
	"domscope/cdpconn/cdptest"
	"domscope/dom"
	"domscope/dom/live"
)

// Testdata is the path of a file or folder under the repository's
// testdata/. It works wherever the test runs from.
func Testdata(elem ...string) string {
	_, file, _, _ := runtime.Caller(0)
	root := filepath.Join(filepath.Dir(file), "..", "..", "..", "testdata")
	return filepath.Join(append([]string{root}, elem...)...)
}

// HangGuard bounds the tests' browser work. Work ends as soon as it is
// done; the bound only ends a hung test. So it is far above what a loaded
// machine takes. CI runs packages side by side, and a 50,000-element page
// is slow. A test must not depend on how fast the machine is.
const HangGuard = 3 * time.Minute

// ActionPages is the folder of the fixture pages for actions.
var ActionPages = Testdata("pages", "actions")

// OpenService opens url in a new tab of the shared browser. It starts a
// service on it with a first snapshot.
func OpenService(t testing.TB, url string, cfg live.Config) (*live.Service, *cdpconn.Page) {
	t.Helper()
	p := cdptest.Page(t, url)
	svc := live.NewService(p, Loaded(cfg))
	t.Cleanup(func() { _ = svc.Close() })
	// The first capture of a 50,000-element page can take minutes on a
	// loaded 2-core machine. CI runs packages side by side.
	fctx, cancel := context.WithTimeout(context.Background(), 2*HangGuard)
	defer cancel()
	if _, err := svc.Snapshot(fctx, false); err != nil {
		t.Fatalf("first snapshot of %s: %v", url, err)
	}
	return svc, p
}

// Loaded gives cfg the bounds of a loaded machine where it sets none. A
// service's own 10 s per call is for a person waiting; under a load of
// 8 on 2 cores a whole snapshot of a big page can take longer.
func Loaded(cfg live.Config) live.Config {
	if cfg.CallTimeout == 0 {
		cfg.CallTimeout = HangGuard / 4
	}
	return cfg
}

// Ctx is a context for one test's browser work. HangGuard bounds it, so
// nothing hangs.
func Ctx(t testing.TB) context.Context {
	c, cancel := context.WithTimeout(context.Background(), HangGuard)
	t.Cleanup(cancel)
	return c
}

// EvalJS evaluates expr in sess's page and returns its JSON value decoded.
func EvalJS(t *testing.T, sess dom.Session, expr string) any {
	t.Helper()
	var r struct {
		Result struct {
			Value json.RawMessage `json:"value"`
		} `json:"result"`
		ExceptionDetails any `json:"exceptionDetails"`
	}
	c, cancel := context.WithTimeout(context.Background(), HangGuard)
	defer cancel()
	if err := sess.Call(c, "Runtime.evaluate", map[string]any{"expression": expr, "returnByValue": true}, &r); err != nil {
		t.Fatalf("evaluate %s: %v", expr, err)
	}
	if r.ExceptionDetails != nil {
		t.Fatalf("evaluate %s: %v", expr, r.ExceptionDetails)
	}
	var v any
	_ = json.Unmarshal(r.Result.Value, &v)
	return v
}

// EvalString is EvalJS for an expression whose value is a string.
func EvalString(t *testing.T, sess dom.Session, expr string) string {
	t.Helper()
	v := EvalJS(t, sess, expr)
	s, _ := v.(string)
	return s
}

// Walk visits n and the nodes below it in document order until f returns
// false.
func Walk(n *dom.VirtualNode, f func(*dom.VirtualNode) bool) {
	stack := []*dom.VirtualNode{n}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if !f(n) {
			return
		}
		for i := len(n.Children) - 1; i >= 0; i-- {
			stack = append(stack, n.Children[i])
		}
	}
}

// Snap returns the service's snapshot (capturing if needed) or fails.
func Snap(t testing.TB, svc *live.Service) *dom.Snapshot {
	t.Helper()
	s, err := svc.Snapshot(Ctx(t), false)
	if err != nil {
		t.Fatalf("snapshot: %v", err)
	}
	return s
}

// FirstDiff shows the first line where a and b differ, each cut to max
// runes (0: whole), or "(same)".
func FirstDiff(a, b string, max int) string {
	la, lb := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := 0; i < len(la) || i < len(lb); i++ {
		var x, y string
		if i < len(la) {
			x = la[i]
		}
		if i < len(lb) {
			y = lb[i]
		}
		if x != y {
			if max > 0 {
				x, y = dom.Clip(x, max), dom.Clip(y, max)
			}
			return fmt.Sprintf("line %d:\n  - %s\n  + %s", i+1, x, y)
		}
	}
	return "(same)"
}
