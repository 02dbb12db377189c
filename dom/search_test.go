package dom_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"domscope/cdpconn/cdptest"
	"domscope/dom"
	"domscope/dom/demo"
	"domscope/dom/live"
)

// TestRecordSearchPages records the pages the search ranking is tested on:
// the demo's sign-in page, and Vue's TodoMVC with two todos (so its
// filter links show). go test ./dom -run TestRecordSearchPages -record
func TestRecordSearchPages(t *testing.T) {
	if !*record {
		t.Skip("recording only with -record")
	}
	t.Run("demo-signin", func(t *testing.T) {
		base, stop, err := demo.Serve()
		if err != nil {
			t.Fatal(err)
		}
		defer stop()
		writeRecording(t, "demo-signin", capRaw(t, cdptest.Page(t, base+"/signin.html")))
	})
	t.Run("todomvc-vue", func(t *testing.T) {
		u, _ := cdptest.Serve(t, filepath.Join(cdptest.Shared(t), "corpus", "todomvc"))
		p := cdptest.Page(t, u+"/vue/index.html")
		svc := live.NewService(p, live.Config{})
		defer svc.Close()
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		for _, todo := range []string{"Buy milk", "Walk the dog"} {
			var input *dom.VirtualNode
			for deadline := time.Now().Add(10 * time.Second); input == nil && time.Now().Before(deadline); {
				s, err := svc.Snapshot(ctx, true)
				if err != nil {
					t.Fatal(err)
				}
				if hits := dom.FindNodes(s, dom.Query{Role: "textbox"}); len(hits) > 0 {
					input = hits[0]
				} else {
					time.Sleep(100 * time.Millisecond)
				}
			}
			if input == nil {
				t.Fatal("no new-todo textbox")
			}
			if r := svc.Do(ctx, dom.Action{Kind: "type", ID: input.ID, Text: todo + "\n"}); !r.Success {
				t.Fatalf("typing %q: %v", todo, r.Error)
			}
		}
		writeRecording(t, "todomvc-vue", capRaw(t, p))
	})
}

// TestSearchRanking: / search ranks by how a node matches (the whole
// accessible name, a name prefix, a name holding the query, role, tag and
// id, attributes) and puts visible, interactive nodes first in each group.
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
		// both links carry the class; "todos" (an <a> around an
		// absolutely placed h1) is visible and comes first in the page
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
			if s, err = dom.Build(loadRecording(t, c.page), dom.BuildOptions{}); err != nil {
				t.Fatal(err)
			}
			snaps[c.page] = s
		}
		hits := dom.Search(s, c.q)
		if len(hits) == 0 {
			t.Errorf("%s /%s: no hits", c.page, c.q)
			continue
		}
		if got := describeHit(hits[0].Node); got != c.first || hits[0].Kind != c.kind {
			t.Errorf("%s /%s: first hit %s (%s), want %s (%s); all: %s", c.page, c.q, got, hits[0].Kind, c.first, c.kind, describeHits(hits))
		}
	}

	// In a group, a visible interactive node comes before a visible one
	// that is not, and a visible one before a hidden one.
	for _, q := range []string{"email", "a", "todo"} {
		hits := dom.Search(snaps["demo-signin"], q)
		hits = append(hits, dom.Search(snaps["todomvc-vue"], q)...)
		for i := 1; i < len(hits); i++ {
			a, b := hits[i-1], hits[i]
			if a.Kind == b.Kind && a.Node.Visible == b.Node.Visible && !dom.IsInteractive(a.Node) && dom.IsInteractive(b.Node) {
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

func describeHits(hits []dom.SearchHit) string {
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

// BenchmarkSearch: one / search (each key press of an incremental one)
// on a 10,000-element page.
func BenchmarkSearch(b *testing.B) {
	s, err := dom.Build(loadRecording(b, "synthetic-10000"), dom.BuildOptions{})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		dom.Search(s, "button")
	}
}
