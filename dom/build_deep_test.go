package dom

import (
	"strings"
	"testing"
)

// TestTenThousandDeep: a page nested 10,000 levels deep builds, flattens and
// formats (no recursion anywhere; encoding/json alone refuses this depth).
func TestTenThousandDeep(t *testing.T) {
	const depth = 10000
	leaf := el("button", []string{"id", "deep"}, txt("Deep button")).ax("button", "Deep button")
	n := leaf
	for i := 0; i < depth; i++ {
		n = el("div", nil, n)
	}
	s := mustBuild(t, page(n), BuildOptions{})
	b := findNode(s, byAttr("id", "deep"))
	if b == nil || b.Tier != Semantic {
		t.Fatalf("deep button: %+v", b)
	}
	sd, d := Flatten(s, DefaultOptions())
	if len(d) != len(s.ByID) {
		t.Errorf("%d decisions for %d nodes", len(d), len(s.ByID))
	}
	if findSerialized(sd.Nodes, b.ID) == nil {
		t.Error("deep button not in the output")
	}
	text := FormatText(sd)
	if !strings.Contains(text, `button "Deep button"`) {
		t.Errorf("text: %q", text)
	}
	if _, err := FormatJSON(sd); err != nil {
		t.Error(err)
	}
	tree := FormatTree(s, d)
	if lines := strings.Count(tree, "\n"); lines != len(s.ByID) {
		t.Errorf("tree has %d lines for %d nodes", lines, len(s.ByID))
	}
	if len(tree) > 5<<20 {
		t.Errorf("tree output %d bytes: indentation not capped", len(tree))
	}
	next, err := Build(s.Raw, BuildOptions{Prev: s})
	if err != nil {
		t.Fatal(err)
	}
	if dd := Diff(s, next); len(dd.Added)+len(dd.Removed)+len(dd.Renamed) != 0 {
		t.Errorf("rebuild of the same capture differs: %+v", dd)
	}
}

// TestMaxDepthMarker: kept groups nested beyond MaxDepth are cut with a
// marker, and switching the rule off keeps them.
func TestMaxDepthMarker(t *testing.T) {
	leaf := el("button", []string{"id", "leaf"}, txt("Leaf")).ax("button", "Leaf")
	n := leaf
	for i := 0; i < 150; i++ {
		n = el("div", []string{"role", "group", "aria-label", "g"}, n).ax("group", "g")
	}
	s := mustBuild(t, page(n), BuildOptions{})
	sd, d := Flatten(s, DefaultOptions())
	if !strings.Contains(FormatText(sd), "maxDepth 100") {
		t.Error("no depth marker")
	}
	id := findNode(s, byAttr("id", "leaf")).ID
	if d[id].Rule != FlatMaxDepth || findSerialized(sd.Nodes, id) != nil {
		t.Errorf("leaf beyond max depth: %+v", d[id])
	}
	o := DefaultOptions()
	o.Disabled = map[string]bool{FlatMaxDepth: true}
	sd, _ = Flatten(s, o)
	if findSerialized(sd.Nodes, id) == nil {
		t.Error("max-depth off still cuts")
	}
}
