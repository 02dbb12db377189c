package live

import (
	"context"

	"domscope/dom"
)

// QueryCSS runs a selector on the top-level document and maps the matches
// to nodes of the current snapshot (matches the snapshot lacks are left out).
func (s *Service) QueryCSS(ctx context.Context, selector string) ([]*dom.VirtualNode, error) {
	page, _, err := s.session()
	if err != nil {
		return nil, err
	}
	snap, err := s.Snapshot(ctx, false)
	if err != nil {
		return nil, err
	}
	s.opMu.Lock()
	defer s.opMu.Unlock()
	var doc struct {
		Root struct {
			NodeID int64 `json:"nodeId"`
		} `json:"root"`
	}
	// getDocument makes Chrome forget the node ids the live model uses.
	s.dropModel("a CSS query reset the page's node ids")
	if err := s.call(ctx, page, "DOM.getDocument", map[string]any{"depth": 0}, &doc); err != nil {
		return nil, err
	}
	var qs struct {
		NodeIDs []int64 `json:"nodeIds"`
	}
	if err := s.call(ctx, page, "DOM.querySelectorAll", map[string]any{"nodeId": doc.Root.NodeID, "selector": selector}, &qs); err != nil {
		if dom.CodeOf(err) == dom.CDPError {
			return nil, dom.Errorf(dom.ValidationError, err, "bad CSS selector %q", selector)
		}
		return nil, err
	}
	var out []*dom.VirtualNode
	for i, id := range qs.NodeIDs {
		if i == 200 {
			break
		}
		var d struct {
			Node struct {
				BackendNodeID int64 `json:"backendNodeId"`
			} `json:"node"`
		}
		if err := s.call(ctx, page, "DOM.describeNode", map[string]any{"nodeId": id}, &d); err != nil {
			continue
		}
		if n := findBackend(snap, page.TargetID(), d.Node.BackendNodeID, page.TargetID()); n != nil {
			out = append(out, n)
		}
	}
	return out, nil
}
