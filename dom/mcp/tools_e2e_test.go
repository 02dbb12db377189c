package mcp_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"domscope/cdpconn/cdptest"
	"domscope/dom"
	"domscope/dom/flatten"
	"domscope/dom/internal/domtest"
	"domscope/dom/live"
	"domscope/dom/mcp"
)

// The tool names are a contract with every agent that uses them.
var contract = []string{"dom_back", "dom_click", "dom_dialog", "dom_find", "dom_forward", "dom_hover", "dom_key", "dom_navigate",
	"dom_reload", "dom_screenshot", "dom_scroll", "dom_select", "dom_snapshot", "dom_tabs", "dom_type", "dom_viewport", "dom_wait"}

func TestToolsAndSchemas(t *testing.T) {
	f := setup(t, mcp.ViewDiff, "")
	res, err := f.cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	schemas := map[string]map[string]any{}
	for _, tl := range res.Tools {
		names = append(names, tl.Name)
		if tl.Description == "" {
			t.Errorf("%s has no description", tl.Name)
		}
		s, _ := tl.InputSchema.(map[string]any)
		if s["type"] != "object" {
			t.Errorf("%s: input schema %v is not an object", tl.Name, tl.InputSchema)
		}
		schemas[tl.Name] = s
	}
	slices.Sort(names)
	if !slices.Equal(names, contract) {
		t.Fatalf("tools %v, want %v", names, contract)
	}
	prop := func(tool, name string) map[string]any {
		p, _ := schemas[tool]["properties"].(map[string]any)
		m, _ := p[name].(map[string]any)
		if m == nil {
			t.Fatalf("%s has no argument %q: %v", tool, name, schemas[tool])
		}
		return m
	}
	for _, tool := range []string{"dom_click", "dom_type", "dom_hover", "dom_select"} {
		id := prop(tool, "id")
		if ts, _ := id["type"].([]any); len(ts) != 2 {
			t.Errorf("%s id takes %v, want a string or an integer", tool, id["type"])
		}
		if req, _ := schemas[tool]["required"].([]any); !slices.Contains(req, any("id")) {
			t.Errorf("%s: id is not required: %v", tool, schemas[tool]["required"])
		}
		if d, _ := id["description"].(string); !strings.Contains(d, "node_12") {
			t.Errorf("%s id has no description for an LLM: %q", tool, d)
		}
	}
	if e, _ := prop("dom_snapshot", "format")["enum"].([]any); len(e) != 3 {
		t.Errorf("dom_snapshot format enum %v", e)
	}
	for _, a := range []string{"offscreen", "bounds", "maxDepth", "maxInteractive", "selector", "maxTokens"} {
		if d, _ := prop("dom_snapshot", a)["description"].(string); d == "" {
			t.Errorf("dom_snapshot %s has no description", a)
		}
	}
	if e, _ := prop("dom_tabs", "action")["enum"].([]any); len(e) != 4 {
		t.Errorf("dom_tabs action enum %v", e)
	}
}

// TestSnapshotThenClick: the first view is the page. A click answers with
// its result and the lines it changed, not the whole view.
func TestSnapshotThenClick(t *testing.T) {
	f := setup(t, mcp.ViewDiff, "")
	view := f.ok("dom_snapshot", nil)
	if !strings.HasPrefix(view, `page: "MCP test app" `) || !strings.Contains(view, `button "Add item"`) {
		t.Fatalf("view:\n%s", view)
	}
	for _, id := range []any{idOf(t, view, `button "Add item"`), "[" + idOf(t, view, `button "Add item"`) + "]"} {
		out := f.ok("dom_click", map[string]any{"id": id})
		if !strings.HasPrefix(out, "click [") || !strings.HasSuffix(firstLine(out), ": changed") {
			t.Errorf("click answer does not start with its result:\n%s", out)
		}
		if !strings.Contains(out, "\n+ ") || !strings.Contains(out, "Item ") {
			t.Errorf("click answer does not list the added line:\n%s", out)
		}
		if strings.Contains(out, "Next page") {
			t.Errorf("click answer holds the whole view:\n%s", out)
		}
	}
	if got := f.eval(`String(document.querySelectorAll('#list li').length)`); got != "2" {
		t.Errorf("the page has %s items after two clicks, want 2", got)
	}
	// The numeric form works too.
	num := idOf(t, view, `button "Add item"`)
	var id int
	for _, c := range num {
		id = id*10 + int(c-'0')
	}
	f.ok("dom_click", map[string]any{"id": id})
	if got := f.eval(`String(document.querySelectorAll('#list li').length)`); got != "3" {
		t.Errorf("the page has %s items after a click by number, want 3", got)
	}
	f.mu.Lock()
	calls := len(f.calls)
	f.mu.Unlock()
	if calls != 8 { // each of 4 calls starts and ends
		t.Errorf("the observer saw %d reports, want 8", calls)
	}
}

