package model

import (
	"context"
	"slices"
	"strings"

	"domscope/dom"
)

// fetchListeners lists the click-family listeners of the inserted
// subtrees, but for those that delegate (delegatingRoots).
func (r *refreshRun) fetchListeners(ctx context.Context) error {
	for _, id := range r.roots {
		ls, err := fetchListenersOf(ctx, r.p, id, r.group)
		if err != nil {
			return err
		}
		for _, l := range ls {
			if !r.delegating[l.BackendID] {
				r.listeners = append(r.listeners, l)
			}
		}
	}
	return nil
}

// fetchListenersOf lists the click-family listeners in one subtree.
func fetchListenersOf(ctx context.Context, p dom.Session, backendID int64, group string) ([]dom.RawListener, error) {
	var r struct {
		Object struct {
			ObjectID string `json:"objectId"`
		} `json:"object"`
	}
	if err := p.Call(ctx, "DOM.resolveNode", map[string]any{"backendNodeId": backendID, "objectGroup": group}, &r); err != nil {
		return nil, nil // removed meanwhile
	}
	var res struct {
		Listeners []struct {
			Type          string `json:"type"`
			BackendNodeID int64  `json:"backendNodeId"`
		} `json:"listeners"`
	}
	if err := p.Call(ctx, "DOMDebugger.getEventListeners", map[string]any{"objectId": r.Object.ObjectID, "depth": -1, "pierce": true}, &res); err != nil {
		return nil, err
	}
	var out []dom.RawListener
	for _, l := range res.Listeners {
		if l.BackendNodeID != 0 && slices.Contains(dom.ListenerTypes, l.Type) {
			out = append(out, dom.RawListener{BackendID: l.BackendNodeID, Type: l.Type})
		}
	}
	return out, nil
}

// delegatingRoots are the main document, its <html> and <body>: a
// listener there delegates, it does not make the node clickable.
func (m *Model) delegatingRoots() map[int64]bool {
	out := map[int64]bool{}
	r := m.ti.Root
	out[r.BackendNodeID] = true
	for _, c := range r.Children {
		if strings.EqualFold(c.NodeName, "HTML") {
			out[c.BackendNodeID] = true
			for _, cc := range c.Children {
				if strings.EqualFold(cc.NodeName, "BODY") {
					out[cc.BackendNodeID] = true
				}
			}
		}
	}
	return out
}
