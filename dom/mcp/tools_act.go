package mcp

import (
	"context"

	"domscope/dom"
)

// ClickArgs are dom_click's arguments.
type ClickArgs struct {
	ID         NodeID      `json:"id"`
	Button     string      `json:"button,omitempty" jsonschema:"left (default), right or middle"`
	ClickCount int         `json:"clickCount,omitempty" jsonschema:"2 for a double click"`
	Modifiers  []string    `json:"modifiers,omitempty" jsonschema:"keys held during the click: Alt, Ctrl, Meta, Shift"`
	Force      bool        `json:"force,omitempty" jsonschema:"click even when another element covers the target (after an OCCLUDED error)"`
	Expect     *dom.Expect `json:"expect,omitempty"`
	Metrics    bool        `json:"metrics,omitempty" jsonschema:"add the page's performance delta: DOM nodes, JS heap, layouts, style recalcs"`
}

// TypeArgs are dom_type's arguments.
type TypeArgs struct {
	ID      NodeID      `json:"id"`
	Text    string      `json:"text" jsonschema:"the text; it replaces what the field holds. End it with a newline (\\n) to press Enter after it"`
	Expect  *dom.Expect `json:"expect,omitempty"`
	Metrics bool        `json:"metrics,omitempty" jsonschema:"add the page's performance delta: DOM nodes, JS heap, layouts, style recalcs"`
}

// KeyArgs are dom_key's arguments.
type KeyArgs struct {
	Key     string      `json:"key" jsonschema:"a key name (Enter, Escape, Tab, ArrowDown, Backspace, a, F5), a chord (ctrl+a, shift+Tab), or several apart, pressed in turn (ArrowDown ArrowDown Enter)"`
	ID      NodeID      `json:"id,omitempty" jsonschema:"focus this node first (default: the key goes to whatever has the focus)"`
	Expect  *dom.Expect `json:"expect,omitempty"`
	Metrics bool        `json:"metrics,omitempty" jsonschema:"add the page's performance delta: DOM nodes, JS heap, layouts, style recalcs"`
}

// HoverArgs are dom_hover's arguments.
type HoverArgs struct {
	ID     NodeID      `json:"id"`
	Expect *dom.Expect `json:"expect,omitempty"`
}

// SelectArgs are dom_select's arguments.
type SelectArgs struct {
	ID      NodeID      `json:"id"`
	Value   string      `json:"value" jsonschema:"the option to pick: its label (as the view shows it) or its value"`
	Expect  *dom.Expect `json:"expect,omitempty"`
	Metrics bool        `json:"metrics,omitempty" jsonschema:"add the page's performance delta: DOM nodes, JS heap, layouts, style recalcs"`
}

// ScrollArgs are dom_scroll's arguments.
type ScrollArgs struct {
	ID     NodeID      `json:"id,omitempty" jsonschema:"scroll this node into view (no dx/dy), or turn the wheel over it (dx/dy); default: the page"`
	DX     float64     `json:"dx,omitempty" jsonschema:"pixels to scroll right (negative: left)"`
	DY     float64     `json:"dy,omitempty" jsonschema:"pixels to scroll down (negative: up); with no id, dx or dy the page scrolls down by most of a screen"`
	To     ScrollTo    `json:"to,omitempty" jsonschema:"scroll the container of id (the page with no id): down, up, top, bottom, or a number (the Nth row of a list whose rows the view counts, else pixels from the top)"`
	Expect *dom.Expect `json:"expect,omitempty"`
}

func (s *Server) registerActions() {
	addTool(s, "dom_click", "Click a node of the view by its id, as a person would (it is scrolled into view; an element covering it is an OCCLUDED error). Answers with what happened and the lines of the view that changed.",
		map[string][]any{"button": {"left", "right", "middle"}}, func(ctx context.Context, in ClickArgs) reply {
			return s.act(ctx, dom.Action{Kind: dom.KindClick, ID: string(in.ID), Button: in.Button, ClickCount: in.ClickCount, Modifiers: in.Modifiers, Force: in.Force, Expect: in.Expect, Metrics: in.Metrics})
		})
	addTool(s, "dom_type", "Type text into a field (textbox, searchbox, textarea, contenteditable), replacing what it holds. A trailing newline (\\n) presses Enter, e.g. to submit. Text typed into a password or card field never appears in any answer.",
		nil, func(ctx context.Context, in TypeArgs) reply {
			return s.act(ctx, dom.Action{Kind: dom.KindType, ID: string(in.ID), Text: in.Text, Expect: in.Expect, Metrics: in.Metrics})
		})
	addTool(s, "dom_key", "Press a key or chord (Enter, Escape, Tab, ArrowDown, ctrl+a), on the focused element or on the node given by id.",
		nil, func(ctx context.Context, in KeyArgs) reply {
			return s.act(ctx, dom.Action{Kind: dom.KindKey, ID: string(in.ID), Key: in.Key, Expect: in.Expect, Metrics: in.Metrics})
		})
	addTool(s, "dom_hover", "Move the mouse over a node (menus and tooltips that open on hover).",
		nil, func(ctx context.Context, in HoverArgs) reply {
			return s.act(ctx, dom.Action{Kind: dom.KindHover, ID: string(in.ID), Expect: in.Expect})
		})
	addTool(s, "dom_select", "Pick an option of a select (combobox or listbox) by its label or value.",
		nil, func(ctx context.Context, in SelectArgs) reply {
			return s.act(ctx, dom.Action{Kind: dom.KindSelect, ID: string(in.ID), Value: in.Value, Expect: in.Expect, Metrics: in.Metrics})
		})
	addTool(s, "dom_scroll", "Scroll: bring a node into view (id), turn the wheel by dx/dy pixels (over the node, or the page), or with no arguments page down by most of a screen.",
		nil, func(ctx context.Context, in ScrollArgs) reply {
			if in.To != "" {
				return s.scrollTo(ctx, in)
			}
			return s.act(ctx, dom.Action{Kind: dom.KindScroll, ID: string(in.ID), DX: in.DX, DY: in.DY, Expect: in.Expect})
		})
}