// TestViewFullAndNone: --view changes what an action answers with.
func TestViewFullAndNone(t *testing.T) {
	full := setup(t, mcp.ViewFull, "")
	id := idOf(t, full.ok("dom_snapshot", nil), `button "Add item"`)
	if out := full.ok("dom_click", map[string]any{"id": id}); !strings.Contains(out, "Next page") || !strings.Contains(out, "Item 1") {
		t.Errorf("--view full: the answer is not the whole view:\n%s", out)
	}
	none := setup(t, mcp.ViewNone, "")
	id = idOf(t, none.ok("dom_snapshot", nil), `button "Add item"`)
	if out := none.ok("dom_click", map[string]any{"id": id}); strings.Contains(out, "Item 1") || strings.Count(out, "\n") > 2 {
		t.Errorf("--view none: the answer holds more than the result:\n%s", out)
	}
}

// TestSecretsTypedThroughTheTools: what an agent types into a password
// field reaches the page. It reaches no response, observed call or log
// line. That holds even when the page repeats it in a console message
// and a dialog.
func TestSecretsTypedThroughTheTools(t *testing.T) {
	const secret = "hunter2-Sekret"
	f := setup(t, mcp.ViewDiff, "")
	view := f.ok("dom_snapshot", nil)
	pw := idOf(t, view, `textbox "Password"`)
	f.ok("dom_type", map[string]any{"id": idOf(t, view, `textbox "User"`), "text": "ada"})
	out := f.ok("dom_type", map[string]any{"id": "node_" + pw, "text": secret + "\n"})
	if !strings.Contains(out, "Signed in as ada") || !strings.Contains(out, "focused: "+dom.Mask+"\n") {
		t.Errorf("typing with a trailing newline did not submit, or the field does not show the mask:\n%s", out)
	}
	if got := f.eval(`document.getElementById('pw').value`); got != secret {
		t.Fatalf("the field holds %q, want the typed secret", got)
	}
	out = f.ok("dom_click", map[string]any{"id": idOf(t, view, `button "Leak"`)})
	if !strings.Contains(out, `dialog: alert "password: `+dom.Mask+`"`) || !strings.Contains(out, "dom_dialog") {
		t.Errorf("the dialog is not reported, masked, with what to do:\n%s", out)
	}
	if !strings.Contains(out, `console error: "the password is `+dom.Mask+`"`) {
		t.Errorf("the console error is not reported, masked:\n%s", out)
	}
	f.fails("dom_snapshot", nil, dom.DialogOpen)
	f.ok("dom_dialog", map[string]any{"accept": true})
	f.ok("dom_key", map[string]any{"id": pw, "key": "End"})
	f.ok("dom_snapshot", map[string]any{"format": "json"})
	f.ok("dom_snapshot", map[string]any{"bounds": true})
	f.ok("dom_screenshot", map[string]any{"marks": true})
	f.ok("dom_type", map[string]any{"id": pw, "text": secret + "-2"})
	f.mu.Lock()
	typed := 0
	for _, c := range f.calls {
		if c.Tool == "dom_type" && c.Target == "node_"+pw {
			typed++
			if !strings.Contains(c.Args, dom.Mask) {
				t.Errorf("observed call %s %s does not mask the text", c.Tool, c.Args)
			}
			if c.Action != nil && c.Action.Text != dom.Mask && c.Action.Text != dom.Mask+"\n" {
				t.Errorf("observed action %+v does not mask the text", *c.Action)
			}
		}
	}
	f.mu.Unlock()
	if typed != 4 {
		t.Errorf("observed %d reports of typing into the password field, want 4", typed)
	}
	f.noSecret(secret)
}

