package live_test

import (
	"context"
	"strings"
	"sync"
	"testing"

	"domscope/cdpconn"
	"domscope/cdpconn/cdptest"
	. "domscope/dom/live"
)

// callLog is a page that notes the CDP methods its service calls.
type callLog struct {
	*cdpconn.Page
	mu      sync.Mutex
	methods []string
}

func (c *callLog) Call(ctx context.Context, method string, params, result any) error {
	c.mu.Lock()
	c.methods = append(c.methods, method)
	c.mu.Unlock()
	return c.Page.Call(ctx, method, params, result)
}

func (c *callLog) take() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	m := c.methods
	c.methods = nil
	return m
}

// stillSecret is typed into the password field by a script: no event
// says so, and it must reach no output.
const stillSecret = "s3cret-still-9"

// TestStillPage changes a page in ways no DOM event reports, and in one
// way that one does. After each change the read must equal a full
// capture of the same state. A read of a page at rest costs one call.
func TestStillPage(t *testing.T) {
	base, _ := cdptest.Serve(t, actionPages)
	p := cdptest.Page(t, base+"/still.html")
	log := &callLog{Page: p}
	svc := NewService(log, Config{})
	t.Cleanup(func() { _ = svc.Close() })
	if _, err := svc.Snapshot(ctx(t), true); err != nil {
		t.Fatal(err)
	}
	tw := newTwin(t, svc, p)
	read := func(step string) []string {
		t.Helper()
		log.take()
		s, err := svc.Snapshot(ctx(t), true)
		if err != nil {
			t.Fatalf("%s: %v", step, err)
		}
		calls := log.take()
		tw.check(t, step)
		for k, out := range outputs(t, s) {
			if strings.Contains(out, stillSecret) {
				t.Errorf("%s: the password reached the %s output", step, k)
			}
		}
		return calls
	}
	atRest := func(step string) {
		t.Helper()
		if calls := read(step + ", at rest"); len(calls) != 1 || calls[0] != "Runtime.evaluate" {
			t.Errorf("%s, at rest: the read made %d calls %v, want the one script", step, len(calls), calls)
		}
	}
	atRest("loaded")
	atRest("loaded, again")
	for _, c := range []struct{ step, js string }{
		{"a value set by a script", `document.querySelector("#f").value = "typed"`},
		{"a password set by a script", `document.querySelector("#pw").value = "` + stillSecret + `"`},
		{"a box checked by a script", `document.querySelector("#c").checked = true`},
		{"an option chosen by a script", `document.querySelector("#s").selectedIndex = 1`},
		{"focus moved", `document.querySelector("#b").focus()`},
		{"a style rule added", `document.styleSheets[0].insertRule("#gone { display: none }", 0)`},
		// (a scroll event comes with the next frame, and the guard counts
		// those: the read waits for it)
		{"an element scrolled", `new Promise((r) => { const b = document.querySelector("#box"); b.addEventListener("scroll", r, {once: true}); b.scrollTop = 40; })`},
		{"the page scrolled", `window.scrollTo(0, 1400)`},
		{"a shadow root attached", `document.querySelector("#host").attachShadow({mode: "open"}).innerHTML = "<button>In the shadow</button>"`},
		{"the address changed", `history.pushState(null, "", "moved.html")`},
		{"the viewport narrowed", ``},
		{"a text changed", `document.querySelector("#t").textContent = "Changed"`},
	} {
		if c.js == "" {
			if err := p.Call(ctx(t), "Emulation.setDeviceMetricsOverride", map[string]any{"width": 500, "height": 600, "deviceScaleFactor": 1, "mobile": false}, nil); err != nil {
				t.Fatal(err)
			}
		} else {
			if err := tw.page.Call(ctx(t), "Runtime.evaluate", map[string]any{"expression": c.js, "awaitPromise": true}, nil); err != nil {
				t.Fatalf("%s: %v", c.step, err)
			}
		}
		if calls := read(c.step); len(calls) <= 1 {
			t.Errorf("%s: the read made %d calls %v: it took the page as unchanged", c.step, len(calls), calls)
		}
		atRest(c.step)
	}
}
