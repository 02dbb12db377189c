function(text) {
  /*@typingHelpers*/
  const el = typingTarget(this);
  if (!el) {
    let a = this.ownerDocument.activeElement;
    return {kind: 'other', self: a === this};
  }
  const kind = textKind(el);
  const type = kind === 'input' ? (el.type || 'text') : '';
  const inner = el !== this;
  if (inner && (el.disabled || el.readOnly)) return {kind, type, readonly: true};
  if (kind === 'input' && ['date', 'time', 'datetime-local', 'month', 'week', 'color', 'range'].includes(type)) {
    el.focus();
    el.value = text;
    el.dispatchEvent(new Event('input', {bubbles: true, composed: true}));
    el.dispatchEvent(new Event('change', {bubbles: true}));
    return {kind, type, inner, direct: true, had: 0};
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
  return {kind, type, inner, had};
}
