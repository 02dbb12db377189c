package dom_test

import (
	"context"
	. "domscope/dom"
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

// devSnapshot is a stand-in capture for developing actions before the
// engine's Capture lands: DOM.getDocument only, every node visible.
func devSnapshot(ctx context.Context, p Page, prev *Snapshot) (*Snapshot, error) {
	type rawNode struct {
		BackendNodeID   int64      `json:"backendNodeId"`
		NodeType        int        `json:"nodeType"`
		NodeName        string     `json:"nodeName"`
		LocalName       string     `json:"localName"`
		NodeValue       string     `json:"nodeValue"`
		Attributes      []string   `json:"attributes"`
		Children        []*rawNode `json:"children"`
		ShadowRoots     []*rawNode `json:"shadowRoots"`
		ContentDocument *rawNode   `json:"contentDocument"`
		FrameID         string     `json:"frameId"`
		ShadowRootType  string     `json:"shadowRootType"`
	}
	var doc struct {
		Root *rawNode `json:"root"`
	}
	if err := p.Call(ctx, "DOM.getDocument", map[string]any{"depth": -1, "pierce": true}, &doc); err != nil {
		return nil, err
	}
	frames, _ := p.Frames(ctx)
	s := &Snapshot{ByID: map[string]*VirtualNode{}, TargetID: p.TargetID(), Taken: time.Now()}
	var conv func(r *rawNode, parent *VirtualNode, frame string) *VirtualNode
	target := p.TargetID()
	conv = func(r *rawNode, parent *VirtualNode, frame string) *VirtualNode {
		if r.FrameID != "" {
			frame = r.FrameID
		}
		n := &VirtualNode{ID: fmt.Sprintf("node_%s_%d", target[:4], r.BackendNodeID), BackendID: r.BackendNodeID, NodeType: r.NodeType,
			Tag: r.LocalName, Text: r.NodeValue, Attrs: map[string]string{}, Parent: parent, FrameID: frame, TargetID: target, Visible: true}
		if n.Tag == "" {
			n.Tag = strings.ToLower(r.NodeName)
		}
		for i := 0; i+1 < len(r.Attributes); i += 2 {
			n.Attrs[r.Attributes[i]] = r.Attributes[i+1]
		}
		n.Role = n.Tag
		if strings.Contains(n.Attrs["style"], "display:none") {
			n.Visible = false
		}
		s.ByID[n.ID] = n
		for _, c := range r.ShadowRoots {
			n.Children = append(n.Children, conv(c, n, frame))
		}
		if r.ContentDocument != nil {
			n.Children = append(n.Children, conv(r.ContentDocument, n, frame))
		}
		for _, c := range r.Children {
			n.Children = append(n.Children, conv(c, n, frame))
		}
		if (n.Tag == "iframe") && r.ContentDocument == nil {
			for _, f := range frames {
				if f.TargetID == r.FrameID {
					var fd struct {
						Root *rawNode `json:"root"`
					}
					if f.Session.Call(ctx, "DOM.getDocument", map[string]any{"depth": -1, "pierce": true}, &fd) == nil {
						saved := target
						target = f.TargetID
						n.Children = append(n.Children, conv(fd.Root, n, f.TargetID))
						target = saved
					}
				}
			}
		}
		n.Name = devText(n)
		return n
	}
	s.Root = conv(doc.Root, nil, "")
	var u struct {
		Result struct {
			Value string `json:"value"`
		} `json:"result"`
	}
	_ = p.Call(ctx, "Runtime.evaluate", map[string]any{"expression": "location.href", "returnByValue": true}, &u)
	s.URL = u.Result.Value
	return s, nil
}

var _ = json.Marshal

func devText(n *VirtualNode) string {
	var b []string
	for _, c := range n.Children {
		if c.NodeType == TextNode {
			b = append(b, strings.TrimSpace(c.Text))
		}
	}
	return strings.TrimSpace(strings.Join(b, " "))
}
