package live

import (
	"context"
	"strings"

	"domscope/dom"
)

// prepareTyping runs in the page with this = the field. It checks the field
// can take text, sets the value of pickers that have no text to type into
// (date, colour, range...) directly with input/change events, and
// otherwise selects the existing content so the insert replaces it.
const prepareTyping = `function(text) {
  const el = this;
  if (!el.isConnected) return {stale: true};
  const tag = el.localName;
  let kind = 'other';
  if (tag === 'input') kind = 'input';
  else if (tag === 'textarea') kind = 'textarea';
  else if (el.isContentEditable) kind = 'editable';
  const type = kind === 'input' ? (el.type || 'text') : '';
  if (el.disabled) return {kind, type, disabled: true};
  if ((kind === 'input' || kind === 'textarea') && el.readOnly) return {kind, type, readonly: true};
  if (kind === 'input' && ['checkbox', 'radio', 'button', 'submit', 'reset', 'file', 'image', 'hidden'].includes(type))
    return {kind, type, notText: true};
  if (kind === 'input' && ['date', 'time', 'datetime-local', 'month', 'week', 'color', 'range'].includes(type)) {
    el.focus();
    el.value = text;
    el.dispatchEvent(new Event('input', {bubbles: true, composed: true}));
    el.dispatchEvent(new Event('change', {bubbles: true}));
    return {kind, type, direct: true, had: 0};
  }
  let had = 0;
  if (kind === 'input' || kind === 'textarea') {
    had = el.value.length;
    try { el.select(); } catch (e) { try { el.setSelectionRange(0, el.value.length); } catch (e2) {} }
  } else if (kind === 'editable') {
    had = (el.innerText || '').length;
    const r = el.ownerDocument.createRange();
    r.selectNodeContents(el);
    const sel = el.ownerDocument.getSelection();
    sel.removeAllRanges();
    sel.addRange(r);
  }
  return {kind, type, had};
}`

// readValue returns what the field holds now.
const readValue = `function() {
  if (this.localName === 'input' || this.localName === 'textarea') return this.value;
  if (this.isContentEditable) return this.innerText;
  return null;
}`

type typingInfo struct {
	Stale    bool   `json:"stale"`
	Kind     string `json:"kind"`
	Type     string `json:"type"`
	Disabled bool   `json:"disabled"`
	Readonly bool   `json:"readonly"`
	NotText  bool   `json:"notText"`
	Direct   bool   `json:"direct"`
	Had      int    `json:"had"`
}

// typeText focuses the field, replaces its content with text through real
// text input (so frameworks see input events), reads the value back, and
// presses Enter when text ends with "\n".
func (s *Service) typeText(ctx context.Context, page dom.Page, t *target, text string) (*dom.DialogInfo, error) {
	body, enter := strings.CutSuffix(text, "\n")
	body = strings.ReplaceAll(body, "\r\n", "\n")
	if err := s.focus(ctx, t); err != nil {
		return nil, err
	}
	var info typingInfo
	if err := s.callOn(ctx, t.sess, t.node.BackendID, prepareTyping, []any{body}, &info); err != nil {
		return nil, withNode(err, t.node)
	}
	switch {
	case info.Stale:
		return nil, withNode(dom.Errorf(dom.NodeStale, nil, "the node is no longer in the page"), t.node)
	case info.Disabled:
		return nil, dom.Errorf(dom.NotInteractable, nil, "%s (%s) is disabled", t.node.ID, describeNode(t.node))
	case info.Readonly:
		return nil, dom.Errorf(dom.NotInteractable, nil, "%s (%s) is read-only", t.node.ID, describeNode(t.node))
	case info.NotText:
		return nil, dom.Errorf(dom.NotInteractable, nil, "%s is an <input type=%s>, which takes no text: click it instead", t.node.ID, info.Type)
	}
	if !info.Direct {
		var err error
		var d *dom.DialogInfo
		switch {
		case body != "":
			// insertText replaces the selection made above.
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
			if info.Type == "password" || t.node.Sensitive() {
				return nil, dom.Errorf(dom.ValidationError, nil, "typed %d characters into %s but it holds %d (the page changed or limited the input)", len([]rune(body)), t.node.ID, len([]rune(*got)))
			}
			return nil, dom.Errorf(dom.ValidationError, nil, "typed %q into %s (%s) but it now holds %q (maxlength, an input mask or a script changed it)", clip(body, 200), t.node.ID, describeNode(t.node), clip(*got, 200))
		}
	}
	if enter {
		kp, _ := ParseKey("Enter", nil)
		return s.sendKeys(ctx, page, kp)
	}
	return nil, nil
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
