package query

import (
	"testing"

	"domscope/dom"
)

// TestLookPath: a node's path leads back to it, through an open shadow
// root and a frame's document; a closed shadow root has none; a path the
// page made up finds nothing and does not panic.
func TestLookPath(t *testing.T) {
	add := func(p *dom.VirtualNode, n *dom.VirtualNode) *dom.VirtualNode {
		n.Parent = p
		p.Children = append(p.Children, n)
		return n
	}
	el := func(tag string) *dom.VirtualNode { return &dom.VirtualNode{Tag: tag, NodeType: dom.ElementNode} }
	root := &dom.VirtualNode{Tag: "#document", NodeType: dom.DocumentNode}
	html := add(root, el("html"))
	body := add(html, el("body"))
	add(body, &dom.VirtualNode{Tag: "#text", NodeType: dom.TextNode})
	add(body, el("p"))
	host := add(body, el("div"))
	open := add(host, &dom.VirtualNode{Tag: "#shadow-root", NodeType: dom.FragmentNode, ShadowType: "open"})
	add(host, el("span")) // a light child after the shadow root
	inner := add(open, el("button"))
	frame := add(body, el("iframe"))
	doc := add(frame, &dom.VirtualNode{Tag: "#document", NodeType: dom.DocumentNode})
	fbody := add(add(doc, el("html")), el("body"))
	list := add(fbody, el("ul"))
	closedHost := add(body, el("x-closed"))
	closed := add(closedHost, &dom.VirtualNode{Tag: "#shadow-root", NodeType: dom.FragmentNode, ShadowType: "closed"})
	hidden := add(closed, el("button"))

	for _, c := range []struct {
		n    *dom.VirtualNode
		want string
	}{{inner, "0/0/1/s/0"}, {list, "0/0/2/f/0/0/0"}, {host, "0/0/1"}} {
		p, ok := lookPath(c.n, "")
		if !ok || p != c.want {
			t.Errorf("path of %s: %q %v, want %q", c.n.Tag, p, ok, c.want)
		}
		if got := nodeAt(root, p); got != c.n {
			t.Errorf("nodeAt(%q) = %v", p, got)
		}
	}
	if _, ok := lookPath(hidden, ""); ok {
		t.Errorf("a node in a closed shadow root has a path")
	}
	if _, ok := lookPath(&dom.VirtualNode{Tag: "b", NodeType: dom.ElementNode, TargetID: "other"}, "page"); ok {
		t.Errorf("a node of another target has a path")
	}
	for _, bad := range []string{"", "x", "99", "0/9/9", "0/1/1/s/5", "s", "f/f", "-1", "0//1", "0/1/0/s"} {
		if n := nodeAt(root, bad); n != nil {
			t.Errorf("nodeAt(%q) = %s, want nil", bad, n.Tag)
		}
	}
}
