package main

import (
	"context"
	"fmt"
	"net"
	"os"
	"strings"
	"sync/atomic"
	"time"

	"domscope/dom"
	"domscope/dom/live"
	"domscope/dom/serve"
)

// A server a test starts with DOMSCOPE_SERVE_HOOK set stops at a known
// point, so the test needs no sleep to land a kill or a navigation.
func init() {
	hooks := os.Getenv("DOMSCOPE_SERVE_HOOK")
	if hooks == "" {
		return
	}
	var once atomic.Bool
	for _, h := range strings.Split(hooks, ",") {
		switch h {
		case "die-mid-reply":
			// A reply cut off as by an OOM kill: half sent, then gone.
			// Short replies (the readiness probe's) go whole.
			serve.Hooks.Write = func(c net.Conn, b []byte) error {
				if len(b) < 200 {
					_, err := c.Write(b)
					return err
				}
				_, _ = c.Write(b[:len(b)/2])
				_ = c.Close()
				os.Exit(137)
				return nil
			}
		case "panic-once":
			serve.Hooks.Request = func(serve.Request) {
				if once.CompareAndSwap(false, true) {
					panic("a test's panic")
				}
			}
		case "panic-attach-once":
			serve.Hooks.Attach = func(context.Context, string) {
				if once.CompareAndSwap(false, true) {
					panic("a test's panic")
				}
			}
		case "hold":
			// Says it holds the request, then waits to be killed.
			serve.Hooks.Request = func(serve.Request) {
				fmt.Fprintln(os.Stderr, "test: holding the request")
				select {}
			}
		case "slow-attach":
			// A tab whose URL says "slow" attaches only when its request ends.
			serve.Hooks.Attach = func(ctx context.Context, url string) {
				if strings.Contains(url, "slow") {
					fmt.Fprintln(os.Stderr, "test: attaching the slow tab")
					<-ctx.Done()
				}
			}
		case "navigate-after-capture":
			// A navigation lands between the capture and the selector,
			// and the service has read the new page.
			serve.Hooks.Captured = func(ctx context.Context, p dom.Page, svc *live.Service) {
				if !once.CompareAndSwap(false, true) {
					return
				}
				_ = p.Call(ctx, "Runtime.evaluate", map[string]any{"expression": `location.href = "other.html"`}, nil)
				for ctx.Err() == nil {
					var r struct {
						Result struct {
							Value bool `json:"value"`
						} `json:"result"`
					}
					_ = p.Call(ctx, "Runtime.evaluate", map[string]any{"expression": `location.pathname.endsWith("other.html") && document.readyState == "complete"`, "returnByValue": true}, &r)
					if r.Result.Value {
						break
					}
					time.Sleep(20 * time.Millisecond)
				}
				_, _ = svc.Snapshot(ctx, true)
			}
		}
	}
}