// TestStaleID: an id the agent saw whose node is gone fails with
// NODE_STALE. The error names what it was and the nearest match now.
func TestStaleID(t *testing.T) {
	f := setup(t, mcp.ViewDiff, "")
	view := f.ok("dom_snapshot", nil)
	old := idOf(t, view, `button "Remove me"`)
	out := f.ok("dom_click", map[string]any{"id": old})
	now := idOf(t, out, `^\+.*button "Remove me"`)
	if now == old {
		t.Fatalf("the new button kept the old id %s:\n%s", old, out)
	}
	msg := f.fails("dom_click", map[string]any{"id": old}, dom.NodeStale)
	want := `NODE_STALE: node_` + old + ` (button "Remove me") is gone from the page; the nearest match now is [` + now + `] button "Remove me"`
	if !strings.HasPrefix(msg, want) || !strings.Contains(msg, "retryable: yes") {
		t.Errorf("stale error:\n%s\nwant it to start %q", msg, want)
	}
	f.ok("dom_click", map[string]any{"id": now})
	f.fails("dom_click", map[string]any{"id": 99999}, dom.NodeNotFound)
}

// TestDialog: a dialog an action opens is reported. Every other tool says
// DIALOG_OPEN and to call dom_dialog, which closes it.
func TestDialog(t *testing.T) {
	f := setup(t, mcp.ViewDiff, "")
	view := f.ok("dom_snapshot", nil)
	out := f.ok("dom_click", map[string]any{"id": idOf(t, view, `button "Ask"`)})
	if !strings.Contains(out, `dialog: confirm "Really?" is open`) {
		t.Errorf("click answer does not report the dialog:\n%s", out)
	}
	for _, c := range []struct {
		tool string
		args any
	}{{"dom_click", map[string]any{"id": idOf(t, view, `button "Add item"`)}}, {"dom_snapshot", nil}, {"dom_screenshot", nil}} {
		if msg := f.fails(c.tool, c.args, dom.DialogOpen); !strings.Contains(msg, "next: call dom_dialog") {
			t.Errorf("%s: DIALOG_OPEN does not say to call dom_dialog:\n%s", c.tool, msg)
		}
	}
	f.ok("dom_dialog", map[string]any{"accept": false})
	if got := f.eval(`document.getElementById('status').textContent`); got != "cancelled" {
		t.Errorf("status %q after dismissing, want cancelled", got)
	}
	f.fails("dom_dialog", map[string]any{"accept": true}, dom.ValidationError)
}

// TestNavigation: an action that navigates answers with the new page's
// view. So do back, forward, reload and navigate.
func TestNavigation(t *testing.T) {
	f := setup(t, mcp.ViewDiff, "")
	view := f.ok("dom_snapshot", nil)
	out := f.ok("dom_click", map[string]any{"id": idOf(t, view, `link "Next page"`)})
	for _, want := range []string{`navigated to "Page two" ` + f.base + "/page2.html\n", `h1 "Second page"`} {
		if !strings.Contains(out, want) {
			t.Errorf("navigating click answer lacks %q:\n%s", want, out)
		}
	}
	if out := f.ok("dom_back", nil); !strings.Contains(out, `h1 "Tasks"`) {
		t.Errorf("dom_back:\n%s", out)
	}
	if out := f.ok("dom_forward", nil); !strings.Contains(out, `h1 "Second page"`) {
		t.Errorf("dom_forward:\n%s", out)
	}
	if out := f.ok("dom_reload", nil); !strings.Contains(out, `h1 "Second page"`) {
		t.Errorf("dom_reload:\n%s", out)
	}
	out = f.ok("dom_navigate", map[string]any{"url": f.base + "/app.html"})
	if !strings.Contains(out, `h1 "Tasks"`) || strings.Contains(out, `"Far below"`) || !strings.Contains(out, "outside the viewport") {
		t.Errorf("dom_navigate: want the visible part of the page and a line counting the rest:\n%s", out)
	}
	// A new document at the same URL is a new view too.
	if out := f.ok("dom_navigate", map[string]any{"url": f.base + "/app.html"}); !strings.Contains(out, `h1 "Tasks"`) || strings.Contains(out, "\n- ") {
		t.Errorf("dom_navigate to the same URL: want the new view, not a diff:\n%s", out)
	}
	// A same-document navigation answers with its diff, not a new view.
	view = f.ok("dom_snapshot", nil)
	out = f.ok("dom_click", map[string]any{"id": idOf(t, view, `link "Show more"`)})
	if !strings.HasPrefix(out, "click ["+idOf(t, view, `link "Show more"`)+"]: navigated to #more\n") || !strings.Contains(out, "\n~ at #more\n") || strings.Contains(out, `h1 "Tasks"`) {
		t.Errorf("a fragment link's answer is not its diff:\n%s", out)
	}
}

