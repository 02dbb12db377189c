package live_test

import (
	"context"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"

	"domscope/cdpconn"
	"domscope/cdpconn/cdptest"
	. "domscope/dom"
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
	urlSecret2  = "ghijkl654321"
)

// stillPage is a page with a service on it that logs the page's calls,
// and a second session on it for full captures.
type stillPage struct {
	svc *Service
	log *callLog
	tw  *twin
}

// openStill opens url and a service on it.
func openStill(t *testing.T, url string) *stillPage {
	t.Helper()
	p := cdptest.Page(t, url)
	log := &callLog{Page: p}
	svc := NewService(log, domtest.Loaded(Config{}))
	t.Cleanup(func() { _ = svc.Close() })
	return &stillPage{svc: svc, log: log, tw: newTwin(t, svc, p)}
}

// read reads the page and compares the snapshot with a full capture of
// the same state. No secret may reach its outputs. It returns the
// snapshot and the page's calls the read made.
func (sp *stillPage) read(t *testing.T, step string, secrets ...string) (*Snapshot, []string) {
	t.Helper()
	sp.log.take()
	s, err := sp.svc.Snapshot(ctx(t), true)
	if err != nil {
		t.Fatalf("%s: %v", step, err)
	}
	calls := sp.log.take()
	sp.tw.check(t, step)
	for k, out := range outputs(t, s) {
		for _, sec := range secrets {
			if strings.Contains(out, sec) {
				t.Errorf("%s: %q reached the %s output", step, sec, k)
			}
		}
	}
	return s, calls
}

// TestStillPage changes a page in ways no DOM event reports, and in one
// way that one does. After each change the read must equal a full
// capture of the same state. A read of a page at rest costs one call.
func TestStillPage(t *testing.T) {
	base, _ := cdptest.Serve(t, actionPages)
	sp := openStill(t, base+"/still.html")
	read := func(step string) []string {
		t.Helper()
		_, calls := sp.read(t, step, stillSecret, urlSecret, urlSecret2)
		return calls
	}
	// A read at rest runs one script, and reads the AX facts of the
	// focused element and its ancestors again beside it. A refresh makes
	// other calls too.
	still := func(calls []string) bool {
		evals := 0
		for _, c := range calls {
			switch c {
			case "Runtime.evaluate":
				evals++
			case "Accessibility.getPartialAXTree":
			default:
				return false
			}
		}
		return evals == 1
	}
	atRest := func(step string) {
		t.Helper()
		if calls := read(step + ", at rest"); !still(calls) {
			t.Errorf("%s, at rest: the read made %d calls %v, want the script and AX facts only", step, len(calls), calls)
		}
	}
	read("loaded")
	atRest("loaded")
	atRest("loaded, again")
	for _, c := range []struct{ step, js string }{
		{"a value set by a script", `document.querySelector("#f").value = "typed"`},
		{"a password set by a script", `document.querySelector("#pw").value = "` + stillSecret + `"`},
		{"a box checked by a script", `document.querySelector("#c").checked = true`},
		{"an option chosen by a script", `document.querySelector("#s").selectedIndex = 1`},
		{"the box focused", `document.querySelector("#c").focus()`},
		{"the focused box made mixed", `document.querySelector("#c").indeterminate = true`},
		{"focus moved", `document.querySelector("#b").focus()`},
		{"a style rule added", `document.styleSheets[0].insertRule("#gone { display: none }", 0)`},
		// (a scroll event comes with the next frame, and the guard counts
		// those: the read waits for it)
		{"an element scrolled", `new Promise((r) => { const b = document.querySelector("#box"); b.addEventListener("scroll", r, {once: true}); b.scrollTop = 40; })`},
		{"the page scrolled", `window.scrollTo(0, 1400)`},
		{"a popover opened", `document.querySelector("#pop").showPopover()`},
		{"a shadow root attached", `document.querySelector("#host").attachShadow({mode: "open"}).innerHTML = "<button>In the shadow</button>"`},
		{"the address changed", `history.pushState(null, "", "moved.html")`},
		{"the address took a token", `history.pushState(null, "", "moved.html?token=` + urlSecret + `"); document.querySelector("#t").textContent = "` + urlSecret + `"`},
		{"the address took another", `history.pushState(null, "", "moved.html?token=` + urlSecret2 + `"); document.querySelector("#t").textContent = "` + urlSecret2 + `"`},
		{"the viewport narrowed", ``},
		{"a text changed", `document.querySelector("#t").textContent = "Changed"`},
	} {
		if c.js == "" {
			if err := sp.tw.self.Call(ctx(t), "Emulation.setDeviceMetricsOverride", map[string]any{"width": 500, "height": 600, "deviceScaleFactor": 1, "mobile": false}, nil); err != nil {
				t.Fatal(err)
			}
		} else {
			if err := sp.tw.page.Call(ctx(t), "Runtime.evaluate", map[string]any{"expression": c.js, "awaitPromise": true}, nil); err != nil {
				t.Fatalf("%s: %v", c.step, err)
			}
		}
		if calls := read(c.step); still(calls) {
			t.Errorf("%s: the read made %d calls %v: it took the page as unchanged", c.step, len(calls), calls)
		}
		atRest(c.step)
	}
}

