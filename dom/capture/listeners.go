package capture

import (
	"context"
	"math/rand/v2"
	"slices"
	"strconv"
	"sync"
	"time"

	"domscope/dom"
)

// ReleaseTimeout bounds the release of the capture's remote objects.
const ReleaseTimeout = 5 * time.Second

// fetchListeners lists the elements that have a click-family listener on
// themselves. It makes one DOMDebugger.getEventListeners call on the
// document. Depth -1 and pierce reach shadow roots and same-process
// frames. Listeners on the document, <html> and <body> are delegating
// roots, not clickables.
func fetchListeners(ctx context.Context, s dom.Session) ([]dom.RawListener, error) {
	group := ObjectGroup("domscope-capture")
	var ev struct {
		Result struct {
			ObjectID string `json:"objectId"`
		} `json:"result"`
	}
	if err := s.Call(ctx, "Runtime.evaluate", map[string]any{"expression": "document", "objectGroup": group}, &ev); err != nil {
		return nil, err
	}
	// Released in the background with a bound of its own. A capture that
	// was canceled (a dialog blocks the page) must return at once.
	defer func() {
		go func() {
			rctx, cancel := context.WithTimeout(context.Background(), ReleaseTimeout)
			defer cancel()
			_ = s.Call(rctx, "Runtime.releaseObjectGroup", map[string]any{"objectGroup": group}, nil)
		}()
	}()
	if ev.Result.ObjectID == "" {
		return nil, nil
	}
	var desc struct {
		Node struct {
			BackendNodeID int64 `json:"backendNodeId"`
			Children      []struct {
				BackendNodeID int64  `json:"backendNodeId"`
				NodeName      string `json:"nodeName"`
				Children      []struct {
					BackendNodeID int64  `json:"backendNodeId"`
					NodeName      string `json:"nodeName"`
				} `json:"children"`
			} `json:"children"`
		} `json:"node"`
	}
	var res struct {
		Listeners []struct {
			Type          string `json:"type"`
			BackendNodeID int64  `json:"backendNodeId"`
		} `json:"listeners"`
	}
	// Both need only the document's object, so they are sent together.
	var descErr, lisErr error
	var wg sync.WaitGroup
	wg.Go(func() {
		descErr = s.Call(ctx, "DOM.describeNode", map[string]any{"objectId": ev.Result.ObjectID, "depth": 2}, &desc)
	})
	lisErr = s.Call(ctx, "DOMDebugger.getEventListeners", map[string]any{"objectId": ev.Result.ObjectID, "depth": -1, "pierce": true}, &res)
	wg.Wait()
	if descErr != nil {
		return nil, descErr
	}
	if lisErr != nil {
		return nil, lisErr
	}
	roots := map[int64]bool{desc.Node.BackendNodeID: true}
	for _, c := range desc.Node.Children {
		if c.NodeName == "HTML" {
			roots[c.BackendNodeID] = true
			for _, cc := range c.Children {
				if cc.NodeName == "BODY" {
					roots[cc.BackendNodeID] = true
				}
			}
		}
	}
	var out []dom.RawListener
	seen := map[dom.RawListener]bool{}
	for _, l := range res.Listeners {
		if l.BackendNodeID == 0 || roots[l.BackendNodeID] || !slices.Contains(dom.ListenerTypes, l.Type) {
			continue
		}
		rl := dom.RawListener{BackendID: l.BackendNodeID, Type: l.Type}
		if !seen[rl] {
			seen[rl] = true
			out = append(out, rl)
		}
	}
	return out, nil
}

// ObjectGroup names a group for the remote objects of one capture or
// refresh. A group is released in the background, after its capture
// returns. Each capture has a group of its own. So one release cannot
// free the objects of the next capture on the same page.
func ObjectGroup(prefix string) string {
	return prefix + "-" + strconv.FormatUint(rand.Uint64(), 36)
}
