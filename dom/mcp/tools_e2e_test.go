package mcp_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"domscope/dom"
	"domscope/dom/mcp"
)

// The tool names are a contract with every agent that uses them.
var contract = []string{"dom_back", "dom_click", "dom_dialog", "dom_forward", "dom_hover", "dom_key", "dom_navigate",
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
	if e, _ := prop("dom_snapshot", "format")["enum"].([]any); len(e) != 2 {
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

// TestSnapshotThenClick: the first view is the page; a click answers with
// its result and the lines it changed, not the whole view.
func TestSnapshotThenClick(t *testing.T) {
	f := setup(t, mcp.ViewDiff, "")
	view := f.ok("dom_snapshot", nil)
	if !strings.HasPrefix(view, `page: "MCP test app" `) || !strings.Contains(view, `button "Add item"`) {
		t.Fatalf("view:\n%s", view)
	}
	for _, id := range []any{idOf(t, view, `button "Add item"`), "[" + idOf(t, view, `button "Add item"`) + "]"} {
		out := f.ok("dom_click", map[string]any{"id": id})
		if !strings.HasPrefix(out, "click [") || !strings.Contains(out, ": ok, ") {
			t.Errorf("click answer does not start with its result:\n%s", out)
		}
		if !strings.Contains(out, "\n+ ") || !strings.Contains(out, "Item ") {
			t.Errorf("click answer does not list the added line:\n%s", out)
		}
		if strings.Contains(out, "Next page") {
			t.Errorf("click answer holds the whole view:\n%s", out)
		}
	}
	n, _ := f.page.Call, 0
	_ = n
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

func init() { _ = time.Second; _ = dom.Mask }
