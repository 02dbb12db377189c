package live_test

import (
	"testing"

	. "domscope/dom"
	"domscope/dom/internal/domtest"
	. "domscope/dom/live"
)

// TestQueryCSSInShownSnapshot: a selector is mapped to the snapshot the
// caller shows, not to a newer one the service took since. An MCP view
// of the older snapshot must not cut to nodes it does not hold.
func TestQueryCSSInShownSnapshot(t *testing.T) {
	svc, p := openService(t, "data:text/html,<ul><li>one</li><li>two</li></ul>", Config{})
	shown, err := svc.Snapshot(ctx(t), false)
	if err != nil {
		t.Fatal(err)
	}
	domtest.EvalJS(t, p, `document.querySelector('ul').insertAdjacentHTML('afterbegin', '<li>zero</li>'); true`)
	newer, err := svc.Snapshot(ctx(t), true)
	if err != nil || newer == shown {
		t.Fatalf("no newer snapshot: %v", err)
	}
	in := map[*VirtualNode]bool{}
	walk(shown.Root, func(n *VirtualNode) bool { in[n] = true; return true })
	nodes, err := svc.QueryCSSIn(ctx(t), shown, "li")
	if err != nil {
		t.Fatal(err)
	}
	if len(nodes) != 2 {
		t.Errorf("%d matches in the shown snapshot, want its 2 items", len(nodes))
	}
	for _, n := range nodes {
		if !in[n] {
			t.Errorf("%s is not a node of the shown snapshot", n.ID)
		}
	}
	if now, err := svc.QueryCSS(ctx(t), "li"); err != nil || len(now) != 3 {
		t.Errorf("the current snapshot: %d matches, %v; want 3", len(now), err)
	}
}

// TestQueryCSSHostilePage: a page that redefines querySelectorAll (and
// Array.from) to point at a decoy does not steer a CSS query.
func TestQueryCSSHostilePage(t *testing.T) {
	page := `data:text/html,<button id=real>Real</button><button id=decoy>Decoy</button><script>` +
		`const decoy = document.getElementById('decoy');` +
		`Document.prototype.querySelectorAll = function() { return [decoy]; };` +
		`Element.prototype.querySelectorAll = function() { return [decoy]; };` +
		`const from = Array.from; Array.from = function() { return [decoy]; };` +
		`</script>`
	svc, p := openService(t, page, Config{})
	if got := domtest.EvalString(t, p, `document.querySelectorAll('#real')[0].id`); got != "decoy" {
		t.Fatalf("the page's own querySelectorAll is not hostile: %q", got)
	}
	nodes, err := svc.QueryCSS(ctx(t), "#real")
	if err != nil {
		t.Fatal(err)
	}
	if len(nodes) != 1 || nodes[0].Attrs["id"] != "real" {
		var ids []string
		for _, n := range nodes {
			ids = append(ids, n.Attrs["id"])
		}
		t.Errorf("#real matched %v, want the real button only", ids)
	}
}
