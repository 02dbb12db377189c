package model

import (
	"context"
	_ "embed" // page scripts

	"domscope/dom"
)

// focusJS finds the focused element, through open shadow roots and
// same-origin frames, where the AX tree marks it focused. The guard
// keeps it: a read that finds the same focus needs no refresh (still.go).
var focusJS = PageJS(focusSrc, "deepFocus", deepFocusJS)

//go:embed refresh_focus.js
var focusSrc string

// fetchFocus returns the backend id of the focused element (0 if none).
func fetchFocus(ctx context.Context, p dom.Session, group string) (int64, error) {
	var ev struct {
		Result struct {
			ObjectID string `json:"objectId"`
		} `json:"result"`
	}
	if err := p.Call(ctx, "Runtime.evaluate", map[string]any{"expression": focusJS, "objectGroup": group}, &ev); err != nil {
		return 0, err
	}
	if ev.Result.ObjectID == "" {
		return 0, nil
	}
	var d struct {
		Node struct {
			BackendNodeID int64 `json:"backendNodeId"`
		} `json:"node"`
	}
	if err := p.Call(ctx, "DOM.describeNode", map[string]any{"objectId": ev.Result.ObjectID}, &d); err != nil {
		return 0, err
	}
	return d.Node.BackendNodeID, nil
}