// TestToolsHappyPaths: each remaining tool does what it says on the page.
func TestToolsHappyPaths(t *testing.T) {
	f := setup(t, mcp.ViewDiff, "")
	view := f.ok("dom_snapshot", nil)
	status := func() string { return f.eval(`document.getElementById('status').textContent`) }
	f.ok("dom_select", map[string]any{"id": idOf(t, view, `combobox "Plan"`), "value": "Pro"})
	if got := f.eval(`document.getElementById('plan').value`); got != "Pro" {
		t.Errorf("plan %q after dom_select, want Pro", got)
	}
	f.ok("dom_hover", map[string]any{"id": idOf(t, view, `button "Hover me"`)})
	if got := status(); got != "hovered" {
		t.Errorf("status %q after dom_hover", got)
	}
	f.ok("dom_key", map[string]any{"id": idOf(t, view, `textbox "Keys"`), "key": "Escape"})
	if got := status(); got != "escaped" {
		t.Errorf("status %q after dom_key Escape", got)
	}
	f.ok("dom_scroll", map[string]any{"id": idOf(t, view, `button "Far below"`)})
	if got := f.eval(`String(window.scrollY > 1000)`); got != "true" {
		t.Errorf("dom_scroll to a node far below did not scroll the page")
	}
	f.ok("dom_scroll", map[string]any{"dy": -5000})
	f.ok("dom_scroll", nil)
	f.ok("dom_click", map[string]any{"id": idOf(t, view, `button "Add item"`)})
	if out := f.ok("dom_wait", map[string]any{"text": "item 1"}); !strings.HasPrefix(out, "wait: ok") {
		t.Errorf("dom_wait:\n%s", out)
	}
	f.ok("dom_wait", map[string]any{"ms": 50})
	f.ok("dom_viewport", map[string]any{"width": 400, "height": 300})
	if got := f.eval(`String(window.innerWidth)`); got != "400" {
		t.Errorf("innerWidth %s after dom_viewport 400x300", got)
	}
	f.ok("dom_viewport", map[string]any{"reset": true})
	if r := f.call("dom_screenshot", nil); r.isError || r.images != 1 {
		t.Errorf("dom_screenshot: %d images, error %v: %s", r.images, r.isError, r.text)
	}
	// Tabs: a new one, the list, back to the first, close the new one.
	out := f.ok("dom_tabs", map[string]any{"action": "new", "url": f.base + "/page2.html"})
	if !strings.Contains(out, `h1 "Second page"`) {
		t.Errorf("dom_tabs new:\n%s", out)
	}
	list := f.ok("dom_tabs", nil)
	if !strings.Contains(list, "*") || !strings.Contains(list, "page2.html") || !strings.Contains(list, "app.html") {
		t.Errorf("dom_tabs list:\n%s", list)
	}
	if out := f.ok("dom_tabs", map[string]any{"action": "select", "tab": f.page.TargetID()}); !strings.Contains(out, `h1 "Tasks"`) {
		t.Errorf("dom_tabs select:\n%s", out)
	}
	f.ok("dom_tabs", map[string]any{"action": "close", "tab": "page2.html"})
	if list := f.ok("dom_tabs", nil); strings.Contains(list, "page2.html") {
		t.Errorf("the closed tab is still listed:\n%s", list)
	}
}

