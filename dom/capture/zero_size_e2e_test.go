package capture_test

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"domscope/cdpconn/cdptest"
	"domscope/dom"
	"domscope/dom/build"
	"domscope/dom/flatten"
)

// TestZeroSizeWrappers: an inline that wraps a block has a layout box of
// no width, yet its content is drawn. It is zero-size only when nothing
// inside it is drawn either. The page's own checkVisibility agrees on
// the wrappers. The LLM view keeps them.
func TestZeroSizeWrappers(t *testing.T) {
	p, _, _ := capOpen(t, "zero-size.html")
	s, err := build.Build(capRaw(t, p), build.Options{})
	if err != nil {
		t.Fatal(err)
	}
	byID := func(id string) *dom.VirtualNode {
		for _, n := range s.ByID {
			if n.Attrs["id"] == id {
				return n
			}
		}
		t.Fatalf("no #%s", id)
		return nil
	}
	for id, want := range map[string]string{
		"wrap-h1": "", "wrap-div": "", "visible": "",
		"empty-link": dom.HiddenZeroSize, "bare-button": dom.HiddenZeroSize,
		"wrap-ghost": dom.HiddenZeroSize, "wrap-empty": dom.HiddenZeroSize,
	} {
		n := byID(id)
		if n.Hidden != want || n.Visible != (want == "") {
			t.Errorf("#%s (box %v): hidden %q, want %q", id, n.Bounds, n.Hidden, want)
		}
		if n.Bounds.W >= 1 && n.Bounds.H >= 1 && id != "visible" {
			t.Errorf("#%s has a box of %v: the page no longer tests a box of no size", id, n.Bounds)
		}
	}
	sd, _ := flatten.Flatten(s, dom.DefaultOptions())
	text := flatten.FormatText(sd)
	for _, line := range []string{`link "todos"`, `button "Card title"`} {
		if !strings.Contains(text, line) {
			t.Errorf("the LLM view has no %s:\n%s", line, text)
		}
	}
	for _, gone := range []string{"empty", "nothing", "Ghost"} {
		if strings.Contains(text, gone) {
			t.Errorf("the LLM view shows a zero-size link (%s):\n%s", gone, text)
		}
	}
}

// TestZeroSizeTodoMVC: the TodoMVC apps whose header is
// <a href="#/"><h1>todos</h1></a> show it as a link in the LLM view.
func TestZeroSizeTodoMVC(t *testing.T) {
	if testing.Short() {
		t.Skip("the TodoMVC corpus is long; not with -short")
	}
	corpus := filepath.Join(cdptest.Shared(t), "corpus", "todomvc")
	base, _ := cdptest.Serve(t, corpus)
	links := 0
	for _, app := range []string{"react", "vue", "angular/browser", "preact", "svelte", "jquery", "javascript-es6", "backbone", "lit", "web-components"} {
		p := cdptest.Page(t, base+"/"+app+"/index.html")
		var s *dom.Snapshot
		var header *dom.VirtualNode
		// the apps render from script: wait for the header to show
		for deadline := time.Now().Add(10 * time.Second); header == nil && time.Now().Before(deadline); {
			var err error
			if s, err = build.Build(capRaw(t, p), build.Options{}); err != nil {
				t.Fatal(err)
			}
			for _, n := range s.ByID {
				if n.Tag == "h1" && strings.EqualFold(strings.TrimSpace(subtreeText(n)), "todos") {
					header = n
				}
			}
			if header == nil {
				time.Sleep(100 * time.Millisecond)
			}
		}
		if header == nil {
			t.Fatalf("%s: no <h1>todos</h1> (any case)", app)
		}
		var link *dom.VirtualNode
		for a := header.Parent; a != nil; a = a.Parent {
			if a.Tag == "a" {
				link = a
			}
		}
		if link == nil {
			continue
		}
		links++
		sd, _ := flatten.Flatten(s, dom.DefaultOptions())
		if !link.Visible || !strings.Contains(flatten.FormatText(sd), `link "todos"`) {
			t.Errorf("%s: the header link (box %v) is hidden %q; the LLM view has no link \"todos\"", app, link.Bounds, link.Hidden)
		}
	}
	if links == 0 {
		t.Errorf("no app's header is a link: the corpus changed")
	}
}

func subtreeText(n *dom.VirtualNode) string {
	var b strings.Builder
	stack := []*dom.VirtualNode{n}
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if x.NodeType == dom.TextNode {
			b.WriteString(x.Text)
		}
		for i := len(x.Children) - 1; i >= 0; i-- {
			stack = append(stack, x.Children[i])
		}
	}
	return b.String()
}
