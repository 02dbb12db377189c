package live

import (
	"context"
	_ "embed" // page scripts

	"domscope/dom"
)

// keyEventTypes are the listeners that make typing go key by key.
var keyEventTypes = map[string]bool{"keydown": true, "keypress": true, "keyup": true}

// chainOf lists a node, its ancestors (across shadow roots and up to
// the document) and the window: where a key listener can hear it.
//
//go:embed keytyping_chain.js
var chainOf string

// listensForKeys reports whether the page listens for keys at t: a
// keydown, keypress or keyup listener on the node, an ancestor, the
// document or the window (DOMDebugger.getEventListeners). A combobox that
// filters on keyup sees nothing of Input.insertText.
func (s *Service) listensForKeys(ctx context.Context, t *target) bool {
	const group = "domscope-keys"
	defer func() {
		_ = s.call(ctx, t.sess, "Runtime.releaseObjectGroup", map[string]any{"objectGroup": group}, nil)
	}()
	var node struct {
		Object struct {
			ObjectID string `json:"objectId"`
		} `json:"object"`
	}
	if s.call(ctx, t.sess, "DOM.resolveNode", map[string]any{"backendNodeId": t.node.BackendID, "objectGroup": group}, &node) != nil {
		return false
	}
	var chain struct {
		Result struct {
			ObjectID string `json:"objectId"`
		} `json:"result"`
	}
	if s.call(ctx, t.sess, "Runtime.callFunctionOn", map[string]any{"objectId": node.Object.ObjectID, "functionDeclaration": chainOf, "objectGroup": group}, &chain) != nil {
		return false
	}
	var props struct {
		Result []struct {
			Name  string `json:"name"`
			Value struct {
				ObjectID string `json:"objectId"`
			} `json:"value"`
		} `json:"result"`
	}
	if s.call(ctx, t.sess, "Runtime.getProperties", map[string]any{"objectId": chain.Result.ObjectID, "ownProperties": true}, &props) != nil {
		return false
	}
	for _, p := range props.Result {
		if p.Value.ObjectID == "" || p.Name == "length" || p.Name == "__proto__" {
			continue
		}
		var ls struct {
			Listeners []struct {
				Type string `json:"type"`
			} `json:"listeners"`
		}
		if s.call(ctx, t.sess, "DOMDebugger.getEventListeners", map[string]any{"objectId": p.Value.ObjectID}, &ls) != nil {
			continue
		}
		for _, l := range ls.Listeners {
			if keyEventTypes[l.Type] {
				return true
			}
		}
	}
	return false
}

// typeKeys types body key by key: keydown, keypress, input and keyup
// for each character, as a person's typing makes. A character with no
// key on a US keyboard is inserted on its own.
func (s *Service) typeKeys(ctx context.Context, page dom.Page, body string) (*dom.DialogInfo, error) {
	for _, r := range body {
		name := string(r)
		switch r {
		case '\n':
			name = "Enter"
		case ' ':
			name = "Space"
		}
		kp, err := ParseKey(name, nil)
		if err != nil || (kp.Def.Text == "" && r != '\n') {
			if d, err := s.dispatch(ctx, page, "Input.insertText", map[string]any{"text": string(r)}); d != nil || err != nil {
				return d, err
			}
			continue
		}
		if r == ' ' {
			kp.Def.Text = " "
		}
		if d, err := s.sendKeys(ctx, page, kp); d != nil || err != nil {
			return d, err
		}
	}
	return nil, nil
}
