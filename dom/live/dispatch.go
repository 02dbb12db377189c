package live

import (
	"context"
	"encoding/json"
	"time"

	"domscope/dom"
)

// dispatch sends an input command that a JavaScript dialog may block.
// An alert() in a click handler stops the renderer, and Chrome answers
// the input command only after the dialog is closed. So the call runs
// on its own goroutine. dispatch returns as soon as either it answers or
// a dialog opens. The dialog is then returned. The call finishes later,
// bounded by CallTimeout, once someone handles the dialog.
func (s *Service) dispatch(ctx context.Context, sess dom.Session, method string, params any) (*dom.DialogInfo, error) {
	s.mu.Lock()
	sig, open := s.dialogSig, s.dialog
	s.mu.Unlock()
	if open != nil {
		return open, nil
	}
	done := make(chan error, 1)
	// The call must outlive this function when a dialog opens, so it does
	// not use ctx. The service's lifetime and CallTimeout bound it.
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		done <- s.call(s.ctx, sess, method, params, nil)
	}()
	select {
	case err := <-done:
		return nil, err
	case <-sig:
		return s.Dialog(), nil
	case <-ctx.Done():
		return nil, dom.Errorf(dom.Timeout, ctx.Err(), "%s was cancelled", method)
	}
}

// callOn runs a function in the page with this = the node (backend id).
// The arguments are backend ids of other nodes, or plain JSON values.
// It decodes the function's return value into result.
func (s *Service) callOn(ctx context.Context, sess dom.Session, backend int64, fn string, args []any, result any) error {
	obj, err := s.resolveObject(ctx, sess, backend)
	if err != nil {
		return err
	}
	defer s.release(sess, obj)
	var cargs []map[string]any
	for _, a := range args {
		if id, ok := a.(int64); ok {
			o, err := s.resolveObject(ctx, sess, id)
			if err != nil {
				return err
			}
			defer s.release(sess, o)
			cargs = append(cargs, map[string]any{"objectId": o})
			continue
		}
		cargs = append(cargs, map[string]any{"value": a})
	}
	var r struct {
		Result struct {
			Value json.RawMessage `json:"value"`
		} `json:"result"`
		ExceptionDetails *struct {
			Text      string `json:"text"`
			Exception struct {
				Description string `json:"description"`
			} `json:"exception"`
		} `json:"exceptionDetails"`
	}
	params := map[string]any{"functionDeclaration": fn, "objectId": obj, "returnByValue": true, "awaitPromise": false}
	if len(cargs) > 0 {
		params["arguments"] = cargs
	}
	if err := s.call(ctx, sess, "Runtime.callFunctionOn", params, &r); err != nil {
		return err
	}
	if r.ExceptionDetails != nil {
		msg := r.ExceptionDetails.Exception.Description
		if msg == "" {
			msg = r.ExceptionDetails.Text
		}
		return dom.Errorf(dom.CDPError, nil, "script in the page failed: %s", dom.Clip(msg, 200))
	}
	if result != nil && len(r.Result.Value) > 0 {
		if err := json.Unmarshal(r.Result.Value, result); err != nil {
			return dom.Errorf(dom.CDPError, err, "unexpected answer from the page")
		}
	}
	return nil
}

func (s *Service) resolveObject(ctx context.Context, sess dom.Session, backend int64) (string, error) {
	var r struct {
		Object struct {
			ObjectID string `json:"objectId"`
		} `json:"object"`
	}
	if err := s.call(ctx, sess, "DOM.resolveNode", map[string]any{"backendNodeId": backend, "objectGroup": "domscope"}, &r); err != nil {
		return "", err
	}
	if r.Object.ObjectID == "" {
		return "", dom.Errorf(dom.NodeStale, nil, "the node is no longer in the page")
	}
	return r.Object.ObjectID, nil
}

// release frees a remote object in the background: best effort, it must
// not delay the action.
func (s *Service) release(sess dom.Session, obj string) {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return
	}
	s.wg.Add(1)
	s.mu.Unlock()
	go func() {
		defer s.wg.Done()
		ctx, cancel := context.WithTimeout(s.ctx, s.cfg.CallTimeout)
		defer cancel()
		_ = sess.Call(ctx, "Runtime.releaseObject", map[string]any{"objectId": obj}, nil)
	}()
}

// toFront brings page's tab to the front when it is hidden (another
// tab of its window in front, as another agent's `tab new` puts it).
// A hidden tab runs no frames, and Chrome holds a mouse move for the
// next one: each click then took five seconds.
func (s *Service) toFront(ctx context.Context, page dom.Page) {
	var r struct {
		Result struct {
			Value string `json:"value"`
		} `json:"result"`
	}
	// Briefly: an open dialog blocks evaluation.
	c, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	if page.Call(c, "Runtime.evaluate", map[string]any{"expression": "document.visibilityState", "returnByValue": true}, &r) == nil && r.Result.Value == "hidden" {
		_ = page.Call(c, "Page.bringToFront", nil, nil)
	}
}