// TestErrors: bad calls fail with a code, whether to retry and what next.
func TestErrors(t *testing.T) {
	f := setup(t, mcp.ViewDiff, "")
	f.fails("dom_click", map[string]any{"id": 5}, dom.ValidationError) // no view yet
	view := f.ok("dom_snapshot", nil)
	f.fails("dom_click", map[string]any{"id": "nonsense"}, dom.NodeNotFound)
	f.fails("dom_click", map[string]any{}, dom.ValidationError)
	f.fails("dom_click", map[string]any{"id": 5, "colour": "red"}, dom.ValidationError)
	f.fails("dom_snapshot", map[string]any{"format": "xml"}, dom.ValidationError)
	f.fails("dom_snapshot", map[string]any{"selector": "#nothing-here"}, dom.ValidationError)
	f.fails("dom_type", map[string]any{"id": idOf(t, view, `button "Add item"`), "text": "x"}, dom.NotInteractable)
	f.fails("dom_select", map[string]any{"id": idOf(t, view, `combobox "Plan"`), "value": "Gold"}, dom.ValidationError)
	f.fails("dom_wait", nil, dom.ValidationError)
	f.fails("dom_wait", map[string]any{"text": "never shown", "timeout": 300}, dom.Timeout)
	f.fails("dom_tabs", map[string]any{"action": "select", "tab": "no-such-tab"}, dom.TargetNotFound)
	f.fails("dom_tabs", map[string]any{"action": "shuffle"}, dom.ValidationError)
	f.fails("dom_viewport", map[string]any{"width": 100}, dom.ValidationError)
	f.fails("dom_viewport", map[string]any{"device": "toaster"}, dom.ValidationError)
	f.fails("dom_key", map[string]any{"key": "NoSuchKey"}, dom.ValidationError)
}

// TestSnapshotOptions: dom_snapshot's serialization options.
func TestSnapshotOptions(t *testing.T) {
	f := setup(t, mcp.ViewDiff, "")
	full := f.ok("dom_snapshot", nil)
	if !strings.Contains(full, `button "Far below"`) {
		t.Fatalf("the default view lacks a node below the fold:\n%s", full)
	}
	vp := f.ok("dom_snapshot", map[string]any{"offscreen": false})
	if strings.Contains(vp, `"Far below"`) || !strings.Contains(vp, "more nodes outside the viewport not shown") || !strings.Contains(vp, `button "Add item"`) {
		t.Errorf("offscreen:false:\n%s", vp)
	}
	form := f.ok("dom_snapshot", map[string]any{"selector": "form"})
	if !strings.Contains(form, `textbox "Password"`) || strings.Contains(form, "Add item") {
		t.Errorf("selector form:\n%s", form)
	}
	byID := f.ok("dom_snapshot", map[string]any{"selector": "[" + idOf(t, full, `^\[\d+\] form`) + "]"})
	if byID != form {
		t.Errorf("selector by id differs from selector form:\n%s\n---\n%s", byID, form)
	}
	cut := f.ok("dom_snapshot", map[string]any{"maxTokens": 60})
	if !strings.Contains(cut, "more nodes left out to fit maxTokens 60") || flatten.CountTokens(cut) > 60+30 {
		t.Errorf("maxTokens 60 (%d tokens):\n%s", flatten.CountTokens(cut), cut)
	}
	if js := f.ok("dom_snapshot", map[string]any{"format": "json", "maxTokens": 200}); !strings.HasPrefix(js, `{"url":`) || !strings.Contains(js, "left out") {
		t.Errorf("json with maxTokens:\n%s", js)
	}
	if b := f.ok("dom_snapshot", map[string]any{"bounds": true, "selector": "#add"}); !strings.Contains(b, `button "Add item" @`) {
		t.Errorf("bounds:\n%s", b)
	}
	if d := f.ok("dom_snapshot", map[string]any{"maxDepth": 1}); !strings.Contains(d, "deeper nodes cut") {
		t.Errorf("maxDepth 1:\n%s", d)
	}
	if d := f.ok("dom_snapshot", map[string]any{"maxInteractive": 2}); !strings.Contains(d, "more interactive elements not shown") {
		t.Errorf("maxInteractive 2:\n%s", d)
	}
	// A small budget holds the view below the page line, and the note.
	for _, n := range []int{20, 40, 50} {
		for _, off := range []bool{true, false} {
			v := f.ok("dom_snapshot", map[string]any{"maxTokens": n, "offscreen": off})
			_, view, _ := strings.Cut(v, "\n")
			if got := flatten.CountTokens(view); got > n {
				t.Errorf("maxTokens %d: %d tokens:\n%s", n, got, v)
			}
			if !off && strings.Contains(v, "with offscreen:false") {
				t.Errorf("maxTokens %d offscreen:false advises offscreen:false:\n%s", n, v)
			}
		}
	}
}

