function() {
  /*@typingHelpers*/
  const el = typingTarget(this);
  if (!el) return null;
  if (el.localName === 'input' || el.localName === 'textarea') return el.value;
  if (el.isContentEditable) return el.innerText;
  return null;
}
