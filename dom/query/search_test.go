package query_test

import (
	"strings"
	"testing"

	"domscope/dom"
	"domscope/dom/build"
	"domscope/dom/internal/recordings"
	"domscope/dom/query"
)

// TestSearchRanking: / search ranks by how a node matches. The order is
// the whole accessible name, a name prefix, a name holding the query,
// role, tag and id, attributes. Each group puts visible, interactive
// nodes first.
func TestSearchRanking(t *testing.T) {
	cases := []struct {
		page, q string
		first   string // the best hit: `role "name"`, or tag#id.class
		kind    string
	}{
		// the filter link named Active, not a.router-link-active (named
		// "todos") through its class
		{"todomvc-vue", "Active", `link "Active"`, "name"},
		{"todomvc-vue", "active", `link "Active"`, "name"},
		{"todomvc-vue", "Act", `link "Active"`, "name prefix"},
		{"todomvc-vue", "What needs", `textbox "What needs to be done?"`, "name prefix"},
		{"todomvc-vue", "needs", `textbox "What needs to be done?"`, "in name"},
		{"todomvc-vue", "Buy", "#text", "text prefix"},
		// Both links carry the class. "todos" (an <a> around an
		// absolutely placed h1) is visible and comes first in the page.
		{"todomvc-vue", "router-link", `link "todos"`, "attr class"},
		{"todomvc-vue", "footer", "footer.footer", "tag"},
		// the textbox first, not its label or the label's text
		{"demo-signin", "Email", `textbox "Email"`, "name"},
		{"demo-signin", "email", `textbox "Email"`, "name"},
		{"demo-signin", "#email", `textbox "Email"`, "id"},
		{"demo-signin", "Pass", `textbox "Password"`, "name prefix"},
		{"demo-signin", "button", `button "Sign in"`, "role"},
		{"demo-signin", "Remember", `checkbox "Remember me"`, "name prefix"},
		{"demo-signin", "current-password", `textbox "Password"`, "attr autocomplete"},
	}
	snaps := map[string]*dom.Snapshot{}
	for _, c := range cases {
		s := snaps[c.page]
		if s == nil {
			var err error
			if s, err = build.Build(recordings.Load(t, c.page), build.Options{}); err != nil {
				t.Fatal(err)
			}
			snaps[c.page] = s
		}
		hits := query.Search(s, c.q)
		if len(hits) == 0 {
			t.Errorf("%s /%s: no hits", c.page, c.q)
			continue
		}
		if got := describeHit(hits[0].Node); got != c.first || hits[0].Kind != c.kind {
			t.Errorf("%s /%s: first hit %s (%s), want %s (%s); all: %s", c.page, c.q, got, hits[0].Kind, c.first, c.kind, describeHits(hits))
		}
	}

	// In a group, a visible interactive node comes before a visible one
	// that is not. A visible one comes before a hidden one.
	for _, q := range []string{"email", "a", "todo"} {
		hits := query.Search(snaps["demo-signin"], q)
		hits = append(hits, query.Search(snaps["todomvc-vue"], q)...)
		for i := 1; i < len(hits); i++ {
			a, b := hits[i-1], hits[i]
			if a.Kind == b.Kind && a.Node.Visible == b.Node.Visible && !build.IsInteractive(a.Node) && build.IsInteractive(b.Node) {
				t.Errorf("/%s: interactive %s after %s, both %s", q, describeHit(b.Node), describeHit(a.Node), a.Kind)
			}
			if a.Kind == b.Kind && !a.Node.Visible && b.Node.Visible {
				t.Errorf("/%s: visible %s after hidden %s, both %s", q, describeHit(b.Node), describeHit(a.Node), a.Kind)
			}
		}
	}
}

func describeHit(n *dom.VirtualNode) string {
	if n.Name != "" && n.NodeType == dom.ElementNode && n.Role != "" {
		return n.Role + ` "` + n.Name + `"`
	}
	s := n.Tag
	if id := n.Attrs["id"]; id != "" {
		s += "#" + id
	}
	if c := n.Attrs["class"]; c != "" {
		s += "." + strings.ReplaceAll(c, " ", ".")
	}
	return s
}

func describeHits(hits []query.SearchHit) string {
	var parts []string
	for i, h := range hits {
		if i == 8 {
			parts = append(parts, "…")
			break
		}
		parts = append(parts, describeHit(h.Node)+" ("+h.Kind+")")
	}
	return strings.Join(parts, ", ")
}

// BenchmarkSearch: one / search on a 10,000-element page. An incremental
// search runs one per key press.
func BenchmarkSearch(b *testing.B) {
	s, err := build.Build(recordings.Load(b, "synthetic-10000"), build.Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		query.Search(s, "button")
	}
}
