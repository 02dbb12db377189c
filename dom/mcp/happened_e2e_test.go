package mcp_test

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"domscope/cdpconn/cdptest"
	"domscope/dom/flatten"
	"domscope/dom/live"
	"domscope/dom/mcp"
)

// ticking opens the flash page and lets its clock tick, so the server
// has seen it change by itself. It returns the first view.
func ticking(t *testing.T) (*fixture, string) {
	t.Helper()
	f := setupIn(t, "happened", mcp.ViewDiff, "flash.html")
	v := f.ok("dom_snapshot", map[string]any{})
	time.Sleep(700 * time.Millisecond) // several ticks of its 150 ms clock
	return f, v
}

func firstLine(s string) string { return strings.SplitN(s, "\n", 2)[0] }

func TestMCPNoOpIsNoVisibleChange(t *testing.T) {
	f, v := ticking(t)
	id := idOf(t, v, `button "Do nothing"`)
	out := f.ok("dom_click", map[string]any{"id": id})
	if !strings.HasPrefix(firstLine(out), "click ["+id+"]: no visible change") {
		t.Errorf("the no-op's verdict:\n%s", out)
	}
	if n := flatten.CountTokens(out); n > 30 {
		t.Errorf("the no-op's answer is %d tokens (want at most 30):\n%s", n, out)
	}
}

func TestMCPFlashedAndLate(t *testing.T) {
	f, v := ticking(t)
	out := f.ok("dom_click", map[string]any{"id": idOf(t, v, `button "Flash 100"`)})
	// A loaded machine may read the page while the toast still shows:
	// then the view has it. Either way the answer says it.
	flashed := strings.Contains(out, "\nflashed: status \"Flash 100\" (")
	shown := strings.Contains(out, "\n+ status \"Flash 100\"")
	if !strings.HasPrefix(firstLine(out), "click [") || !strings.HasSuffix(firstLine(out), ": changed") || flashed == shown {
		t.Errorf("a 100 ms toast:\n%s", out)
	}
	// The alert comes 300 ms after the click and goes 800 ms later: after
	// the click answered, before the agent looks again.
	out = f.ok("dom_click", map[string]any{"id": idOf(t, v, `button "Save"`)})
	if strings.Contains(out, "Invalid email") {
		t.Skipf("the machine is so slow the alert came within the click: %s", out)
	}
	cdptest.WaitFor(t, f.page, "window.saved === true")
	out = f.ok("dom_snapshot", map[string]any{})
	if !strings.HasPrefix(out, "since the last action (") || !strings.Contains(out, "flashed: alert \"Invalid email address\" (") {
		t.Errorf("the alert that came and went after the click is not said:\n%s", out)
	}
	// A late effect that stays: said once, in the next answer, not as
	// that action's own change.
	out = f.ok("dom_click", map[string]any{"id": idOf(t, v, `button "Late 400"`)})
	if strings.Contains(out, "Export ready") {
		t.Skipf("the machine is so slow the effect came within the click: %s", out)
	}
	cdptest.WaitFor(t, f.page, "document.getElementById('out').textContent.includes('Export ready 400')")
	out = f.ok("dom_click", map[string]any{"id": idOf(t, v, `button "Do nothing"`)})
	lines := strings.Split(out, "\n")
	if len(lines) < 3 || !strings.Contains(lines[0], "no visible change") || !strings.HasPrefix(lines[1], "since the last action (") || !strings.Contains(lines[2], "Export ready 400") {
		t.Errorf("the late effect is not said as the last action's:\n%s", out)
	}
	if strings.Contains(out[strings.Index(out, "view:"):], "Export ready") {
		t.Errorf("the late effect is in the next action's own diff:\n%s", out)
	}
}

func TestMCPErrorsSeen(t *testing.T) {
	f, v := ticking(t)
	out := f.ok("dom_click", map[string]any{"id": idOf(t, v, `button "Validate"`)})
	if !strings.Contains(out, "\nerrors seen: invalid [") || !strings.Contains(out, `"Email": "Enter an email like a@b.c"`) {
		t.Errorf("the invalid field's message:\n%s", out)
	}
}

func TestMCPNewTab(t *testing.T) {
	f := setupIn(t, "happened", mcp.ViewDiff, "tabs.html")
	v := f.ok("dom_snapshot", map[string]any{})
	out := f.ok("dom_click", map[string]any{"id": idOf(t, v, `link "Open other"`)})
	if !strings.Contains(firstLine(out), ": opened a new tab ") || !strings.Contains(firstLine(out), "other.html") {
		t.Fatalf("a link to _blank:\n%s", out)
	}
	tabs := f.ok("dom_tabs", map[string]any{})
	if !strings.Contains(tabs, "other.html") {
		t.Errorf("dom_tabs does not list the new tab:\n%s", tabs)
	}
}

