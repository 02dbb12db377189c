function() {
  /*@typingHelpers*/
  const el = this;
  if (!el.isConnected) return {stale: true};
  const kind = textKind(el) || 'other';
  const type = kind === 'input' ? (el.type || 'text') : '';
  if (el.disabled) return {kind, type, disabled: true};
  if ((kind === 'input' || kind === 'textarea') && el.readOnly) return {kind, type, readonly: true};
  if (kind === 'input' && ['checkbox', 'radio', 'button', 'submit', 'reset', 'file', 'image', 'hidden'].includes(type))
    return {kind, type, notText: true};
  return {kind, type};
}
