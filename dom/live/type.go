package live

import (
	"context"
	_ "embed" // page scripts
	"fmt"
	"strings"

	"domscope/dom"
	"domscope/dom/live/model"
)

// typingHelpers are shared by the page functions below. textKind says
// whether an element takes text and how. typingTarget is the element
// text goes to. That is this, or the text field inside it that got the
// focus, e.g. in a custom element whose shadow root delegates focus to
// an <input>.
//
//go:embed type_helpers.js
var typingHelpers string

// typingKind runs in the page before anything is focused, with this = the
// node. It says what kind of field it is, and whether it takes text.
var typingKind = model.PageJS(typingKindSrc, "typingHelpers", typingHelpers)

//go:embed type_kind.js
var typingKindSrc string

// prepareTyping runs in the page after the focus, with this = the node.
// Pickers that have no text to type into (date, colour, range...) get
// their value set directly, with input/change events. Otherwise it
// selects the existing content so the insert replaces it. For a node
// that is not a field itself, it works on the field inside it that took
// the focus. When there is none it says "other", with self when the
// focus stayed on the node.
var prepareTyping = model.PageJS(prepareTypingSrc, "typingHelpers", typingHelpers)

//go:embed type_prepare.js
var prepareTypingSrc string

// readValue returns what the field (or the field inside it that has the
// focus) holds now.
var readValue = model.PageJS(readValueSrc, "typingHelpers", typingHelpers)

//go:embed type_read.js
var readValueSrc string

type typingInfo struct {
	Stale    bool   `json:"stale"`
	Kind     string `json:"kind"`
	Type     string `json:"type"`
	Disabled bool   `json:"disabled"`
	Readonly bool   `json:"readonly"`
	NotText  bool   `json:"notText"`
	Direct   bool   `json:"direct"`
	Had      int    `json:"had"`
	Self     bool   `json:"self"`  // kind "other": the focus stayed on the node
	Inner    bool   `json:"inner"` // the text went to a field inside the node
}

// typeText focuses the field and replaces its content with text through
// real text input, so frameworks see input events. It reads the value
// back, and presses Enter when text ends with "\n".
func (s *Service) typeText(ctx context.Context, page dom.Page, t *target, text string, res *dom.ActionResult) (*dom.DialogInfo, error) {
	t, err := s.labelled(ctx, page, t)
	if err != nil {
		return nil, err
	}
	body, enter := strings.CutSuffix(text, "\n")
	body = strings.ReplaceAll(body, "\r\n", "\n")
	// Check before focusing, so a node that takes no text is left as it was.
	var info typingInfo
	if err := s.callOn(ctx, t.sess, t.node.BackendID, typingKind, nil, &info); err != nil {
		return nil, withNode(err, t.node)
	}
	if err := typingRefused(t.node, info); err != nil {
		return nil, err
	}
	fields := textFieldsIn(t.node)
	if info.Kind == "other" && fields == noField {
		return nil, takesNoText(t.node, "")
	}
	if info.Kind == "select" {
		// Typing into a <select> picks the option with that label or value,
		// as typing on a focused one does.
		if err := s.selectOption(ctx, t, body); err != nil {
			return nil, err
		}
		if enter {
			kp, _ := ParseKey("Enter", nil)
			return s.sendKeys(ctx, page, kp)
		}
		return nil, nil
	}
	if err := s.focus(ctx, t); err != nil {
		// DOM.focus refuses a host whose shadow root delegates the focus;
		// the page's own focus() follows the delegation.
		if dom.CodeOf(err) != dom.NotInteractable || fields == noField ||
			s.callOn(ctx, t.sess, t.node.BackendID, "function() { this.focus(); }", nil, nil) != nil {
			return nil, err
		}
	}
	info = typingInfo{}
	if err := s.callOn(ctx, t.sess, t.node.BackendID, prepareTyping, []any{body}, &info); err != nil {
		return nil, withNode(err, t.node)
	}
	if err := typingRefused(t.node, info); err != nil {
		return nil, err
	}
	if info.Kind == "other" && !(info.Self && fields == inClosedShadow) {
		return nil, takesNoText(t.node, "focusing it did not focus a text field inside it")
	}
	// Else the focus went into a closed shadow root. The page's scripts,
	// and so the read-back, cannot see there: type blind, as a person would.
	if !info.Direct {
		var err error
		var d *dom.DialogInfo
		switch {
		case body != "" && s.listensForKeys(ctx, t):
			// The first key replaces the selection made above.
			res.Typed = "keys"
			d, err = s.typeKeys(ctx, page, body)
		case body != "":
			// insertText replaces the selection made above.
			res.Typed = "insert"
			d, err = s.dispatch(ctx, page, "Input.insertText", map[string]any{"text": body})
		case info.Had > 0:
			kp, _ := ParseKey("Delete", nil)
			d, err = s.sendKeys(ctx, page, kp)
		}
		if d != nil || err != nil {
			return d, err
		}
	}
	if info.Kind != "other" {
		var got *string
		if err := s.callOn(ctx, t.sess, t.node.BackendID, readValue, nil, &got); err != nil {
			return nil, withNode(err, t.node)
		}
		if got != nil && !sameText(info.Kind, *got, body) && !(info.Direct && strings.EqualFold(*got, body)) {
			// A field inside the node was not captured on its own: say no values.
			if info.Type == "password" || info.Inner || t.node.Sensitive() {
				return nil, dom.Errorf(dom.ValidationError, nil, "typed %d characters into %s but it holds %d (the page changed or limited the input)", len([]rune(body)), t.node.ID, len([]rune(*got)))
			}
			return nil, dom.Errorf(dom.ValidationError, nil, "typed %q into %s (%s) but it now holds %q (maxlength, an input mask or a script changed it)", dom.Clip(body, 200), t.node.ID, describeNode(t.node), dom.Clip(*got, 200))
		}
	}
	if enter {
		kp, _ := ParseKey("Enter", nil)
		return s.sendKeys(ctx, page, kp)
	}
	return nil, nil
}