func TestMCPExpect(t *testing.T) {
	f, v := ticking(t)
	// Save shows an alert, not "Saved": the expectation fails and says
	// what the page showed instead.
	out := f.fails("dom_click", map[string]any{"id": idOf(t, v, `button "Save"`), "expect": map[string]any{"appears": "Saved"}}, "EXPECTATION_FAILED")
	// The alert comes and goes within the wait: the polls that saw it
	// and the one that found it gone make it a flash, not nothing.
	if !strings.Contains(out, `"Saved" did not appear within 2 s; the page showed alert "Invalid email address"`) {
		t.Errorf("the failed expectation does not say what the page showed:\n%s", out)
	}
	cdptest.WaitFor(t, f.page, "window.saved === true")
	out = f.ok("dom_click", map[string]any{"id": idOf(t, v, `button "Stay"`), "expect": map[string]any{"any": []any{map[string]any{"url": "nowhere"}, map[string]any{"appears": "Saved"}}}})
	if !strings.Contains(out, "\nexpectation held: any of (") {
		t.Errorf("a held expectation is not said:\n%s", out)
	}
	f.fails("dom_click", map[string]any{"id": idOf(t, v, `button "Do nothing"`), "expect": map[string]any{"change": "any", "timeout_ms": 300}}, "EXPECTATION_FAILED")
	f.ok("dom_click", map[string]any{"id": idOf(t, v, `button "Do nothing"`), "expect": map[string]any{"change": "none"}})
}

func TestMCPWaitURLAndQuiet(t *testing.T) {
	f, v := ticking(t)
	f.ok("dom_click", map[string]any{"id": idOf(t, v, `button "Late 1500"`)})
	out := f.ok("dom_wait", map[string]any{"text": "Export ready 1500"})
	if !strings.Contains(out, "+ Export ready 1500") {
		t.Errorf("dom_wait does not answer with the change:\n%s", out)
	}
	out = f.ok("dom_click", map[string]any{"id": idOf(t, v, `button "Do nothing"`)})
	if strings.Contains(out, "since the last action") {
		t.Errorf("the change dom_wait showed is said again as a late effect:\n%s", out)
	}
	f.ok("dom_wait", map[string]any{"url": "flash.html", "timeout": 2000})
	f.fails("dom_wait", map[string]any{"url": "nowhere", "timeout": 300}, "TIMEOUT")
	// The clock never stops: the view is never quiet for 2 s.
	out = f.fails("dom_wait", map[string]any{"quiet": 2000, "timeout": 1000}, "TIMEOUT")
	if !strings.Contains(out, "did not stay still") {
		t.Errorf("quiet's timeout:\n%s", out)
	}
}

// TestMCPWaitURLSaysWhere: a url wait matches case aside and says the
// address it saw, never the token in its query, held or timed out.
func TestMCPWaitURLSaysWhere(t *testing.T) {
	f := setupIn(t, "happened", mcp.ViewDiff, "flash.html?token=s3cretTOKEN")
	f.ok("dom_snapshot", map[string]any{})
	out := f.ok("dom_wait", map[string]any{"url": "FLASH.html", "timeout": 2000})
	if !strings.Contains(out, "url: "+f.base+"/flash.html?token=") {
		t.Errorf("a url wait does not say where the page is:\n%s", out)
	}
	out += f.fails("dom_wait", map[string]any{"url": "nowhere", "timeout": 300}, "TIMEOUT")
	if strings.Contains(out, "s3cret") {
		t.Errorf("a url wait shows the query's token:\n%s", out)
	}
}

// TestMCPFlashInSensitiveField: a text that comes and goes inside a
// one-time-code field is never said, flashed or not.
func TestMCPFlashInSensitiveField(t *testing.T) {
	f, v := ticking(t)
	out := f.ok("dom_click", map[string]any{"id": idOf(t, v, `button "Secret flash"`)})
	cdptest.WaitFor(t, f.page, "document.getElementById('otp').childNodes.length === 1")
	out += f.ok("dom_snapshot", map[string]any{})
	if strings.Contains(out, "987654") || strings.Contains(out, "123456") {
		t.Errorf("the field's text is in an answer:\n%s", out)
	}
	f.noSecret("987654")
}

func TestMCPMetrics(t *testing.T) {
	f, v := ticking(t)
	out := f.ok("dom_click", map[string]any{"id": idOf(t, v, `button "Stay"`), "metrics": true})
	if !strings.Contains(out, "\nmetrics: nodes +") || !strings.Contains(out, "layouts ") {
		t.Errorf("no performance delta:\n%s", out)
	}
}

