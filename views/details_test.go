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
