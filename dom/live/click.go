package live

import (
	"context"
	"strings"

	"domscope/dom"
)

// click scrolls the node into view and finds the centre of its largest
// visible quad. It checks that the node, not something over it, would
// get the click. Then it dispatches a real mouse click on the top-level
// page.
func (s *Service) click(ctx context.Context, page dom.Page, t *target, a dom.Action, res *dom.ActionResult) (*dom.DialogInfo, error) {
	if t.node.Tag == "option" && a.Button == "" && a.ClickCount <= 1 && len(a.Modifiers) == 0 {
		// An <option> is chosen, not clicked: a real click on it lands in
		// the browser's own popup, which the page never sees.
		v, ok := t.node.Attrs["value"]
		if !ok {
			v = strings.TrimSpace(textOf(t.node))
		}
		return nil, s.selectOption(ctx, t, v)
	}
	button := strings.ToLower(a.Button)
	if button == "" {
		button = "left"
	}
	buttons := map[string]int{"left": 1, "right": 2, "middle": 4, "back": 8, "forward": 16}[button]
	if buttons == 0 {
		return nil, dom.Errorf(dom.ValidationError, nil, "unknown mouse button %q: use left, right or middle", a.Button)
	}
	count := a.ClickCount
	if count == 0 {
		count = 1
	}
	if count < 0 || count > 3 {
		return nil, dom.Errorf(dom.ValidationError, nil, "clickCount %d: use 1, 2 or 3", count)
	}
	mods, err := modifierBits(a.Modifiers)
	if err != nil {
		return nil, err
	}
	x, y, err := s.point(ctx, page, t, !a.Force)
	if err != nil {
		return nil, err
	}
	s.effect.ripple(x, y)
	if s.cfg.VisualEffects {
		res.VisualEffect = &dom.VisualEffect{Type: "ripple", X: x, Y: y}
	}
	ev := func(typ string, n int) map[string]any {
		m := map[string]any{"type": typ, "x": x, "y": y, "modifiers": mods, "pointerType": "mouse"}
		if typ != "mouseMoved" {
			m["button"] = button
			m["clickCount"] = n
			if typ == "mousePressed" {
				m["buttons"] = buttons
			}
		}
		return m
	}
	if d, err := s.dispatch(ctx, page, "Input.dispatchMouseEvent", ev("mouseMoved", 0)); d != nil || err != nil {
		return d, err
	}
	for i := 1; i <= count; i++ {
		if d, err := s.dispatch(ctx, page, "Input.dispatchMouseEvent", ev("mousePressed", i)); d != nil || err != nil {
			return d, err
		}
		if d, err := s.dispatch(ctx, page, "Input.dispatchMouseEvent", ev("mouseReleased", i)); d != nil || err != nil {
			return d, err
		}
	}
	return nil, nil
}

// hover moves the mouse over the node's centre.
func (s *Service) hover(ctx context.Context, page dom.Page, t *target, a dom.Action) error {
	x, y, err := s.point(ctx, page, t, !a.Force)
	if err != nil {
		return err
	}
	mods, err := modifierBits(a.Modifiers)
	if err != nil {
		return err
	}
	_, err = s.dispatch(ctx, page, "Input.dispatchMouseEvent", map[string]any{"type": "mouseMoved", "x": x, "y": y, "modifiers": mods})
	return err
}

// textOf is the text under a node, from the snapshot.
func textOf(n *dom.VirtualNode) string {
	var b strings.Builder
	dom.Walk(n, func(c *dom.VirtualNode) {
		if c.NodeType == dom.TextNode {
			b.WriteString(c.Text)
		}
	})
	return b.String()
}
