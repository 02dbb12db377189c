package live_test

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"

	"domscope/cdpconn"
	"domscope/cdpconn/cdptest"
	"domscope/dom/internal/domtest"
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
// says so, and it must reach no output. Nor may urlSecret, which the
// page puts in its address without loading it.
const (
	stillSecret = "s3cret-still-9"
	urlSecret   = "abcdef123456"
)

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
			for _, secret := range []string{stillSecret, urlSecret} {
				if strings.Contains(out, secret) {
					t.Errorf("%s: %q reached the %s output", step, secret, k)
				}
			}
		}
		return calls
	}
	// At rest a read runs one script, and reads the focused element's AX
	// facts again beside it.
	atRest := func(step string) {
		t.Helper()
		calls := read(step + ", at rest")
		ax := slices.DeleteFunc(slices.Clone(calls), func(m string) bool { return m != "Accessibility.getPartialAXTree" })
		if len(calls)-len(ax) != 1 || !slices.Contains(calls, "Runtime.evaluate") || len(ax) > 2 {
			t.Errorf("%s, at rest: the read made %d calls %v, want the script and the focused element's AX", step, len(calls), calls)
		}
	}
	atRest("loaded")
	atRest("loaded, again")
	for _, c := range []struct {
		step, js string
		anew     bool // the page is captured whole: the next read may refresh once more
	}{
		{"a value set by a script", `document.querySelector("#f").value = "typed"`, false},
		{"a password set by a script", `document.querySelector("#pw").value = "` + stillSecret + `"`, false},
		{"a box checked by a script", `document.querySelector("#c").checked = true`, false},
		{"an option chosen by a script", `document.querySelector("#s").selectedIndex = 1`, false},
		{"the box focused", `document.querySelector("#c").focus()`, false},
		{"the focused box made mixed", `document.querySelector("#c").indeterminate = true`, false},
		{"focus moved", `document.querySelector("#b").focus()`, false},
		{"a style rule added", `document.styleSheets[0].insertRule("#gone { display: none }", 0)`, false},
		// (a scroll event comes with the next frame, and the guard counts
		// those: the read waits for it)
		{"an element scrolled", `new Promise((r) => { const b = document.querySelector("#box"); b.addEventListener("scroll", r, {once: true}); b.scrollTop = 40; })`, false},
		{"the page scrolled", `window.scrollTo(0, 1400)`, false},
		{"a popover opened", `document.querySelector("#pop").showPopover()`, false},
		{"a shadow root attached", `document.querySelector("#host").attachShadow({mode: "open"}).innerHTML = "<button>In the shadow</button>"`, false},
		{"the address changed", `history.pushState(null, "", "moved.html")`, false},
		{"the address took a token", `history.pushState(null, "", "moved.html?token=` + urlSecret + `")`, true},
		{"the viewport narrowed", ``, false},
		{"a text changed", `document.querySelector("#t").textContent = "Changed"`, false},
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
		if calls := read(c.step); len(calls) <= 2 {
			t.Errorf("%s: the read made %d calls %v: it took the page as unchanged", c.step, len(calls), calls)
		}
		if c.anew {
			read(c.step + ", once more")
		}
		atRest(c.step)
	}
}

// TestStillUnreadableSheet: a style sheet the page cannot read may style
// states no DOM event reports. Defining a custom element is one.
func TestStillUnreadableSheet(t *testing.T) {
	u127, ulocal := cdptest.Serve(t, domtest.Testdata("pages", "still-defined"))
	p := cdptest.Page(t, u127+"/index.html?css="+ulocal+"/late.css")
	log := &callLog{Page: p}
	svc := NewService(log, Config{})
	t.Cleanup(func() { _ = svc.Close() })
	tw := newTwin(t, svc, p)
	for _, step := range []string{"loaded", "at rest", "defined"} {
		if step == "defined" {
			evalJS(t, tw.page, `customElements.define("x-late", class extends HTMLElement {})`)
		}
		log.take()
		s, err := svc.Snapshot(ctx(t), true)
		if err != nil {
			t.Fatalf("%s: %v", step, err)
		}
		calls := log.take()
		tw.check(t, step)
		shown := strings.Contains(outputs(t, s)["text"], "Shown once defined")
		if shown != (step == "defined") {
			t.Errorf("%s: the button shown: %v", step, shown)
		}
		if step == "at rest" && len(calls) > 2 {
			t.Errorf("at rest: %d calls %v: the page was not taken as still", len(calls), calls)
		}
	}
}
