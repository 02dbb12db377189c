package capture_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"testing"
	"time"

	"domscope/cdpconn"
	"domscope/cdpconn/cdptest"
	"domscope/dom"
	"domscope/dom/capture"
)

// capPagesDir is the folder of HTML fixtures.
var capPagesDir = filepath.Join("..", "..", "testdata", "pages")

// capOpen serves testdata/pages on two origins and opens path in a new
// tab. "{other}" in path is replaced by the localhost origin.
func capOpen(t testing.TB, path string) (*cdpconn.Page, string, string) {
	t.Helper()
	u127, ulocal := cdptest.Serve(t, capPagesDir)
	p := cdptest.Page(t, u127+"/"+capReplaceOther(path, ulocal))
	return p, u127, ulocal
}

func capReplaceOther(path, other string) string {
	out := []byte{}
	for i := 0; i < len(path); i++ {
		if i+7 <= len(path) && path[i:i+7] == "{other}" {
			out = append(out, other...)
			i += 6
			continue
		}
		out = append(out, path[i])
	}
	return string(out)
}

// capture runs capture.Capture with a test-sized timeout.
func capRaw(t testing.TB, p dom.Page) *dom.RawCapture {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	raw, err := capture.Capture(ctx, p)
	if err != nil {
		t.Fatalf("Capture: %v", err)
	}
	return raw
}

// capWaitFrames waits until the page has n out-of-process frames.
func capWaitFrames(t testing.TB, p dom.Page, n int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	for {
		fs, err := p.Frames(ctx)
		if err == nil && len(fs) >= n {
			return
		}
		select {
		case <-ctx.Done():
			t.Fatalf("waiting for %d out-of-process frames: got %d (%v)", n, len(fs), err)
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// capNode is a DOM node as the tests read it.
type capNode struct {
	NodeID          int64      `json:"nodeId"`
	BackendNodeID   int64      `json:"backendNodeId"`
	NodeType        int        `json:"nodeType"`
	NodeName        string     `json:"nodeName"`
	NodeValue       string     `json:"nodeValue"`
	ShadowRootType  string     `json:"shadowRootType"`
	FrameID         string     `json:"frameId"`
	Attributes      []string   `json:"attributes"`
	Children        []*capNode `json:"children"`
	ShadowRoots     []*capNode `json:"shadowRoots"`
	ContentDocument *capNode   `json:"contentDocument"`
	// set by flatten
	shadow string // the type of the nearest enclosing shadow root
	target string
	depth  int
}

func (n *capNode) attr(name string) string {
	for i := 0; i+1 < len(n.Attributes); i += 2 {
		if n.Attributes[i] == name {
			return n.Attributes[i+1]
		}
	}
	return ""
}

// capAllNodes flattens every target's document, with deep parts grafted,
// into one list. It tags each node with its target and enclosing shadow
// type.
func capAllNodes(t testing.TB, raw *dom.RawCapture) []*capNode {
	t.Helper()
	var out []*capNode
	for _, rt := range raw.Targets {
		if rt.Error != "" {
			continue
		}
		var doc struct {
			Root *capNode `json:"root"`
		}
		if err := json.Unmarshal(rt.Document, &doc); err != nil || doc.Root == nil {
			t.Fatalf("target %s: document: %v", rt.TargetID, err)
		}
		byID := map[int64]*capNode{}
		var parts []struct {
			ParentID int64      `json:"parentId"`
			Nodes    []*capNode `json:"nodes"`
		}
		for _, p := range rt.DocumentParts {
			var ev struct {
				ParentID int64      `json:"parentId"`
				Nodes    []*capNode `json:"nodes"`
			}
			if err := json.Unmarshal(p, &ev); err != nil {
				t.Fatalf("part: %v", err)
			}
			parts = append(parts, ev)
		}
		walk := func(root *capNode, shadow string, depth int) {
			type item struct {
				n      *capNode
				shadow string
				depth  int
			}
			stack := []item{{root, shadow, depth}}
			for len(stack) > 0 {
				it := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				n := it.n
				n.shadow, n.target, n.depth = it.shadow, rt.TargetID, it.depth
				if n.ShadowRootType != "" {
					n.shadow = n.ShadowRootType
				}
				byID[n.NodeID] = n
				out = append(out, n)
				for _, c := range n.Children {
					stack = append(stack, item{c, n.shadow, it.depth + 1})
				}
				for _, c := range n.ShadowRoots {
					stack = append(stack, item{c, n.shadow, it.depth + 1})
				}
				if n.ContentDocument != nil {
					stack = append(stack, item{n.ContentDocument, n.shadow, it.depth + 1})
				}
			}
		}
		walk(doc.Root, "", 0)
		for _, p := range parts {
			parent := byID[p.ParentID]
			if parent == nil {
				t.Fatalf("part for unknown parent %d", p.ParentID)
			}
			for _, n := range p.Nodes {
				walk(n, parent.shadow, parent.depth+1)
			}
		}
	}
	return out
}

// capByID finds the element with id attribute id.
func capByID(nodes []*capNode, id string) *capNode {
	for _, n := range nodes {
		if n.NodeType == dom.ElementNode && n.attr("id") == id {
			return n
		}
	}
	return nil
}
