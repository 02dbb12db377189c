package build_test

import (
	"strings"
	"testing"

	"domscope/dom"
	"domscope/dom/build"
	"domscope/dom/flatten"
	"domscope/dom/internal/fixture"
)

// TestTenThousandDeep: a page nested 10,000 levels deep builds, flattens
// and formats. Nothing recurses; encoding/json alone refuses this depth.
func TestTenThousandDeep(t *testing.T) {
	const depth = 10000
	leaf := fixture.El("button", []string{"id", "deep"}, fixture.Txt("Deep button")).AX("button", "Deep button")
	n := leaf
	for i := 0; i < depth; i++ {
		n = fixture.El("div", nil, n)
	}
	s := fixture.MustBuild(t, fixture.Page(n), build.Options{})
	b := fixture.Find(s, fixture.ByAttr("id", "deep"))
	if b == nil || b.Tier != dom.Semantic {
		t.Fatalf("deep button: %+v", b)
	}
	sd, d := flatten.Flatten(s, dom.DefaultOptions())
	if d.Len() != len(s.ByID) {
		t.Errorf("%d decisions for %d nodes", d.Len(), len(s.ByID))
	}
	if fixture.FindSerialized(sd.Nodes, b.ID) == nil {
		t.Error("deep button not in the output")
	}
	text := flatten.FormatText(sd)
	if !strings.Contains(text, `button "Deep button"`) {
		t.Errorf("text: %q", text)
	}
	if _, err := flatten.FormatJSON(sd); err != nil {
		t.Error(err)
	}
	tree := flatten.FormatTree(s, d)
	if lines := strings.Count(tree, "\n"); lines != len(s.ByID) {
		t.Errorf("tree has %d lines for %d nodes", lines, len(s.ByID))
	}
	if len(tree) > 5<<20 {
		t.Errorf("tree output %d bytes: indentation not capped", len(tree))
	}
	next, err := build.Build(s.Raw, build.Options{Prev: s})
	if err != nil {
		t.Fatal(err)
	}
	if dd := flatten.Diff(s, next); len(dd.Added)+len(dd.Removed)+len(dd.Renamed) != 0 {
		t.Errorf("rebuild of the same capture differs: %+v", dd)
	}
}

// TestMaxDepthMarker: kept groups nested beyond MaxDepth are cut with a
// marker. Switching the rule off keeps them.
func TestMaxDepthMarker(t *testing.T) {
	leaf := fixture.El("button", []string{"id", "leaf"}, fixture.Txt("Leaf")).AX("button", "Leaf")
	n := leaf
	for i := 0; i < 150; i++ {
		n = fixture.El("div", []string{"role", "group", "aria-label", "g"}, n).AX("group", "g")
	}
	s := fixture.MustBuild(t, fixture.Page(n), build.Options{})
	sd, d := flatten.Flatten(s, dom.DefaultOptions())
	if !strings.Contains(flatten.FormatText(sd), "maxDepth 100") {
		t.Error("no depth marker")
	}
	id := fixture.Find(s, fixture.ByAttr("id", "leaf")).ID
	if d.Get(id).Rule != flatten.FlatMaxDepth || fixture.FindSerialized(sd.Nodes, id) != nil {
		t.Errorf("leaf beyond max depth: %+v", d.Get(id))
	}
	o := dom.DefaultOptions()
	o.Disabled = map[string]bool{flatten.FlatMaxDepth: true}
	sd, _ = flatten.Flatten(s, o)
	if fixture.FindSerialized(sd.Nodes, id) == nil {
		t.Error("max-depth off still cuts")
	}
}
