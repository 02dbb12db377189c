function(want) {
  let sel = this;
  while (sel && sel.localName !== 'select') sel = sel.parentElement;
  if (!sel) return {notSelect: true};
  if (!sel.isConnected) return {stale: true};
  if (sel.disabled) return {disabled: true};
  const opts = Array.from(sel.options);
  const label = (o) => (o.label || o.textContent || '').replace(/\s+/g, ' ').trim();
  let pick = opts.find(o => o.value === want) || opts.find(o => label(o) === want.trim()) ||
             opts.find(o => label(o).toLowerCase() === want.trim().toLowerCase());
  if (!pick) return {options: opts.slice(0, 30).map(o => label(o) + (o.value !== label(o) ? ' (' + o.value + ')' : ''))};
  if (pick.disabled) return {optionDisabled: true, label: label(pick)};
  if (sel.multiple) { for (const o of opts) o.selected = (o === pick); } else { sel.value = pick.value; pick.selected = true; }
  sel.dispatchEvent(new Event('input', {bubbles: true, composed: true}));
  sel.dispatchEvent(new Event('change', {bubbles: true}));
  return {ok: true, value: sel.value, label: label(pick)};
}
