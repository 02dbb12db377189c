package live

import (
	"context"
	"encoding/json"
	"strconv"

	"domscope/dom"
)

// queryGroup names the remote objects of a CSS query.
const queryGroup = "domscope-query"

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
	// Through Runtime, not DOM.getDocument: that would make Chrome forget
	// the node ids the live page model follows.
	sel, _ := json.Marshal(selector)
	var ev struct {
		Result struct {
			ObjectID string `json:"objectId"`
		} `json:"result"`
		ExceptionDetails *struct {
			Text string `json:"text"`
		} `json:"exceptionDetails"`
	}
	expr := "Array.from(document.querySelectorAll(" + string(sel) + ")).slice(0, 200)"
	if err := s.call(ctx, page, "Runtime.evaluate", map[string]any{"expression": expr, "objectGroup": queryGroup}, &ev); err != nil {
		return nil, err
	}
	defer func() {
		_ = s.call(ctx, page, "Runtime.releaseObjectGroup", map[string]any{"objectGroup": queryGroup}, nil)
	}()
	if ev.ExceptionDetails != nil || ev.Result.ObjectID == "" {
		return nil, dom.Errorf(dom.ValidationError, nil, "bad CSS selector %q", selector)
	}
	var props struct {
		Result []struct {
			Name  string `json:"name"`
			Value *struct {
				ObjectID string `json:"objectId"`
			} `json:"value"`
		} `json:"result"`
	}
	if err := s.call(ctx, page, "Runtime.getProperties", map[string]any{"objectId": ev.Result.ObjectID, "ownProperties": true}, &props); err != nil {
		return nil, err
	}
	objs := make([]string, len(props.Result))
	for _, p := range props.Result {
		if i, err := strconv.Atoi(p.Name); err == nil && i >= 0 && i < len(objs) && p.Value != nil {
			objs[i] = p.Value.ObjectID // in document order
		}
	}
	var out []*dom.VirtualNode
	for _, obj := range objs {
		if obj == "" {
			continue
		}
		var d struct {
			Node struct {
				BackendNodeID int64 `json:"backendNodeId"`
			} `json:"node"`
		}
		if err := s.call(ctx, page, "DOM.describeNode", map[string]any{"objectId": obj}, &d); err != nil {
			continue
		}
		if n := findBackend(snap, page.TargetID(), d.Node.BackendNodeID, page.TargetID()); n != nil {
			out = append(out, n)
		}
	}
	return out, nil
}