// TestMCPExpectOnEveryAction: hover, scroll, navigate, back, forward and
// reload take expect too, and fail with EXPECTATION_FAILED.
func TestMCPExpectOnEveryAction(t *testing.T) {
	f := setupIn(t, "happened", mcp.ViewDiff, "expect.html")
	v := f.ok("dom_snapshot", map[string]any{})
	held := func(out string) {
		t.Helper()
		if !strings.Contains(out, "\nexpectation held: ") {
			t.Errorf("a held expectation is not said:\n%s", out)
		}
	}
	held(f.ok("dom_hover", map[string]any{"id": idOf(t, v, `button "Help"`), "expect": map[string]any{"appears": "Tip shown"}}))
	f.fails("dom_hover", map[string]any{"id": idOf(t, v, `button "Help"`), "expect": map[string]any{"change": "any", "timeout_ms": 300}}, "EXPECTATION_FAILED")
	f.ok("dom_click", map[string]any{"id": idOf(t, v, `button "Ask"`)})
	held(f.ok("dom_dialog", map[string]any{"accept": true, "expect": map[string]any{"appears": "Confirmed"}}))
	held(f.ok("dom_scroll", map[string]any{"dy": 400, "expect": map[string]any{"appears": "Loaded more"}}))
	f.fails("dom_scroll", map[string]any{"dy": 400, "expect": map[string]any{"appears": "Nothing like it", "timeout_ms": 300}}, "EXPECTATION_FAILED")
	held(f.ok("dom_navigate", map[string]any{"url": "other.html", "expect": map[string]any{"url": "other.html", "appears": "Other"}}))
	out := f.fails("dom_back", map[string]any{"expect": map[string]any{"url": "other.html", "timeout_ms": 300}}, "EXPECTATION_FAILED")
	if !strings.Contains(out, "does not hold") {
		t.Errorf("the failed expectation does not say the URL it saw:\n%s", out)
	}
	held(f.ok("dom_forward", map[string]any{"expect": map[string]any{"navigates": true, "url": "other.html"}}))
	held(f.ok("dom_reload", map[string]any{"expect": map[string]any{"appears": "Other"}}))
	f.fails("dom_navigate", map[string]any{"url": "expect.html", "expect": map[string]any{"appears": "Saved", "timeout_ms": 300}}, "EXPECTATION_FAILED")
}

// TestMCPDiffSaysAlertRole: an alert or status shown at once reads as
// one in the action's diff, not as bare text.
func TestMCPDiffSaysAlertRole(t *testing.T) {
	f, v := ticking(t)
	out := f.ok("dom_click", map[string]any{"id": idOf(t, v, `button "Alert now"`)})
	if !strings.Contains(out, "\n+ alert \"Invalid email address\"") {
		t.Errorf("the alert in the diff:\n%s", out)
	}
	out = f.ok("dom_click", map[string]any{"id": idOf(t, v, `button "Stay"`)})
	if !strings.Contains(out, "\n+ status \"Saved\"") {
		t.Errorf("the status in the diff:\n%s", out)
	}
	out = f.ok("dom_click", map[string]any{"id": idOf(t, v, `button "Announce"`)})
	if !strings.Contains(out, "\n+ live \"Copied to clipboard\"") || strings.Contains(out, "announced:") {
		t.Errorf("an aria-live region in the diff (said once):\n%s", out)
	}
	// A line that is no region's stays bare.
	if out := f.ok("dom_click", map[string]any{"id": idOf(t, v, `button "Late 200"`), "expect": map[string]any{"appears": "Export ready 200"}}); !strings.Contains(out, "\n+ Export ready 200") {
		t.Errorf("a plain text line got a role:\n%s", out)
	}
}

// TestMCPFlashedInCrossOriginFrame: toasts that come and go inside an
// out-of-process frame are said as flashes, with their role and life. A
// one-time code inside one never is.
func TestMCPFlashedInCrossOriginFrame(t *testing.T) {
	f := setupIn(t, "happened", mcp.ViewDiff, "frame.html", func(c *mcp.Config) {
		// A quiet window longer than the longest toast: the click answers
		// after it went, which is when a flash is what it is.
		svc := live.NewService(c.Page, live.Config{QuietWindow: 1500 * time.Millisecond, SettleTimeout: 10 * time.Second})
		t.Cleanup(func() { _ = svc.Close() })
		c.Service = svc
	})
	var v string
	for range 50 {
		if v = f.ok("dom_snapshot", map[string]any{}); strings.Contains(v, `button "Code toast"`) {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	for _, ms := range []string{"100", "300", "600"} {
		out := f.ok("dom_click", map[string]any{"id": idOf(t, v, `button "Toast `+ms+`"`)})
		if !strings.HasSuffix(firstLine(out), ": changed") || !regexp.MustCompile(`\nflashed: .*alert "Frame toast `+ms+`" \(\d+(\.\d+)? s\)`).MatchString(out) {
			t.Errorf("a %s ms toast in a cross-origin frame:\n%s", ms, out)
		}
	}
	out := f.ok("dom_click", map[string]any{"id": idOf(t, v, `button "Code toast"`)})
	if !strings.Contains(out, `alert "Code sent" (`) {
		t.Errorf("a toast holding a one-time code:\n%s", out)
	}
	f.noSecret("135790")
}
