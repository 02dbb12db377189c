package views

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"domscope/dom"
	"domscope/themes"
)

// A short details pane (80x24 leaves it 4 rows) after an action that
// sent requests. What just happened stays: the node's first line, the
// last action, its network and the changes. The node's other lines give
// way.
func TestDetailsKeepLastActionBesideNetwork(t *testing.T) {
	st := themes.For(true, true)
	n := &dom.VirtualNode{ID: "node_60", NodeType: dom.ElementNode, Tag: "a", Role: "link", Name: "Acme shop",
		Attrs: map[string]string{"href": "/products.html"}}
	d := DetailsData{
		Node:     n,
		Last:     &dom.ActionResult{Success: true, Network: []dom.NetworkRequest{{Method: "GET", URL: "http://h:1/products.html", Status: 200, Ms: 5}}},
		LastDesc: "click on node_19",
		Changes:  "changes: a new document",
		Origin:   "http://h:1",
	}
	for _, h := range []int{4, 5, 8} {
		got := ansi.Strip(strings.Join(Details(st, d, 78, h), "\n"))
		for _, want := range []string{"node_60", "last action: click on node_19", "network: GET /products.html 200", "changes: a new document"} {
			if !strings.Contains(got, want) {
				t.Errorf("h=%d: %q is missing from the details pane:\n%s", h, want, got)
			}
		}
		if lines := strings.Count(got, "\n") + 1; lines > h {
			t.Errorf("h=%d: %d lines", h, lines)
		}
	}
}

// The last action's line starts with its verdict. What flashed, the
// last action's late effect and the errors seen are listed under it.
func TestDetailsVerdictAndWhatHappened(t *testing.T) {
	st := themes.For(true, true)
	d := DetailsData{
		Last: &dom.ActionResult{Success: true, Effect: dom.EffectChanged,
			Flashed:    []dom.Flash{{Role: "alert", Text: "Invalid email address", Ms: 600}},
			Later:      &dom.Later{AfterMs: 400, Flat: []string{"+ Export ready"}},
			ErrorsSeen: []string{`alert "Invalid email address" (flashed)`}},
		LastDesc: "click on node_19",
	}
	got := ansi.Strip(strings.Join(Details(st, d, 120, 10), "\n"))
	for _, want := range []string{"last action: changed · click on node_19 → ok", `flashed: alert "Invalid email address" (0.6 s)`,
		"since the last action (0.4 s after it): 1 lines changed", `errors seen: alert "Invalid email address" (flashed)`} {
		if !strings.Contains(got, want) {
			t.Errorf("%q is missing from the details pane:\n%s", want, got)
		}
	}
}
