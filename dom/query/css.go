package query

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"

	"domscope/dom"
)

// CallFunc sends one CDP command. It is Session.Call, or a wrapper of it
// that bounds and maps errors.
type CallFunc func(ctx context.Context, method string, params, result any) error

// queryGroup names the remote objects of a CSS query, and queryWorld the
// isolated world it runs in.
const (
	queryGroup = "domscope-query"
	queryWorld = "domscope-query"
)

// QueryCSS runs a selector on the top-level document of page target
// targetID through call. It maps the matches (the first 200, in document
// order) to nodes of snap. Matches snap lacks are left out. It runs in an
// isolated world: the page cannot steer it. It goes through Runtime, not
// DOM.getDocument. That would make Chrome forget the
// node ids a live page model follows.
func QueryCSS(ctx context.Context, call CallFunc, snap *dom.Snapshot, targetID, selector string) ([]*dom.VirtualNode, error) {
	sel, _ := json.Marshal(selector)
	var ev struct {
		Result struct {
			ObjectID string `json:"objectId"`
		} `json:"result"`
		ExceptionDetails *struct {
			Text string `json:"text"`
		} `json:"exceptionDetails"`
	}
	// An isolated world has the browser's own querySelectorAll and Array,
	// whatever the page's scripts redefined in theirs. A page target's
	// main frame has the target's id.
	var world struct {
		ID int64 `json:"executionContextId"`
	}
	if err := call(ctx, "Page.createIsolatedWorld", map[string]any{"frameId": targetID, "worldName": queryWorld, "grantUniveralAccess": false}, &world); err != nil {
		return nil, err
	}
	expr := "Array.from(document.querySelectorAll(" + string(sel) + ")).slice(0, 200)"
	if err := call(ctx, "Runtime.evaluate", map[string]any{"expression": expr, "objectGroup": queryGroup, "contextId": world.ID}, &ev); err != nil {
		return nil, err
	}
	defer func() {
		_ = call(ctx, "Runtime.releaseObjectGroup", map[string]any{"objectGroup": queryGroup}, nil)
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
	if err := call(ctx, "Runtime.getProperties", map[string]any{"objectId": ev.Result.ObjectID, "ownProperties": true}, &props); err != nil {
		return nil, err
	}
	objs := make([]string, len(props.Result))
	for _, p := range props.Result {
		if i, err := strconv.Atoi(p.Name); err == nil && i >= 0 && i < len(objs) && p.Value != nil {
			objs[i] = p.Value.ObjectID // in document order
		}
	}
	var backends []int64
	for _, obj := range objs {
		if obj == "" {
			continue
		}
		var d struct {
			Node struct {
				BackendNodeID int64 `json:"backendNodeId"`
			} `json:"node"`
		}
		if err := call(ctx, "DOM.describeNode", map[string]any{"objectId": obj}, &d); err != nil {
			continue
		}
		backends = append(backends, d.Node.BackendNodeID)
	}
	// Only the matches are indexed: a map of a 50,000-element page's
	// nodes took longer than the query.
	byBackend := make(map[int64]*dom.VirtualNode, len(backends))
	for _, b := range backends {
		byBackend[b] = nil
	}
	if snap != nil && len(backends) > 0 {
		for _, n := range snap.ByID {
			if _, ok := byBackend[n.BackendID]; ok && n.BackendID != 0 && (n.TargetID == "" || n.TargetID == targetID) {
				byBackend[n.BackendID] = n
			}
		}
	}
	var out []*dom.VirtualNode
	for _, b := range backends {
		if n := byBackend[b]; n != nil {
			out = append(out, n)
		}
	}
	return out, nil
}

// SelectRoots is the node IDs a view's selector names (Options.Roots).
// The selector is one node of snap by id (node_12, 12 or [12]). Else it is
// a CSS selector; css finds its matches on the page.
func SelectRoots(snap *dom.Snapshot, selector string, css func(selector string) ([]*dom.VirtualNode, error)) ([]string, error) {
	selector = strings.TrimSpace(selector)
	if n := snap.Node(selector); n != nil {
		return []string{n.ID}, nil
	}
	if id := dom.NormalizeID(selector); strings.HasPrefix(id, "node_") {
		if _, isNum := dom.IDNumber(id); isNum {
			return nil, dom.Errorf(dom.NodeNotFound, nil, "%s is not in the current snapshot: use an id from the latest snapshot, or a CSS selector", id)
		}
	}
	nodes, err := css(selector)
	if err != nil {
		return nil, err
	}
	if len(nodes) == 0 {
		return nil, dom.Errorf(dom.ValidationError, nil, "no element matches the CSS selector %q", selector)
	}
	ids := make([]string, len(nodes))
	for i, n := range nodes {
		ids[i] = n.ID
	}
	return ids, nil
}
