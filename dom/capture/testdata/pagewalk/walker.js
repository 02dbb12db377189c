// In-page walker: one row per node in document order (shadow roots and
// same-origin frame documents inline). mode 0: DOM+layout; 1: +role/name
// for every element; 2: +role/name only where role is not generic.
function __walk(mode) {
  const STY = ['display', 'visibility', 'opacity', 'cursor', 'pointer-events'];
  const daa = globalThis.__daa;
  const out = [];
  const sens = el => {
    if (el.localName === 'input' && (el.type || '').toLowerCase() === 'password') return true;
    const ac = (el.getAttribute('autocomplete') || '').toLowerCase().split(/\s+/);
    return ac.some(t => t === 'current-password' || t === 'new-password' || t === 'one-time-code' || t.startsWith('cc-'));
  };
  const stack = [[document, 0, null]];
  while (stack.length) {
    const [n, depth, frameOff] = stack.pop();
    const t = n.nodeType;
    const row = [t, depth];
    if (t === 1) {
      row.push(n.localName);
      const a = [];
      for (const at of n.attributes) a.push(at.name, at.value);
      row.push(a);
      if (mode !== 3) {
        const r = n.getBoundingClientRect();
        row.push([r.x, r.y, r.width, r.height]);
        const cs = getComputedStyle(n);
        row.push(STY.map(s => cs.getPropertyValue(s)));
      }
      if ((n.localName === 'input' || n.localName === 'textarea' || n.localName === 'select')) {
        row.push(sens(n) ? (n.value ? '\u2022\u2022\u2022\u2022' : '') : n.value, !!n.checked);
      }
      if (mode > 0 && daa) {
        const role = daa.getRole(n) || '';
        let name = '';
        if (mode === 1 || ((mode === 2 || mode === 3) && role && role !== 'generic' && role !== 'none' && role !== 'presentation')) {
          try { name = daa.computeAccessibleName(n); } catch (e) { name = '!'; }
        }
        row.push(role, name);
      }
    } else if (t === 3) {
      row.push(n.data);
    } else if (t === 11) {
      row.push(n.mode || '');
    }
    out.push(row);
    // children last-first onto the stack, so they pop in order.
    const kids = [];
    if (t === 1) {
      if (n.shadowRoot) kids.push(n.shadowRoot);
      if (n.localName === 'iframe' || n.localName === 'frame') {
        let d = null; try { d = n.contentDocument; } catch (e) {}
        if (d) kids.push(d);
      }
      if (n.localName === 'template') kids.push(n.content);
    }
    for (let c = n.firstChild; c; c = c.nextSibling) kids.push(c);
    for (let i = kids.length - 1; i >= 0; i--) stack.push([kids[i], depth + 1, frameOff]);
  }
  return JSON.stringify(out);
}
