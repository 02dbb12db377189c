package live_test

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"domscope/cdpconn/cdptest"
	. "domscope/dom"
	. "domscope/dom/live"
)

// hasChange reports whether an action's result lists a change of kind on
// node id (what "" for any).
func hasChange(res ActionResult, id, kind, what string) bool {
	for _, c := range res.Changes.Nodes {
		if c.ID == id && c.Kind == kind && (what == "" || c.What == what) {
			return true
		}
	}
	return false
}

// The changes an action lists include states, visibility and the lines of
// the flattened view, not only added and removed nodes. The actions:
// ticking a TodoMVC checkbox, hovering a todo (its Delete button shows)
// and ArrowDown on a combobox (it expands).
func TestChangesListStatesVisibilityAndFlatLines(t *testing.T) {
	dir := filepath.Join(cdptest.Shared(t), "corpus", "todomvc")
	base, _ := cdptest.Serve(t, dir)
	app := todoApps["react"]
	svc, _ := openService(t, base+app.path, Config{})
	input := findNode(snap(t, svc), func(n *VirtualNode) bool { return hasClass(n, app.input) })
	if input == nil {
		t.Fatal("no new-todo input")
	}
	mustOK(t, svc.Do(ctx(t), Action{Kind: "type", ID: input.ID, Text: "Buy milk\n"}))
	s := snap(t, svc)
	toggle := findNode(s, func(n *VirtualNode) bool { return hasClass(n, app.toggle) })
	destroy := findNode(s, func(n *VirtualNode) bool { return hasClass(n, "destroy") })
	if toggle == nil || destroy == nil {
		t.Fatal("no toggle or destroy button")
	}

	res := svc.Do(ctx(t), Action{Kind: "click", ID: toggle.ID})
	mustOK(t, res)
	if !hasChange(res, toggle.ID, "state", "checked") {
		t.Errorf("ticking the checkbox: changes %+v lack its checked state", res.Changes.Nodes)
	}
	if !strings.Contains(strings.Join(res.Changes.Flat, "\n"), "checked") {
		t.Errorf("ticking the checkbox: the flat view's diff %q does not show it checked", res.Changes.Flat)
	}
	b, _ := json.Marshal(res)
	if !strings.Contains(string(b), `"kind":"state","what":"checked"`) {
		t.Errorf("the JSON result lacks the state change: %s", b)
	}

	// The mouse is on the todo after the click, so its Delete button shows.
	// Hovering the input hides it; hovering the todo again shows it.
	destroy = findNode(snap(t, svc), func(n *VirtualNode) bool { return hasClass(n, "destroy") })
	if destroy == nil || destroy.Hidden != "" {
		t.Fatalf("the Delete button is not shown with the mouse on its todo: %+v", destroy)
	}
	res = svc.Do(ctx(t), Action{Kind: "hover", ID: input.ID})
	mustOK(t, res)
	if !hasChange(res, destroy.ID, "hidden", "") {
		t.Errorf("hovering away from the todo: changes %+v lack the Delete button hidden", res.Changes.Nodes)
	}
	res = svc.Do(ctx(t), Action{Kind: "hover", ID: toggle.ID})
	mustOK(t, res)
	if !hasChange(res, destroy.ID, "shown", "") {
		t.Errorf("hovering the todo: changes %+v lack the Delete button shown", res.Changes.Nodes)
	}

	abase, _ := cdptest.Serve(t, filepath.Join(cdptest.Shared(t), "corpus", "aria-practices"))
	csvc, _ := openService(t, abase+"/content/patterns/combobox/examples/combobox-select-only.html", Config{})
	combo := byAttrID(t, snap(t, csvc), "combo1")
	res = csvc.Do(ctx(t), Action{Kind: "key", ID: combo.ID, Key: "ArrowDown"})
	mustOK(t, res)
	if !hasChange(res, combo.ID, "state", "expanded") {
		t.Errorf("ArrowDown on the combobox: changes %+v lack expanded", res.Changes.Nodes)
	}
}

// A typed password changes the field's value, and the change says so
// without the value.
func TestChangesMaskSensitiveValues(t *testing.T) {
	const secret = "Sw0rdf1sh-changes"
	svc, _ := openService(t, "data:text/html,<input id=pw type=password aria-label=Password><input id=t aria-label=Name>", Config{})
	pw := byAttrID(t, snap(t, svc), "pw")
	res := svc.Do(ctx(t), Action{Kind: "type", ID: pw.ID, Text: secret})
	mustOK(t, res)
	b, _ := json.Marshal(res)
	if strings.Contains(string(b), secret) || strings.Contains(string(b), secret[:6]) {
		t.Fatalf("the result holds the password: %s", b)
	}
	if !hasChange(res, pw.ID, "state", "value") {
		t.Errorf("typing a password: changes %+v lack the value change (masked)", res.Changes.Nodes)
	}
}