// TestStillUnreadableSheet: a style sheet the page cannot read may style
// states no DOM event reports. Defining a custom element is one.
func TestStillUnreadableSheet(t *testing.T) {
	u127, ulocal := cdptest.Serve(t, domtest.Testdata("pages", "still-defined"))
	sp := openStill(t, u127+"/index.html?css="+ulocal+"/late.css")
	for _, step := range []string{"loaded", "at rest", "defined"} {
		if step == "defined" {
			evalJS(t, sp.tw.page, `customElements.define("x-late", class extends HTMLElement {})`)
		}
		s, calls := sp.read(t, step)
		shown := strings.Contains(outputs(t, s)["text"], "Shown once defined")
		if shown != (step == "defined") {
			t.Errorf("%s: the button shown: %v", step, shown)
		}
		if step == "at rest" && slices.Contains(calls, "Page.getLayoutMetrics") {
			t.Errorf("at rest: %d calls %v: the page was read again", len(calls), calls)
		}
	}
}

// TestStillWithFrames: a page at rest is not read again, but its
// out-of-process frames are, whole: what changed in one shows.
func TestStillWithFrames(t *testing.T) {
	u127, ulocal := cdptest.Serve(t, domtest.Testdata("pages", "url-secret"))
	sp := openStill(t, u127+"/page.html?frame="+url.QueryEscape(ulocal+"/frame.html?token=x"))
	cdptest.WaitFor(t, sp.tw.page, "window.frameLoaded === true")
	sp.read(t, "loaded")
	sp.read(t, "refreshed once")
	for _, step := range []string{"at rest", "the frame changed"} {
		if step == "the frame changed" {
			frames, err := sp.tw.self.Frames(ctx(t))
			if err != nil || len(frames) != 1 {
				t.Fatalf("frames %v %v", frames, err)
			}
			evalJS(t, frames[0].Session, `document.getElementById("p").textContent = "changed inside"`)
		}
		s, calls := sp.read(t, step)
		text := outputs(t, s)["text"]
		// the page itself is not read again: no layout, no mark
		for _, c := range calls {
			if c == "Page.getLayoutMetrics" || c == "DOM.requestNode" || c == "DOMSnapshot.captureSnapshot" {
				t.Errorf("%s: the page was read again (%s): %v", step, c, calls)
				break
			}
		}
		if shown := strings.Contains(text, "changed inside"); shown != (step == "the frame changed") {
			t.Errorf("%s: the frame's change shown: %v\n%s", step, shown, text)
		}
	}
}

// TestStillScriptThrows: a page that breaks what the still read's
// script calls gets a refresh, never the last tree.
func TestStillScriptThrows(t *testing.T) {
	base, _ := cdptest.Serve(t, actionPages)
	sp := openStill(t, base+"/still.html")
	sp.read(t, "loaded")
	sp.read(t, "refreshed")
	// the script's first steps run, then querySelectorAll throws
	evalJS(t, sp.tw.page, `Document.prototype.querySelectorAll = () => { throw new Error("no"); }; document.styleSheets[0].insertRule("#gone { display: none }", 0); true`)
	sp.read(t, "querySelectorAll broken")
}
