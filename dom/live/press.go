package live

import (
	"context"
	"strings"

	"domscope/dom"
)

// pressKey presses one key chord, focusing the node first when one is given.
// A spec of several keys apart ("ArrowDown ArrowDown Enter") presses
// them in turn.
func (s *Service) pressKey(ctx context.Context, page dom.Page, t *target, spec string, modifiers []string) (*dom.DialogInfo, error) {
	var kps []KeyPress
	kp, err := ParseKey(spec, modifiers)
	if err == nil {
		kps = append(kps, kp)
	} else if keys := strings.Fields(spec); len(keys) > 1 {
		for _, k := range keys {
			kp, err := ParseKey(k, modifiers)
			if err != nil {
				return nil, err
			}
			kps = append(kps, kp)
		}
	} else {
		return nil, err
	}
	if t != nil {
		if err := s.focus(ctx, t); err != nil {
			return nil, err
		}
	}
	for _, kp := range kps {
		if d, err := s.sendKeys(ctx, page, kp); d != nil || err != nil {
			return d, err
		}
	}
	return nil, nil
}

// sendKeys dispatches the key events of kp on the top-level page. The
// page routes them to the focused element in whatever frame holds it.
func (s *Service) sendKeys(ctx context.Context, page dom.Page, kp KeyPress) (*dom.DialogInfo, error) {
	for _, ev := range keyEvents(kp) {
		if d, err := s.dispatch(ctx, page, "Input.dispatchKeyEvent", ev); d != nil || err != nil {
			return d, err
		}
	}
	return nil, nil
}

// focus gives the node keyboard focus.
func (s *Service) focus(ctx context.Context, t *target) error {
	if err := s.call(ctx, t.sess, "DOM.focus", map[string]any{"backendNodeId": t.node.BackendID}, nil); err != nil {
		return withNode(err, t.node)
	}
	return nil
}