// labelled is the target of text typed or an option picked on t. That is
// the control of a <label> (as Playwright's fill does), else t itself.
func (s *Service) labelled(ctx context.Context, page dom.Page, t *target) (*target, error) {
	c := dom.LabelControl(t.node)
	if c == nil {
		return t, nil
	}
	return s.resolve(ctx, page, t.snap, c.ID)
}

// sameText compares a read-back value with what was typed. Contenteditable
// text comes back through innerText, which may turn spaces into
// non-breaking ones and add a trailing newline.
func sameText(kind, got, want string) bool {
	if got == want {
		return true
	}
	if kind != "editable" {
		return false
	}
	norm := func(s string) string {
		s = strings.ReplaceAll(s, "\u00a0", " ")
		return strings.TrimRight(s, "\n")
	}
	return norm(got) == norm(want)
}

// typingRefused is the error for a field that exists but takes no text now.
func typingRefused(n *dom.VirtualNode, info typingInfo) error {
	switch {
	case info.Stale:
		return withNode(dom.Errorf(dom.NodeStale, nil, "the node is no longer in the page"), n)
	case info.Disabled:
		return dom.Errorf(dom.NotInteractable, nil, "%s (%s) is disabled", n.ID, describeNode(n))
	case info.Readonly:
		return dom.Errorf(dom.NotInteractable, nil, "%s (%s) is read-only", n.ID, describeNode(n))
	case info.NotText:
		return dom.Errorf(dom.NotInteractable, nil, "%s is an <input type=%s>, which takes no text: click it instead", n.ID, info.Type)
	}
	return nil
}

// takesNoText says what n is and that text cannot go there.
func takesNoText(n *dom.VirtualNode, why string) error {
	what := fmt.Sprintf("a <%s>", n.Tag)
	if n.Role != "" && n.Role != n.Tag {
		what += " (role " + n.Role + ")"
	}
	if why != "" {
		why = " (" + why + ")"
	}
	hint := "type into a text field: an input, textarea, select or contenteditable element"
	switch n.Role {
	case "button", "link", "checkbox", "radio", "switch", "tab", "menuitem", "option":
		hint = "click it instead, or " + hint
	}
	return dom.Errorf(dom.NotInteractable, nil, "%s (%s) is %s, which takes no text%s: %s", n.ID, describeNode(n), what, why, hint)
}

// Where a node's text fields are, as textFieldsIn finds them.
type fieldPlace int

const (
	noField        fieldPlace = iota
	inside                    // in its light DOM or an open shadow root
	inClosedShadow            // only in a closed shadow root
)

// textFieldsIn says whether n holds a text field below it: in its
// children and shadow roots, not frames (other documents). Focusing such
// a node can move the focus into one, as custom elements with
// delegatesFocus do.
func textFieldsIn(n *dom.VirtualNode) fieldPlace {
	type item struct {
		n      *dom.VirtualNode
		closed bool
	}
	found := noField
	stack := []item{}
	for _, c := range n.Children {
		stack = append(stack, item{c, false})
	}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if it.n.Tag == "#document" || it.n.ShadowType == "user-agent" {
			continue // another document; the browser's own controls
		}
		closed := it.closed || it.n.ShadowType == "closed"
		if isTextField(it.n) {
			if !closed {
				return inside
			}
			found = inClosedShadow
		}
		for _, c := range it.n.Children {
			stack = append(stack, item{c, closed})
		}
	}
	return found
}

// isTextField reports whether n takes typed text: a text-like input, a
// textarea, a select or a contenteditable element.
func isTextField(n *dom.VirtualNode) bool {
	switch n.Tag {
	case "textarea", "select":
		return true
	case "input":
		switch strings.ToLower(n.Attrs["type"]) {
		case "checkbox", "radio", "button", "submit", "reset", "file", "image", "hidden":
			return false
		}
		return true
	}
	ce, ok := n.Attrs["contenteditable"]
	return ok && !strings.EqualFold(ce, "false")
}