// TestGate: a paused gate holds calls until it opens. One that waits too
// long fails with an error that says the session is paused.
func TestGate(t *testing.T) {
	g := &mcp.Gate{}
	f := setup(t, mcp.ViewDiff, "", func(c *mcp.Config) { c.Gate, c.GateTimeout = g, 300*time.Millisecond })
	g.Pause()
	msg := f.fails("dom_snapshot", nil, dom.Timeout)
	if !strings.Contains(msg, "paused") || !strings.Contains(msg, "retryable: yes") {
		t.Errorf("a call held too long does not say the session is paused, to retry:\n%s", msg)
	}
	f.mu.Lock()
	last := f.calls[len(f.calls)-1]
	f.mu.Unlock()
	if !last.IsError || last.Ms < 300 {
		t.Errorf("the paused call reports %.0f ms, not the time it waited (300 ms or more)", last.Ms)
	}
	g.Pause()
	done := make(chan result, 1)
	go func() { done <- callTool(t, f.cs, "dom_snapshot", nil) }()
	select {
	case r := <-done:
		t.Fatalf("a call ran while paused: %s", r.text)
	case <-time.After(100 * time.Millisecond):
	}
	g.Resume()
	if r := <-done; r.isError {
		t.Errorf("the held call failed after resume:\n%s", r.text)
	}
}

// TestSetTab: the host (the UI) can point the tools at the tab it shows.
func TestSetTab(t *testing.T) {
	f := setup(t, mcp.ViewDiff, "")
	f.ok("dom_snapshot", nil)
	p2 := cdptest.Page(t, f.base+"/page2.html")
	svc2 := live.NewService(p2, live.Config{})
	t.Cleanup(func() { _ = svc2.Close() })
	f.server.SetTab(svc2, p2)
	if out := f.ok("dom_snapshot", nil); !strings.Contains(out, `h1 "Second page"`) {
		t.Errorf("after SetTab the view is not of the new tab:\n%s", out)
	}
	f.server.SetTab(f.svc, f.page)
	if out := f.ok("dom_snapshot", nil); !strings.Contains(out, `h1 "Tasks"`) {
		t.Errorf("after SetTab back the view is not of the first tab:\n%s", out)
	}
}

// TestSelectedTabClosedOutside: a person closes the tab the tools act
// on. The next call says so, without retry, and no tab is selected.
func TestSelectedTabClosedOutside(t *testing.T) {
	f := setup(t, mcp.ViewDiff, "")
	p2 := cdptest.Page(t, f.base+"/page2.html")
	f.ok("dom_tabs", map[string]any{"action": "select", "tab": p2.TargetID()})
	if err := p2.Call(domtest.Ctx(t), "Page.close", nil, nil); err != nil {
		t.Fatal(err)
	}
	msg := f.fails("dom_snapshot", nil, dom.NotAttached)
	for _, want := range []string{"was closed", "retryable: no", "dom_tabs list"} {
		if !strings.Contains(msg, want) {
			t.Errorf("the answer after the tab closed lacks %q:\n%s", want, msg)
		}
	}
	if list := f.ok("dom_tabs", nil); strings.Contains(list, "\n*") || strings.Contains(list, p2.TargetID()) {
		t.Errorf("the closed tab is still listed or selected:\n%s", list)
	}
	if msg := f.fails("dom_click", map[string]any{"id": "1"}, dom.NotAttached); !strings.Contains(msg, "no tab is selected") {
		t.Errorf("a call with no tab selected:\n%s", msg)
	}
}

// TestSelectTabTheUILeft: the UI handed a tab's service over (SetTab),
// then left the tab and closed that service. Selecting the tab again
// attaches it afresh instead of using the closed service.
func TestSelectTabTheUILeft(t *testing.T) {
	f := setup(t, mcp.ViewDiff, "")
	p2 := cdptest.Page(t, f.base+"/page2.html")
	// The UI's own session on the tab: closing it leaves the tab open.
	ui, err := cdptest.Browser(t).Attach(domtest.Ctx(t), p2.TargetID())
	if err != nil {
		t.Fatal(err)
	}
	svc2 := live.NewService(ui, live.Config{})
	f.server.SetTab(svc2, ui)
	f.server.SetTab(f.svc, f.page)
	_ = svc2.Close()
	out := f.ok("dom_tabs", map[string]any{"action": "select", "tab": p2.TargetID()})
	if !strings.Contains(out, `h1 "Second page"`) {
		t.Errorf("selecting the tab the UI left:\n%s", out)
	}
}
